# cython: language_level=3
"""Scrapyard engine functions shared with view.pyx (views and resampling need the same rules)."""

from libc.stdint cimport int32_t, uint8_t, uint64_t

from robotcore.games.scrapyard.state cimport Player, SYConfig, SYState

cdef int cs_count(const uint64_t* s) noexcept nogil
cdef int cs_nth(const uint64_t* s, int n) noexcept nogil
cdef int day_dir(const SYState* s) noexcept nogil
cdef int next_keeper(const SYState* s, int n, int p, int dirn, int after) noexcept nogil
cdef int track_holder(const SYState* s, int n, int t, int x) noexcept nogil
cdef int fate_step(uint8_t fate) noexcept nogil
cdef void known_broken_today(const SYConfig* cfg, const SYState* s, int p, bint revealed,
                             uint64_t* out) noexcept nogil
cdef int cap_mo(const Player* P) noexcept nogil
cdef int cap_en(const Player* P) noexcept nogil
cdef bint over_capacity(const Player* P) noexcept nogil
cdef bint can_buy(const Player* P) noexcept nogil
cdef bint bench_repaired(const SYConfig* cfg, const Player* P, int b) noexcept nogil
cdef const Player* public_player(const SYConfig* cfg, const SYState* s, int p) noexcept nogil
cdef bint robot_complete(const Player* P) noexcept nogil
cdef int32_t player_score(const SYConfig* cfg, const Player* P) noexcept nogil
cdef void player_cards(const SYConfig* cfg, const Player* P, uint64_t* out) noexcept nogil
cdef uint64_t legal_for(const SYConfig* cfg, const SYState* s, int seat, uint64_t* words) noexcept nogil
cdef void sy_apply(const void* c, void* st, int seat, int action) noexcept nogil
cdef int sy_validate(const void* c, const void* st) noexcept nogil
cdef int pair_a(int idx) noexcept nogil
cdef int pair_b(int idx) noexcept nogil
cdef int check_log(const SYConfig* cfg, const SYState* s, bint complete, uint64_t* hands, uint64_t* reserves,
                   int* broken_by) noexcept nogil
cdef bint only_done(const SYConfig* cfg, const Player* P) noexcept nogil
cdef double heuristic(const SYConfig* cfg, const SYState* s, int seat) noexcept nogil
