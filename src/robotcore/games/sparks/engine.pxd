# cython: language_level=3
"""Sparks engine functions shared with view.pyx (views and resampling need the same rules)."""

from libc.stdint cimport int32_t, uint32_t

from robotcore.games.sparks.state cimport Player, SPConfig, SPState

cdef int32_t seat_score(const SPConfig* cfg, const SPState* s, int p) noexcept nogil
cdef uint32_t goals_met(const SPConfig* cfg, const Player* P) noexcept nogil
cdef int sp_validate(const void* c, const void* st) noexcept nogil
cdef uint32_t sp_actors(const void* c, const void* st) noexcept nogil
cdef int colour_count(const SPConfig* cfg, const Player* P, int c) noexcept nogil


cdef inline int bottom_knowers(const SPState* s, int i) noexcept nogil:
    """The seats (bitmask) that know the card ``bottom[i]``."""
    return (s.bottom[i] >> 6) | <int>(((s.bknow[0] >> i) & 1) << 2) | <int>(((s.bknow[1] >> i) & 1) << 3)
