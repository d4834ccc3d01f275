"""Shared fixtures: every registered game, under its defaults and each of its declared variants."""

from __future__ import annotations

import random
from typing import Any

import pytest

import robotcore
from robotcore.registry import game_class


def game_configs() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for name in robotcore.list_games():
        out.append((name, {}))
        out.extend((name, dict(v)) for v in game_class(name).variants)
    return out


def config_id(cfg: tuple[str, dict[str, Any]]) -> str:
    name, params = cfg
    return name + ("" if not params else "-" + "-".join(f"{k}={v}" for k, v in params.items()))


CONFIGS = game_configs()


@pytest.fixture(params=CONFIGS, ids=[config_id(c) for c in CONFIGS])
def game(request: pytest.FixtureRequest) -> robotcore.Game:
    name, params = request.param
    return robotcore.load_game(name, **params)


@pytest.fixture(params=robotcore.list_games())
def default_game(request: pytest.FixtureRequest) -> robotcore.Game:
    return robotcore.load_game(request.param)


def sized(game: robotcore.Game, n: int) -> int:
    """``n`` games for a game's default configuration, two fifths of them for each of its variants (which the
    suite also runs: the long property tests stay thousands of games per game, in a bounded suite time)."""
    return n if game == robotcore.load_game(game.name) else max(1, n * 2 // 5)


def random_play(state: robotcore.State, rng: random.Random, steps: int | None = None) -> robotcore.State:
    """Apply uniformly random legal actions of a random acting seat (all seats of a simultaneous phase get
    their turn in random order)."""
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        seat = rng.choice(state.actors)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        n += 1
    return state


def json_strings(doc: object) -> set[str]:
    """Every string of a JSON document, its objects' keys included (a view may name a card by key: {"P-MC": 2})."""
    if isinstance(doc, str):
        return {doc}
    if isinstance(doc, dict):
        return set(map(str, doc)).union(*map(json_strings, doc.values()))
    if isinstance(doc, list):
        return set().union(*map(json_strings, doc))
    return set()


def strings_views_show(game: robotcore.Game, seeds: range, share: float = 1.0) -> set[str]:
    """The strings of the views (every seat's and the spectator's) over random games of ``game``, one per seed: at
    a ``share`` of the decisions, drawn at random, and at the end."""
    seen: set[str] = set()
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if rng.random() < share:
                seen |= json_strings([state.view(s) for s in [None, *range(state.num_players)]])
            seat = rng.choice(state.actors)
            state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
        seen |= json_strings([state.view(s) for s in [None, *range(state.num_players)]])
    return seen
