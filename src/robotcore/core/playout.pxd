# cython: language_level=3
"""The native random-playout loop, written once.

``random_playout_loop`` takes the engine's functions as arguments. The generic batch code calls it with the
function pointers of any ``EngineSpec``; each game also instantiates it with its own functions
(``SPEC.playout``), and since it is inlined there with constant pointers the C compiler turns the indirect
calls into direct, inlinable ones. Both paths draw the same random numbers in the same order, so they reach
the same states (tests/conformance checks it).

``random_playout_loop_range`` and ``random_playout_loop_words`` are the same loop (``playout_loop``, the one
body all three share) for an engine that can also say which words of the mask may hold a legal action: a span of words (``legal_mask_range_fn``: a phase's block of
actions) or a set of them (``legal_mask_words_fn``: the words its move generation wrote). Only those are scanned,
with the same draws. Scanning every word of a wide mask (Sparks 22, Scrapyard up to 41)
costs more than many games' move generation when a decision touches two or three of them.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from robotcore.core.bits cimport lowest_bit, nth_set_bit, popcount
from robotcore.core.rng cimport rng_below
from robotcore.core.state cimport MAX_MASK_WORDS, actors_fn, apply_fn, legal_mask_fn, legal_mask_words_fn

cdef enum:
    PLAYOUT_TOO_LONG = -2     # length bound exceeded, or an acting seat without a legal action (engine bug)

# ``legal_mask_fn`` that also says which words of the mask may hold a legal action: ``words[lo[0]:hi[0]]``. Every
# word of the mask is written, as by ``legal_mask_fn`` (zero outside that range); every legal action must lie in
# it (a phase's block of actions, or the span of the words the move generation wrote).
ctypedef void (*legal_mask_range_fn)(const void* cfg, const void* st, int seat, uint64_t* words, int* lo,
                                     int* hi) noexcept nogil
# The same with a set of words (``legal_mask_words_fn``, core/state.pxd: also an optional entry of the engine
# contract, ``EngineSpec.legal_mask_words``): returns bit i set for every word i that may hold a legal action (masks
# of at most 64 words). Here ``words`` has MAX_MASK_WORDS words: those past the mask's may serve as scratch.


cdef inline int list_nonzero_words(const uint64_t* words, int lo, int hi, uint8_t* nonzero) noexcept nogil:
    """Lists in ``nonzero`` the words of ``words[lo:hi]`` holding a legal action, in order; the number of actions."""
    cdef int i, m = 0, count = 0
    for i in range(lo, hi):
        if words[i]:
            nonzero[m] = <uint8_t>i
            m += 1
            count += popcount(words[i])
    return count


cdef inline int list_nonzero_words_in(const uint64_t* words, uint64_t which, uint8_t* nonzero) noexcept nogil:
    """``list_nonzero_words`` over the words whose bit is set in ``which`` (bit i for word i), in order."""
    cdef int i, m = 0, count = 0
    while which:
        i = lowest_bit(which)
        which &= which - 1
        if words[i]:
            nonzero[m] = <uint8_t>i
            m += 1
            count += popcount(words[i])
    return count


cdef inline int count_in_words(const uint64_t* words, uint64_t which) noexcept nogil:
    """The number of actions in the words whose bit is set in ``which`` (bit i for word i)."""
    cdef int count = 0
    while which:
        count += popcount(words[lowest_bit(which)])
        which &= which - 1
    return count


cdef inline int draw_in_words(const uint64_t* words, uint64_t which, int count, uint64_t* rng) noexcept nogil:
    """``draw_listed_action`` over the words named in ``which`` (``count`` > 0 actions there): the same draw, the
    same action, without listing the non-zero words first (a word with no action is passed over by its count)."""
    cdef int k = <int>rng_below(rng, <uint32_t>count), i, c
    while True:
        i = lowest_bit(which)
        c = popcount(words[i])
        if k < c:
            return (i << 6) | nth_set_bit(words[i], k)
        k -= c
        which &= which - 1


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


cdef inline int64_t playout_loop(
    actors_fn actors, legal_mask_fn legal_mask, legal_mask_range_fn legal_mask_range,
    legal_mask_words_fn legal_mask_words, apply_fn apply, int mask_words,
    const void* cfg, void* st, uint64_t* rng, int64_t max_len,
) noexcept nogil:
    """Uniformly random legal actions for the current (lowest acting) seat until the end; the action count.

    The one loop: the mask comes from exactly one of ``legal_mask_words`` (it names the words it wrote as a set,
    ``mask_words`` <= 64), ``legal_mask_range`` (as a span) or ``legal_mask`` (every word scanned); the other two
    are NULL. Inlined with constant pointers, the C compiler keeps only the chosen branch. Should the named words
    hold no action, every word is scanned, so the draws are the same whichever way the mask is filled: k below
    the number of legal actions of the lowest acting seat, the k-th of them in id order."""
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint8_t nonzero[MAX_MASK_WORDS]      # the words with a legal action, in order (most masks have 1 or 2)
    cdef uint64_t which
    cdef uint32_t bits
    cdef int seat, count, lo, hi
    cdef int64_t n = 0
    while True:
        bits = actors(cfg, st)
        if bits == 0:
            return n
        if n >= max_len:
            return PLAYOUT_TOO_LONG
        seat = lowest_bit(bits)
        if legal_mask_words != NULL:
            # counted and drawn from the named words straight (listing them first costs a test and a store a
            # word, and most named words hold an action)
            which = legal_mask_words(cfg, st, seat, words)
            count = count_in_words(words, which)
            if count:
                apply(cfg, st, seat, draw_in_words(words, which, count, rng))
                n += 1
                continue
        elif legal_mask_range != NULL:
            legal_mask_range(cfg, st, seat, words, &lo, &hi)
            count = list_nonzero_words(words, lo, hi, nonzero)
        else:
            legal_mask(cfg, st, seat, words)
            count = 0
        if count == 0:
            count = list_nonzero_words(words, 0, mask_words, nonzero)
            if count == 0:
                return PLAYOUT_TOO_LONG
        apply(cfg, st, seat, draw_listed_action(words, nonzero, count, rng))
        n += 1


cdef inline int64_t random_playout_loop(
    actors_fn actors, legal_mask_fn legal_mask, apply_fn apply, int mask_words,
    const void* cfg, void* st, uint64_t* rng, int64_t max_len,
) noexcept nogil:
    """``playout_loop`` scanning every mask word (any engine; the generic batch and search code)."""
    return playout_loop(actors, legal_mask, NULL, NULL, apply, mask_words, cfg, st, rng, max_len)


cdef inline int64_t random_playout_loop_range(
    actors_fn actors, legal_mask_range_fn legal_mask_range, apply_fn apply, int mask_words,
    const void* cfg, void* st, uint64_t* rng, int64_t max_len,
) noexcept nogil:
    """``playout_loop`` scanning only the span of words ``legal_mask_range`` names (Scrapyard's phase blocks)."""
    return playout_loop(actors, NULL, legal_mask_range, NULL, apply, mask_words, cfg, st, rng, max_len)


cdef inline int64_t random_playout_loop_words(
    actors_fn actors, legal_mask_words_fn legal_mask_words, apply_fn apply, int mask_words,
    const void* cfg, void* st, uint64_t* rng, int64_t max_len,
) noexcept nogil:
    """``playout_loop`` scanning only the set of words ``legal_mask_words`` names; ``mask_words`` <= 64."""
    return playout_loop(actors, NULL, NULL, legal_mask_words, apply, mask_words, cfg, st, rng, max_len)
