"""pytest-benchmark suites for every registered game: apply, legal actions, clone, a full random game, and a
native batch of random playouts.

    python -m pytest bench --benchmark-only            # all games
    python -m pytest bench -k robotrick --benchmark-columns=min,median,ops

Not part of the test suite (speed goals are never asserted in tests); `bench/table.py` prints the comparison
with the call floor and OpenSpiel.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from probes import midgame

import robotcore
from robotcore.core import batch

GAMES = robotcore.list_games()


def _midgame(name: str) -> tuple[robotcore.State, int]:
    return midgame(robotcore.load_game(name))


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions(benchmark, name: str) -> None:
    state, _ = _midgame(name)
    benchmark(state.legal_actions)


@pytest.mark.parametrize("name", GAMES)
def test_legal_mask(benchmark, name: str) -> None:
    state, _ = _midgame(name)
    benchmark(state.legal_mask)


@pytest.mark.parametrize("name", GAMES)
def test_clone(benchmark, name: str) -> None:
    state, _ = _midgame(name)
    benchmark(state.clone)


@pytest.mark.parametrize("name", GAMES)
def test_clone_and_apply(benchmark, name: str) -> None:
    state, action = _midgame(name)

    def step() -> None:
        state.clone().apply(action)

    benchmark(step)


@pytest.mark.parametrize("name", GAMES)
def test_full_random_game_python(benchmark, name: str) -> None:
    game = robotcore.load_game(name)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def play() -> None:
        s = game.new_initial_state(next(seeds))
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])

    benchmark(play)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_native_random_playouts_1000(benchmark, name: str, threads: int) -> None:
    game = robotcore.load_game(name)
    fresh = game.new_batch(np.arange(1000, dtype=np.uint64))

    def run() -> None:
        batch.random_playouts(game, fresh.copy(), seed=1, threads=threads)

    benchmark(run)
