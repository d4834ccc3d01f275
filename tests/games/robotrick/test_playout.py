"""Robotrick's own native playout (``rt_playout``: whole tricks at a time, specialised by Droco's seat in the
trick) against the kernel's generic loop over ``rt_legal_mask``/``rt_apply``, from every kind of state the fast
path must take over from (a pass half done in any order, a trick in progress, the last trick of a round) and with
the length bound reached anywhere (the slow path, card by card, must stop where ``rt_apply`` would)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import robotcore
from robotcore.core import batch

from ...conftest import random_play


def rows_after(game: robotcore.Game, steps: list[int]) -> np.ndarray:
    """A batch of states reached by ``steps[i]`` random actions (random acting seat) from seed i."""
    rng = random.Random(5)
    states = [random_play(game.new_initial_state(seed=i), rng, steps=k) for i, k in enumerate(steps)]
    return np.stack([np.frombuffer(s.state_bytes(), dtype=np.uint8) for s in states]).copy()


def assert_loops_agree(game: robotcore.Game, rows: np.ndarray, seed: int) -> np.ndarray:
    a, b = rows.copy(), rows.copy()
    na = batch.random_playouts(game, a, seed=seed)
    nb = batch.random_playout_generic(game, b, seed=seed)
    assert np.array_equal(na, nb)
    for r in range(len(rows)):
        assert a[r].tobytes() == b[r].tobytes(), r
    return na


@pytest.mark.parametrize("rounds", [1, 3])
def test_from_states_in_every_phase(rounds: int) -> None:
    game = robotrick(rounds)
    steps = [k % (42 * rounds) for k in range(0, 6 * 42 * rounds, 5)]      # pass, every trick position, the end
    assert_loops_agree(game, rows_after(game, steps), seed=7)


@pytest.mark.parametrize("bound", [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 40, 41, 43, 47, 83, 84, 85, 125])
def test_length_bound_stops_where_apply_would(bound: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = robotrick(3)
    rows = rows_after(game, [0, 0, 3, 6, 7, 11, 19, 44, 50, 90])
    monkeypatch.setattr(type(game), "max_game_length", property(lambda self: bound))
    lengths = assert_loops_agree(game, rows, seed=bound)
    assert (lengths == batch.PLAYOUT_TOO_LONG).any()


def robotrick(rounds: int) -> robotcore.Game:
    return robotcore.load_game("robotrick", rounds=rounds)


_BOTH_COPIES = """
import hashlib, random, sys
import numpy as np
import robotcore
from robotcore.core import batch
from robotcore.core.rng import FAST_PDEP
game = robotcore.load_game("robotrick")
rng = random.Random(3)
rows = []
for i in range(300):
    s = game.new_initial_state(seed=i)
    for _ in range(i % 126):
        if s.is_terminal:
            break
        p = s.current_player
        s.apply(rng.choice(s.legal_actions(p)), p)
    rows.append(np.frombuffer(s.state_bytes(), dtype=np.uint8))
a = np.stack(rows).copy()
n = batch.random_playouts(game, a, seed=11)
print(int(FAST_PDEP), hashlib.sha256(a.tobytes() + n.tobytes()).hexdigest())
"""


def test_the_playouts_bmi2_copy_and_its_portable_copy_reach_the_same_states() -> None:
    """``rt_playout`` is compiled twice (core/bits.h): for BMI2, taken on a CPU with a fast PDEP, and portable,
    the only one on other CPUs. ROBOTCORE_PORTABLE_BITS=1 forces the portable copy in a second interpreter; both
    must end 300 playouts from every phase in the same bytes."""
    import os
    import subprocess
    import sys

    def run(portable: bool) -> list[str]:
        env = dict(os.environ, ROBOTCORE_PORTABLE_BITS="1" if portable else "0")
        out = subprocess.run([sys.executable, "-c", _BOTH_COPIES], env=env, capture_output=True, text=True,
                             check=True)
        return out.stdout.split()

    fast, portable = run(False), run(True)
    if fast[0] != "1":
        pytest.skip("this CPU has no fast PDEP: it runs the portable copy only, so there is no second copy here")
    assert portable[0] == "0"           # the variable took effect
    assert fast[1] == portable[1]
