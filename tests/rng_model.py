"""An independent plain-Python model of the PRNG every state carries (core/rng.pxd): SplitMix64 (Steele, Lea,
Flood 2014) and Lemire's unbiased bounded draw. The RNG test checks the engine against it, and the games'
reference referees draw their chance through it, written once."""

from __future__ import annotations

from collections.abc import Callable

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
