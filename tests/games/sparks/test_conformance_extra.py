"""More of the shared suite on Sparks than the registry's configurations give: test_fuzz's mutation test (which
runs on each game's default configuration) on the solo game, and part of the suite on a small stress content
where the deck, the bag and the tracks run out. (The whole suite runs on the solo configurations through
``SparksGame.variants``.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

import robotcore

from ...conformance import test_protocol as suite
from ...conftest import random_play

SOLO = [{"players": 1}, {"players": 1, "goals": 0}, {"players": 1, "goals": 3, "draft": True}]
IDS = ["-".join(f"{k}={v}" for k, v in cfg.items()) for cfg in SOLO]


@pytest.mark.parametrize("params", SOLO, ids=IDS)
def test_mutated_solo_states_are_refused_or_playable(params: dict[str, Any]) -> None:
    """test_fuzz's mutation test (it runs on the default 4-player game) on the solo game."""
    from robotcore.errors import CorruptStateError

    from ...conformance.test_fuzz import _reframe, struct_start

    game = robotcore.load_game("sparks", **params)
    rng = random.Random(3)
    refused = 0
    for trial in range(300):
        state = random_play(game.new_initial_state(seed=trial), rng, steps=rng.randrange(0, 80))
        data = bytearray(state.to_bytes())
        header_end = struct_start(state)
        for _ in range(rng.randrange(1, 4)):
            data[header_end + rng.randrange(game.state_size)] = rng.randrange(256)
        try:
            again = game.from_bytes(_reframe(bytes(data)))
        except CorruptStateError:
            refused += 1
            continue
        again.view(0)
        again.observation(0)
        random_play(again, rng)
        assert again.is_terminal
    assert refused > 0


STRESS_TESTS = ["test_thousands_of_native_random_games", "test_deep_invariants_during_play",
                "test_rejected_actions_change_nothing", "test_views_never_leak", "test_determinism",
                "test_batch_step_matches_python_api", "test_generic_and_game_playout_loops_agree"]


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("test", STRESS_TESTS)
def test_suite_on_a_stress_content(test: str, players: int) -> None:
    """Part of the suite on the small content of test_reference.py (the deck, the bag and the tracks run out)."""
    from .test_reference import stress_content

    getattr(suite, test)(robotcore.load_game("sparks", players=players, content=stress_content()))
