# cython: language_level=3
"""The native random-playout loop, written once.

``random_playout_loop`` takes the engine's functions as arguments. The generic batch code calls it with the
function pointers of any ``EngineSpec``; each game also instantiates it with its own functions
(``SPEC.playout``), and since it is inlined there with constant pointers the C compiler turns the indirect
calls into direct, inlinable ones. Both paths draw the same random numbers in the same order, so they reach
the same states (tests/conformance checks it).
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from robotcore.core.bits cimport lowest_bit, nth_set_bit, popcount
from robotcore.core.rng cimport rng_below
from robotcore.core.state cimport MAX_MASK_WORDS, actors_fn, apply_fn, legal_mask_fn

cdef enum:
    PLAYOUT_TOO_LONG = -2     # length bound exceeded, or an acting seat without a legal action (engine bug)



cdef inline int list_nonzero_words(const uint64_t* words, int lo, int hi, uint8_t* nonzero) noexcept nogil:
    """Lists in ``nonzero`` the words of ``words[lo:hi]`` holding a legal action, in order; the number of actions."""
    cdef int i, m = 0, count = 0
    for i in range(lo, hi):
        if words[i]:
            nonzero[m] = <uint8_t>i
            m += 1
            count += popcount(words[i])
    return count


cdef inline int draw_listed_action(const uint64_t* words, const uint8_t* nonzero, int count,
                                   uint64_t* rng) noexcept nogil:
    """The playouts' one draw: k uniform below ``count`` (> 0), then the k-th legal action of the listed words."""
    cdef int k = <int>rng_below(rng, <uint32_t>count), j = 0, i, c
    while True:
        i = nonzero[j]
        c = popcount(words[i])
        if k < c:
            return (i << 6) | nth_set_bit(words[i], k)
        k -= c
        j += 1


cdef inline int64_t random_playout_loop(
    actors_fn actors, legal_mask_fn legal_mask, apply_fn apply, int mask_words,
    const void* cfg, void* st, uint64_t* rng, int64_t max_len,
) noexcept nogil:
    """Uniformly random legal actions for the current (lowest acting) seat until the end; the action count."""
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint8_t nonzero[MAX_MASK_WORDS]      # the words with a legal action, in order (most masks have 1 or 2)
    cdef uint32_t bits
    cdef int seat, count
    cdef int64_t n = 0
    while True:
        bits = actors(cfg, st)
        if bits == 0:
            return n
        if n >= max_len:
            return PLAYOUT_TOO_LONG
        seat = lowest_bit(bits)
        legal_mask(cfg, st, seat, words)
        count = list_nonzero_words(words, 0, mask_words, nonzero)
        if count == 0:
            return PLAYOUT_TOO_LONG
        apply(cfg, st, seat, draw_listed_action(words, nonzero, count, rng))
        n += 1
