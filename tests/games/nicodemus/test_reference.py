"""The engine against the independent reference (reference.py), move by move: after every action the two must
agree on who acts, on both seats' legal actions and on every field of the state, PRNG included.

Uniformly random play mostly plays machines and rarely repairs, so half of the games use a policy that prefers
repairs, project completions and effects: together they reach every action family and every effect.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.games.nicodemus import engine

from . import reference as ref


def fields(state: robotcore.State) -> dict[str, Any]:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


def choose(game: robotcore.Game, legal: list[int], rng: random.Random, biased: bool) -> int:
    if not biased:
        return rng.choice(legal)
    kinds = [game.action_to_dict(a) for a in legal]
    eager = [a for a, d in zip(legal, kinds) if d["type"] in ("repair", "complete")]
    effects = [a for a, d in zip(legal, kinds) if d["type"] == "play" and d["use"] == "effect"]
    r = rng.random()
    if eager and r < 0.8:
        return rng.choice(eager)
    if effects and r < 0.9:
        return rng.choice(effects)
    return rng.choice(legal)


@pytest.mark.parametrize("params", [{}, {"project_sharing": "repaired"}, {"project_sharing": "none"},
                                    {"first_player": 1, "end_score": 12}])
def test_engine_matches_reference_move_by_move(params: dict[str, Any]) -> None:
    game = robotcore.load_game("nicodemus", **params)
    rng = random.Random(17)
    seen: Counter[str] = Counter()
    for seed in range(150):
        state = game.new_initial_state(seed=seed)
        model = ref.Reference(game.content, dict(game.params), fields(state))
        assert model.layout.total == game.num_actions
        biased = seed % 2 == 1
        while not state.is_terminal:
            assert state.actors == model.actors()
            for seat in (0, 1):
                assert state.legal_actions(seat) == model.legal(seat), (seed, model.phase)
            seat = state.actors[0]
            action = choose(game, state.legal_actions(seat), rng, biased)
            d = game.action_to_dict(action)
            seen[d["type"]] += 1
            if d["type"] == "play" and d["use"] == "effect":
                seen["effect " + d["machine"]] += 1
            state.apply(action, seat)
            model.apply(seat, action)
            assert fields(state) == model.fields(), (seed, game.action_to_str(action))
            assert state.scores() == model.scores() == [model.seat_score(0), model.seat_score(1)]
        assert model.actors() == []
    families = {"play", "repair", "take", "steal", "return", "exchange", "stop", "discard_hand",
                "discard_slot", "copy", "keep", "complete", "done"}
    assert families <= set(seen), families - set(seen)
    assert all(seen["effect " + m] for m in game.content.machine_names)


def test_stuck_players_and_the_deck_running_out_match_the_reference() -> None:
    """Games from positions with empty hands and a short deck, where "draw" and the deck-out trigger happen."""
    from .scenario import build

    rng = random.Random(3)
    draws = 0
    for k in range(40):
        state = build(hands=("", "B2 B3"), table="R3 Y2", res=((0, 0, 0, 0), (0, 0, 0, 0)),
                      deck_size=rng.randrange(0, 9), rng=k + 1)
        model = ref.Reference(state.game.content, dict(state.game.params), fields(state))
        while not state.is_terminal:
            for seat in (0, 1):
                assert state.legal_actions(seat) == model.legal(seat)
            seat = state.actors[0]
            action = rng.choice(state.legal_actions(seat))
            draws += state.game.action_to_str(action) == "draw"
            state.apply(action, seat)
            model.apply(seat, action)
            assert fields(state) == model.fields()
    assert draws >= 40
