"""Move generation reads tables built at make time (reduced repair costs per workshop, joker allocation sets, effect
tests per effect, project keys) and the native playout loop fills only the mask words of the phase: checked here on
content the default game rarely reaches (half of the machines produce jokers, costlier repairs), against the
independent reference move by move and against the documented draws of the native playouts."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.games.nicodemus import NicodemusContent, engine

from ...rng_model import check_native_playouts
from . import reference as ref


def joker_content() -> NicodemusContent:
    """Every odd machine type produces jokers and repairs cost 0 to 2 more cubes of each kind."""
    base = NicodemusContent.default()
    machines = tuple(
        dataclasses.replace(m, production="joker" if i % 2 else m.production,
                            cost=tuple(min(9, c + i % 3) for c in m.cost))
        for i, m in enumerate(base.machines))
    return NicodemusContent(machines, base.projects)


def fields(state: robotcore.State) -> dict[str, Any]:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


def test_joker_heavy_content_matches_the_reference_move_by_move() -> None:
    game = robotcore.load_game("nicodemus", content=joker_content(), project_sharing="repaired")
    rng = random.Random(5)
    repairs_with_jokers = 0
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        model = ref.Reference(game.content, dict(game.params), fields(state))
        while not state.is_terminal:
            for seat in (0, 1):
                assert state.legal_actions(seat) == model.legal(seat), (seed, model.phase)
            seat = state.actors[0]
            legal = state.legal_actions(seat)
            repairs = [a for a in legal if game.action_to_dict(a)["type"] == "repair"]
            action = rng.choice(repairs) if repairs and rng.random() < 0.7 else rng.choice(legal)
            d = game.action_to_dict(action)
            if d["type"] == "repair" and d["jokers"]:
                repairs_with_jokers += 1
            state.apply(action, seat)
            model.apply(seat, action)
            assert fields(state) == model.fields(), (seed, game.action_to_str(action))
    assert repairs_with_jokers > 0


@pytest.mark.parametrize("params", [{"content": "jokers"}, {"project_sharing": "none"},
                                    {"content": "jokers", "project_sharing": "repaired", "first_player": 1}])
def test_native_playouts_are_the_documented_draws_on_other_content(params: dict[str, Any]) -> None:
    if params.get("content") == "jokers":
        params = {**params, "content": joker_content()}
    game = robotcore.load_game("nicodemus", **params)
    check_native_playouts(game, np.arange(200, 216, dtype=np.uint64), seed=3)


def test_the_ssse3_slot_lookup_and_the_loop_give_the_same_moves() -> None:
    """The main phase finds the payable repair slots by one SSSE3 lookup where the CPU has it, else by a loop over
    the slots: both, on the default content and on costlier joker-heavy content, at every state of random games."""
    if not engine._simd():
        pytest.skip("this CPU has no SSSE3: only the loop runs here")
    rng = random.Random(11)
    checked = 0
    try:
        for game in (robotcore.load_game("nicodemus"), robotcore.load_game("nicodemus", content=joker_content())):
            for seed in range(30):
                state = game.new_initial_state(seed=seed)
                while not state.is_terminal:
                    seat = state.actors[0]
                    raw = state.to_bytes()
                    fast = game.from_bytes(raw).legal_actions(seat)     # fresh states: a State keeps its moves
                    engine._simd(0)
                    slow = game.from_bytes(raw).legal_actions(seat)
                    assert engine._simd(1)
                    assert fast == slow, (seed, checked)
                    checked += 1
                    state.apply(rng.choice(fast), seat)
    finally:
        engine._simd(1)
    assert checked > 3000
