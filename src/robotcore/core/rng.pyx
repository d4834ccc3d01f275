# cython: language_level=3
"""Python access to the engines' PRNG, for tests, bots and tools (the engines use the inline C functions)."""

cimport cython
from libc.stdint cimport uint32_t, uint64_t

from robotcore.core.bits cimport fast_pdep, nth_set_bit as _nth, nth_set_bit_portable, popcount
from robotcore.core.rng cimport rng_below, rng_next, rng_seed, rng_unit

#: Whether the engines' ``nth_set_bit`` runs on this CPU's PDEP (core/bits.h) rather than the portable code.
FAST_PDEP: bool = bool(fast_pdep)


def nth_set_bit(x: int, n: int, portable: bool = False) -> int:
    """The engines' ``nth_set_bit``: the index of the ``n``-th (0-based) set bit of the 64-bit ``x``, as their
    draws take the k-th card or action of a set; ``portable`` forces the code used where PDEP is not (for
    tests: both must agree). ValueError unless ``0 <= n < popcount(x)``."""
    cdef uint64_t w = x
    if not 0 <= n < popcount(w):
        raise ValueError(f"n={n} is not below the {popcount(w)} set bits of {x:#x}")
    return nth_set_bit_portable(w, n) if portable else _nth(w, n)


@cython.final
cdef class Rng:
    """SplitMix64 stream, bit-identical to the one stored inside game states."""

    cdef uint64_t state

    def __init__(self, seed: int) -> None:
        self.state = rng_seed(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))

    def next_u64(self) -> int:
        return rng_next(&self.state)

    def below(self, bound: int) -> int:
        if not 1 <= bound <= 0xFFFFFFFF:
            raise ValueError(f"bound must be in [1, 2**32 - 1], got {bound}")
        return rng_below(&self.state, <uint32_t>bound)

    def random(self) -> float:
        return rng_unit(&self.state)

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place, with the same draws as the engines' ``rng_shuffle_u8``."""
        cdef Py_ssize_t i = len(items) - 1, j
        while i > 0:
            j = rng_below(&self.state, <uint32_t>(i + 1))
            items[i], items[j] = items[j], items[i]
            i -= 1

    def choice(self, items):
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[rng_below(&self.state, <uint32_t>len(items))]

    @property
    def counter(self) -> int:
        return self.state
