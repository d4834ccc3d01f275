"""The shared conformance suite on the solo game (players=1), which ``SparksGame.variants`` cannot list.

Two tests of the suite cannot pass with a single seat: ``test_resampling_depends_only_on_what_the_seat_knows``
asks for more re-dealt worlds than games x seats (40 games, 1 seat: at most 40, it wants more than 40), and
``test_public_actions_reveal_nothing_hidden`` compares what an observer sees after *another* seat's public
action (there is none). Every other test of the suite runs here unchanged on each solo configuration; the first
of the two runs with its threshold scaled to one seat, the second is vacuous (nobody else acts) and is skipped.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.games.sparks import SparksGame

from ...conformance import test_protocol as suite
from ...conftest import random_play

SOLO = [dict(v) for v in SparksGame.solo_variants]
IDS = ["-".join(f"{k}={v}" for k, v in cfg.items()) for cfg in SOLO]
TESTS = [name for name in dir(suite) if name.startswith("test_") and name not in (
    "test_resampling_depends_only_on_what_the_seat_knows", "test_public_actions_reveal_nothing_hidden",
    "test_unknown_names_and_parameters")]


@pytest.mark.parametrize("params", SOLO, ids=IDS)
@pytest.mark.parametrize("test", TESTS)
def test_suite_on_the_solo_game(test: str, params: dict[str, Any]) -> None:
    getattr(suite, test)(robotcore.load_game("sparks", **params))


@pytest.mark.parametrize("params", SOLO, ids=IDS)
def test_resampling_depends_only_on_what_the_solo_seat_knows(params: dict[str, Any]) -> None:
    game = robotcore.load_game("sparks", **params)
    rng = random.Random(9)
    compared = 0
    for g in range(40):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(0, 120))
        twin = state.resample_hidden(0, rng.getrandbits(64))
        assert twin.view(0) == state.view(0)
        seed = rng.getrandbits(64)
        assert twin.resample_hidden(0, seed).state_bytes() == state.resample_hidden(0, seed).state_bytes()
        compared += twin.state_bytes() != state.state_bytes()
    assert compared >= 32


@pytest.mark.parametrize("params", SOLO, ids=IDS)
def test_mutated_solo_states_are_refused_or_playable(params: dict[str, Any]) -> None:
    """test_fuzz's mutation test (it runs on the default 4-player game) on the solo game."""
    from robotcore.errors import CorruptStateError

    from ...conformance.test_fuzz import _reframe

    game = robotcore.load_game("sparks", **params)
    rng = random.Random(3)
    refused = 0
    for trial in range(300):
        state = random_play(game.new_initial_state(seed=trial), rng, steps=rng.randrange(0, 80))
        data = bytearray(state.to_bytes())
        header_end = len(data) - 4 - 4 * len(state.history) - game.state_size
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
    _ = np


STRESS_TESTS = ["test_thousands_of_native_random_games", "test_deep_invariants_during_play",
                "test_rejected_actions_change_nothing", "test_views_never_leak", "test_determinism",
                "test_batch_step_matches_python_api", "test_generic_and_game_playout_loops_agree"]


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("test", STRESS_TESTS)
def test_suite_on_a_stress_content(test: str, players: int) -> None:
    """Part of the suite on the small content of test_reference.py (the deck, the bag and the tracks run out)."""
    from .test_reference import stress_content

    getattr(suite, test)(robotcore.load_game("sparks", players=players, content=stress_content()))
