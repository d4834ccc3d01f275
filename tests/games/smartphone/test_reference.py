"""The engine against the independent reference (reference.py), move by move: after every action the two must
agree on who acts, on every seat's legal actions, on every field of the state (PRNG included) and on the scores.

Uniformly random play rarely builds or trades, so half of the games use a policy that prefers builds, trade
offers that can be answered, acceptances and votes for the refresh: together they reach every action family.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.games.smartphone import engine

from . import reference as ref


def fields(state: robotcore.State) -> dict[str, Any]:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


EAGER = ("build", "accept", "send", "vote_yes", "offer", "give", "give_malus")


def choose(game: robotcore.Game, legal: list[int], rng: random.Random, biased: bool) -> int:
    if not biased:
        return rng.choice(legal)
    eager = [a for a in legal if game.action_to_dict(a)["type"] in EAGER]
    if eager and rng.random() < 0.7:
        return rng.choice(eager)
    return rng.choice(legal)


PARAMS = [{}, {"players": 2}, {"players": 3, "market_refresh": "first_player"}, {"players": 5},
          {"length": "20"}, {"harsh_malus": True}, {"harsh_malus": True, "players": 5, "market_refresh": "automatic"},
          {"screen_precious_metal": True, "finish_round": False, "market_refresh": "off"}]


def play_in_lockstep(game: robotcore.Game, seed: int, rng: random.Random, biased: bool) -> Counter[str]:
    """One seeded game played by ``choose`` on the engine and the reference side by side, checking after every
    action who acts, every seat's legal actions, every field and the scores; the action types played and the end."""
    seen: Counter[str] = Counter()
    state = game.new_initial_state(seed=seed)
    model = ref.Reference(game, fields(state))
    while not state.is_terminal:
        assert state.actors == model.actors()
        for seat in range(game.num_players):
            assert state.legal_actions(seat) == model.legal(seat), (seed, model.f["phase"])
        seat = state.actors[0]
        action = choose(game, state.legal_actions(seat), rng, biased)
        seen[game.action_to_dict(action)["type"]] += 1
        before = fields(state)
        state.apply(action, seat)
        model.apply(seat, action)
        after = fields(state)
        assert after == model.fields(), (seed, game.action_to_str(action))
        kind = game.action_to_dict(action)["type"]
        if after["private_known"] != before["private_known"]:     # a seat's private knowledge made, or changed
            seen["private " + kind] += 1
        if after["private_upper"] != before["private_upper"]:     # a seat's own upper bound made, or changed
            seen["private upper " + kind] += 1
        if any(a < b for ra, rb in zip(after["upper"], before["upper"]) for a, b in zip(ra, rb)) and kind == "done":
            seen["upper capped"] += 1                             # event 9's done, or a harsh lose's
        assert state.scores() == model.scores()
    assert model.actors() == []
    seen["end " + str(state.view(None)["end_reason"])] += 1
    return seen


@pytest.mark.parametrize("params", PARAMS, ids=[str(p) for p in PARAMS])
def test_engine_matches_reference_move_by_move(params: dict[str, Any]) -> None:
    game = robotcore.load_game("smartphone", **params)
    rng = random.Random(17)
    seen: Counter[str] = Counter()
    for seed in range(20):
        seen += play_in_lockstep(game, seed, rng, biased=seed % 2 == 1)
    assert {"supply", "take", "draw", "build", "depollute"} <= set(seen), seen
    # the seats' private knowledge of a hand: made by steals (event 7, at the end of a round's last action; event
    # 10's tax take), then changed by public losses (a build; discards, trades and offers in the 45' game)
    assert "private build" in seen, seen
    if params.get("length") != "20":
        assert {"private tax_take", "private discard", "private give"} <= set(seen), seen
        # the upper bounds: capped by event 9's done; a seat's own made by steals, changed by event 9
        assert {"upper capped", "private upper tax_take", "private upper done"} <= set(seen), seen
        assert {"offer", "give", "ask", "send", "accept", "refuse", "cancel", "discard", "done", "tax_take",
                "give_malus", "take_malus", "pass", "stop"} <= set(seen), seen
        assert "decline" not in seen        # event 5's pick is not optional, and a player with none is passed over
    if params.get("market_refresh", "vote") in ("vote", "first_player"):
        assert {"vote_yes", "vote_no"} <= set(seen), seen
