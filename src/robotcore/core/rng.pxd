# cython: language_level=3
"""The portable PRNG every game stores in its state (SplitMix64).

The whole generator is one uint64 counter: each draw adds a fixed odd constant and hashes the result, so it is
counter-based, needs no tables, runs under ``nogil`` and gives the same numbers on every platform (only uint64
arithmetic is used, which C defines exactly). Bounded draws are unbiased (Lemire's multiply-and-reject on 32-bit
draws, portable without 128-bit integers) and shuffles are Fisher–Yates over them.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t


cdef inline uint64_t rng_mix(uint64_t z) noexcept nogil:
    """The SplitMix64 finaliser: a bijective hash of 64 bits."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t rng_seed(uint64_t seed) noexcept nogil:
    """Initial counter for a user seed (hashed so that nearby seeds give unrelated streams)."""
    return rng_mix(seed ^ <uint64_t>0x5DEECE66DA3B91F7ULL)


cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    s[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    return rng_mix(s[0])


cdef inline uint32_t rng_below(uint64_t* s, uint32_t bound) noexcept nogil:
    """Uniform integer in [0, bound); bound >= 1. Unbiased (Lemire 2019, with rejection)."""
    cdef uint32_t x = <uint32_t>(rng_next(s) >> 32)
    cdef uint64_t m = <uint64_t>x * bound
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < bound:
        threshold = (<uint32_t>0 - bound) % bound
        while low < threshold:
            x = <uint32_t>(rng_next(s) >> 32)
            m = <uint64_t>x * bound
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void rng_shuffle_u8(uint64_t* s, uint8_t* a, int n) noexcept nogil:
    """Fisher–Yates shuffle of ``a[0:n]`` in place."""
    cdef int i, j
    cdef uint8_t t
    i = n - 1
    while i > 0:
        j = <int>rng_below(s, <uint32_t>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1


cdef inline double rng_unit(uint64_t* s) noexcept nogil:
    """Uniform double in [0, 1) with 53 random bits."""
    return <double>(rng_next(s) >> 11) * (1.0 / 9007199254740992.0)
