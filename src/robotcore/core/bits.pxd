# cython: language_level=3
"""Bitset helpers over uint64 words (card sets, legal-action masks). Declared in bits.h, one per compiler."""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

cdef extern from "bits.h" nogil:
    int rc_popcount64(uint64_t x)
    int rc_ctz64(uint64_t x)      # index of the lowest set bit; x != 0
    int rc_msb64(uint64_t x)      # index of the highest set bit; x != 0
    uint32_t rc_nonzero16(const uint8_t* p)   # bit i set exactly when p[i] != 0, i < 16
    # bytes p[0..3] (p[0..7]) as a word, byte i in bits 8i..8i+7 whatever the byte order
    uint32_t load_le32 "rc_load_le32"(const uint8_t* p)
    uint64_t load_le64 "rc_load_le64"(const uint8_t* p)
    void zero_words "rc_zero_words"(uint64_t* w, int n)   # straight-line stores for 8..24 words
    const int fast_pdep "rc_fast_pdep"         # nth_set_bit by PDEP (chosen at load; see bits.h)
    int nth_bit_pdep "rc_nth_bit_pdep"(uint64_t x, int n)
    # the return type of a function compiled for BMI2 (bits.h's RC_BMI2): call it only when fast_pdep
    ctypedef int64_t bmi2_int64 "RC_BMI2 int64_t"


cdef inline int popcount(uint64_t x) noexcept nogil:
    return rc_popcount64(x)


cdef inline int lowest_bit(uint64_t x) noexcept nogil:
    """Index of the lowest set bit; ``x`` must be non-zero."""
    return rc_ctz64(x)


cdef inline int highest_bit(uint64_t x) noexcept nogil:
    """Index of the highest set bit; ``x`` must be non-zero."""
    return rc_msb64(x)


cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i


cdef inline int nth_set_bit(uint64_t x, int n) noexcept nogil:
    """Index of the n-th (0-based) set bit of ``x``; ``n`` must be < popcount(x). By PDEP where the CPU has a fast
    one (bits.h: no branch on the data, so no misprediction however ``n`` falls), else ``nth_set_bit_portable``."""
    if fast_pdep:
        return nth_bit_pdep(x, n)
    return nth_set_bit_portable(x, n)


cdef inline int nth_set_bit_portable(uint64_t x, int n) noexcept nogil:
    """``nth_set_bit`` in portable code. A few lowest bits are cleared one by one; further ones are found by
    halving first (32, 16, then 8 bits: a popcount each), so the cost stays under about 30 instructions for any
    ``n``."""
    cdef int base = 0, c
    if n >= 4:
        c = rc_popcount64(x & <uint64_t>0xFFFFFFFFULL)
        if n >= c:
            n -= c
            x >>= 32
            base = 32
        c = rc_popcount64(x & <uint64_t>0xFFFFULL)
        if n >= c:
            n -= c
            x >>= 16
            base += 16
        c = rc_popcount64(x & <uint64_t>0xFFULL)
        if n >= c:
            n -= c
            x >>= 8
            base += 8
    while n > 0:
        x &= x - 1
        n -= 1
    return base + rc_ctz64(x)


cdef inline uint32_t nonzero16(const uint8_t* p) noexcept nogil:
    """Bit i set exactly when ``p[i]`` is not zero, for the 16 bytes ``p[0..15]`` (a byte array of counts as a set)."""
    return rc_nonzero16(p)
