"""An independent plain-Python model of the PRNG every state carries (core/rng.pxd): SplitMix64 (Steele, Lea,
Flood 2014) and Lemire's unbiased bounded draw. The RNG test checks the engine against it, and the games'
reference referees draw their chance through it, written once; ``check_native_playouts`` holds the native random
playouts to the draws core/playout.pxd documents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MASK = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def step(state: int) -> tuple[int, int]:
    """The next counter and the 64-bit output it gives."""
    state = (state + GOLDEN_GAMMA) & MASK
    return state, mix(state)


def bounded(next64: Callable[[], int], bound: int) -> int:
    """A uniform draw in [0, bound) from 64-bit outputs (the high 32 bits, Lemire's multiply-and-reject)."""
    x = next64() >> 32
    m = x * bound
    low = m & 0xFFFFFFFF
    if low < bound:
        threshold = ((1 << 32) - bound) % bound
        while low < threshold:
            x = next64() >> 32
            m = x * bound
            low = m & 0xFFFFFFFF
    return m >> 32


class SplitMix64:
    """The generator over a raw counter (the ``rng`` word of a state struct)."""

    def __init__(self, state: int) -> None:
        self.state = state

    @classmethod
    def seeded(cls, seed: int) -> SplitMix64:
        """As ``rng_seed`` seeds it."""
        return cls(mix(seed ^ 0x5DEECE66DA3B91F7))

    def next(self) -> int:
        self.state, out = step(self.state)
        return out

    def below(self, bound: int) -> int:
        return bounded(self.next, bound)


def check_native_playouts(game: Any, seeds: Any, seed: int) -> None:
    """The native random playouts of ``game`` from ``seeds`` (one row each, ``batch.random_playouts(..., seed)``)
    reach the states of a plain-Python loop over the public API drawing on each row's own stream
    (batch.pyx's ``_row_stream``: rng_seed(seed ^ rng_mix(row + 1))): a uniform index below the number of legal
    actions of the current player, then that action in id order."""
    from robotcore.core import batch

    rows = game.new_batch(seeds)
    lengths = batch.random_playouts(game, rows, seed=seed)
    for r, row_seed in enumerate(seeds):
        state, rng, n = game.new_initial_state(int(row_seed)), SplitMix64.seeded(seed ^ mix(r + 1)), 0
        while not state.is_terminal:
            seat = state.current_player
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
            n += 1
        assert lengths[r] == n, (row_seed, lengths[r], n)
        assert rows[r].tobytes() == state.state_bytes(), row_seed
