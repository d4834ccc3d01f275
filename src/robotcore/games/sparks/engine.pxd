# cython: language_level=3
"""Sparks engine functions shared with view.pyx (views and resampling need the same rules)."""

from libc.stdint cimport int32_t, uint32_t

from robotcore.games.sparks.state cimport AR_DEALT, AR_UNPICKED, PH_DRAFT, Player, SPConfig, SPState

cdef int32_t seat_score(const SPConfig* cfg, const SPState* s, int p) noexcept nogil
cdef uint32_t goals_met(const SPConfig* cfg, const Player* P) noexcept nogil
cdef bint sp_solo_won(const void* c, const void* st) noexcept nogil
cdef int sp_validate(const void* c, const void* st) noexcept nogil
cdef uint32_t sp_actors(const void* c, const void* st) noexcept nogil
cdef int colour_count(const SPConfig* cfg, const Player* P, int c) noexcept nogil


cdef inline uint32_t draft_hand(const SPConfig* cfg, const SPState* s, int q) noexcept nogil:
    """The cards seat q holds in the draft now: those of the hand passed to it at this step (dealt to seat
    q - dstep) nobody has picked. The draft record says it all, so the state keeps no hands."""
    cdef uint32_t out = 0
    cdef int c, want
    if s.phase != PH_DRAFT:
        return 0
    want = AR_DEALT | ((((q - s.dstep) % cfg.nseats + cfg.nseats) % cfg.nseats) << 4) | AR_UNPICKED
    for c in range(cfg.nassist):
        if s.arec[c] == want:
            out |= (<uint32_t>1) << c
    return out


cdef inline int bottom_knowers(const SPState* s, int i) noexcept nogil:
    """The seats (bitmask) that know the card ``bottom[i]``."""
    return (s.bottom[i] >> 6) | <int>(((s.bknow[0] >> i) & 1) << 2) | <int>(((s.bknow[1] >> i) & 1) << 3)
