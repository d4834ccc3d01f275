# cython: language_level=3
"""Smartphone engine functions shared with view.pyx (views and resampling need the same rules)."""

from libc.stdint cimport int32_t

from robotcore.games.smartphone.state cimport SPConfig, SPState

cdef int pile_size(const SPConfig* cfg, const SPState* s) noexcept nogil
cdef int deck_size(const SPState* s, int sup) noexcept nogil
cdef int visible_count(const SPConfig* cfg, const SPState* s, int sup) noexcept nogil
cdef int hand_sup(const SPState* s, int p, int sup) noexcept nogil
cdef int recycled_owned(const SPState* s, int p) noexcept nogil
cdef int laid_sup(const SPState* s, int p, int sup) noexcept nogil
cdef int malus_weight(const SPConfig* cfg, const SPState* s, int p) noexcept nogil
cdef int32_t seat_score(const SPConfig* cfg, const SPState* s, int p) noexcept nogil
cdef int sp_validate(const void* cfg, const void* st) noexcept nogil
