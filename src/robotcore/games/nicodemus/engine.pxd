# cython: language_level=3
"""Nicodemus engine functions shared with view.pyx (views and resampling need the same rules)."""

from libc.stdint cimport int32_t, uint32_t

from robotcore.games.nicodemus.state cimport NMConfig, NMState

cdef int hand_count(const NMState* s, int seat) noexcept nogil
cdef int reserve_of(const NMConfig* cfg, const NMState* s, int r) noexcept nogil
cdef int32_t seat_score(const NMConfig* cfg, const NMState* s, int seat) noexcept nogil
cdef uint32_t copyable(const NMConfig* cfg, const NMState* s, int seat, int n_after, int hand_after) noexcept nogil
cdef int nm_validate(const void* cfg, const void* st) noexcept nogil
