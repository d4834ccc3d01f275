"""Positions the benchmarks measure at, shared by table.py and the pytest-benchmark suites."""

from __future__ import annotations

import random

import robotcore


def _random_game(game: robotcore.Game, seed: int, limit: int) -> tuple[robotcore.State, int]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    played = 0
    while played < limit and not state.is_terminal:
        seat = state.current_player
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        played += 1
    return state, played


def midgame(game: robotcore.Game, seed: int = 7) -> tuple[robotcore.State, int]:
    """A decision about one third into a seeded random game, and a legal action there.

    A third of that game's own length, not of ``max_game_length``: the bound can be far above what games last
    (Nicodemus: 468 against about 66), and a probe past the end has no legal action."""
    _, length = _random_game(game, seed, game.max_game_length)
    state, _ = _random_game(game, seed, length // 3)
    return state, state.legal_actions()[0]
