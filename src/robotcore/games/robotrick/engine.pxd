# cython: language_level=3
"""Robotrick engine functions shared with view.pyx (redaction and resampling need the same rules)."""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

from robotcore.games.robotrick.state cimport RTConfig, RTState

cdef int next_player(int rnd, int player) noexcept nogil
cdef int to_play(const RTState* s) noexcept nogil
cdef bint beats(int card, int best, int led, int trump_colour) noexcept nogil
cdef int trick_best(const RTState* s) noexcept nogil
cdef int trick_winner_of(const int* cards, const int* players, int n, int trump_colour) noexcept nogil
cdef int droco_choose(const RTConfig* cfg, const RTState* s) noexcept nogil
cdef int32_t vp_sum(const RTConfig* cfg, uint64_t cards) noexcept nogil
cdef int32_t live_round_score(const RTConfig* cfg, const RTState* s, int seat) noexcept nogil
cdef int rt_validate(const void* cfg, const void* st) noexcept nogil
cdef int replay_round(const RTConfig* cfg, const uint8_t* played_at, int trick_no, int trump, int rnd,
                      uint64_t* up, uint64_t* down, uint16_t* voids) noexcept nogil
cdef int stored_rounds(const RTState* s) noexcept nogil
