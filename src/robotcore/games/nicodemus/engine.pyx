# cython: language_level=3
"""Nicodemus's rules in C: move generation (``nm_legal_mask``), stepping (``nm_apply``), scoring and the invariant
check (``nm_validate``). RULES.md states the rules these functions implement.

A turn is a short sequence of decisions of the current player: the main action (play a machine with one of its
three uses, repair a bric-a-brac machine, or draw when stuck), then the sub-prompts of an effect or the projects
after a repair (``Phase`` in state.pxd). A sub-prompt with exactly one legal answer is answered automatically
(``auto_resolve``) when every seat could name that answer; P1's discard from the hand and Y1's kept project
come from hidden cards and are always asked (``answer_is_public``).

Invariants that hold between calls (and that ``nm_validate`` checks for states from outside):
- every machine is in exactly one place (deck, a hand, the bric-a-brac, a workshop, a set-aside pile, the public
  discard, or a discard hidden from one seat), and every project too (pile, public, private, completed, removed,
  being chosen);
- ``known[s]`` never exceeds what is really in the opponent's hand plus ``hdisc[s]`` (it is a lower bound that
  seat s can deduce), and ``sure[s]`` (the known machines taken since s's last R3) never exceeds ``known[s]`` nor
  what is really in the opponent's hand;
- workshops stay sorted by type (but for the machine just repaired, during the projects); the seat resolving a
  played machine holds at most 4 machines (a steal gives it a fifth); no turn of the first player starts once
  the end is triggered;
- the acting seat always has a legal action; the scores equal the scoring recomputed from the pieces.
"""

cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from robotcore.core.bits cimport load_le32, lowest_bit, nonzero16, popcount
from robotcore.core.playout cimport (
    PLAYOUT_TOO_LONG, draw_listed_action, list_nonzero_words, list_nonzero_words_in,
)
from robotcore.core.rng cimport rng_below, rng_seed, rng_shuffle_u8
from robotcore.core.state cimport MAX_MASK_WORDS, EngineSpec, GameCore, take_native_hooks
from robotcore.games.nicodemus.state cimport (
    BLUE, COAL, COPPER, CRYSTAL, FX_COPY, FX_DISCARD_BACK_2, FX_DISCARD_BACK_3, FX_DISCARD_HAND,
    FX_DISCARD_PREVIOUS, FX_EXCHANGE, FX_PRODUCE, FX_PROJECT, FX_RETURN, FX_STEAL_COAL, FX_STEAL_RESOURCE,
    FX_STRIP, HAND_SIZE, JOKER, MAX_CARDS, MAX_PROJECTS, MAX_REQ, MAX_TYPES, NO_CARD, NUM_ALLOCS, NUM_EFFECTS,
    NUM_PHASES, NUM_SEATS, PH_CHOOSE_RES, PH_COPY, PH_DISCARD_HAND, PH_DISCARD_SLOT, PH_EXCHANGE, PH_KEEP,
    PH_MAIN, PH_OVER, PH_PROJECTS, PH_RETURN, PH_STEAL, PH_TAKE_COST1, PH_TAKE_COST2, PK_COLOUR, PK_IDENTICAL,
    PK_PRODUCTION, PK_VP, ROW, SHARE_ALL, SHARE_NONE, SHARE_REPAIRED, TABLE_SLOTS, USE_COAL, USE_EFFECT,
    USE_PRODUCE, WOOD, WORKSHOP_MAX, NMConfig, NMState,
)

# -- fixed tables: joker allocations, resource pairs, exchanges ---------------------------------------------------

# ALLOC[a] = joker reductions on (wood, copper, crystal): every multiset of 0 to 3 of them, by size then
# lexicographically (wood < copper < crystal).
cdef uint8_t ALLOC[NUM_ALLOCS][4]
cdef uint8_t ALLOC_SIZE[NUM_ALLOCS]
# PAIR[i] = two resources (a <= b) among wood, copper, crystal: ww, wc, wx, cc, cx, xx.
cdef uint8_t PAIR_A[6]
cdef uint8_t PAIR_B[6]
# Bitsets over ALLOC: ALLOC_BY_SIZE[k] the allocations of size k; ALLOC_MIN[r][k] those giving at least k jokers
# to cube r (r = 1..3; none for k >= 4), ALLOC_MAX[r][k] those giving at most k (all for k >= 3). Indexed by a
# cube count (0..9 after make_core's checks), hence 16 entries.
cdef uint32_t ALLOC_BY_SIZE[4]
cdef uint32_t ALLOC_MIN[4][16]
cdef uint32_t ALLOC_MAX[4][16]
# The same allocation sets for costs and stocks of at most 3 of each cube, packed as 6-bit indices (wood + 4 copper
# + 16 crystal): ALLOC_LACK6[d] the allocations giving at least d of each cube, ALLOC_COST6[c][j] those of the size
# j joker producers use on cost c that give at most c of each cube, SUB6[c][h] the packed max(0, c - h) per cube.
cdef uint32_t ALLOC_LACK6[64]
cdef uint32_t ALLOC_COST6[64][4]
cdef uint8_t SUB6[64][64]
# SPREAD3[x]: bit k of x moved to bit 3k (the PLAY family's three uses per type).
cdef uint64_t SPREAD3[256]
# CLAMP3[r][x] = min(x, 3) << (2 * (r - 1)) for r = 1..3: a stock of cubes as the payable table indexes it (wood +
# 4 copper + 16 crystal), each cube's part by one lookup.
cdef uint32_t CLAMP3[4][256]
# PLAY_TYPE[a]: the machine type of play action a (a // 3; its use, a % 3, is read through cfg.play_kind).
cdef uint8_t PLAY_TYPE[3 * MAX_TYPES]
cdef enum:
    PLAY_GAIN = 0       # NMConfig.play_kind
    PLAY_JOKER = 1
    PLAY_EFFECT = 2


cdef void _init_tables() noexcept:
    cdef int n = 0, a, b, c, k
    for k in range(NUM_ALLOCS):
        ALLOC[k][0] = ALLOC[k][1] = ALLOC[k][2] = ALLOC[k][3] = 0
    ALLOC_SIZE[n] = 0
    n += 1
    for a in range(1, 4):
        ALLOC[n][a] += 1
        ALLOC_SIZE[n] = 1
        n += 1
    for a in range(1, 4):
        for b in range(a, 4):
            ALLOC[n][a] += 1
            ALLOC[n][b] += 1
            ALLOC_SIZE[n] = 2
            n += 1
    for a in range(1, 4):
        for b in range(a, 4):
            for c in range(b, 4):
                ALLOC[n][a] += 1
                ALLOC[n][b] += 1
                ALLOC[n][c] += 1
                ALLOC_SIZE[n] = 3
                n += 1
    n = 0
    for a in range(1, 4):
        for b in range(a, 4):
            PAIR_A[n] = a
            PAIR_B[n] = b
            n += 1

    # the allocation sets move generation combines (allocs_for): by size, by a lower and an upper bound per cube
    for k in range(4):
        ALLOC_BY_SIZE[k] = 0
    for a in range(NUM_ALLOCS):
        ALLOC_BY_SIZE[ALLOC_SIZE[a]] |= 1u << a
    for r in range(4):
        for k in range(16):
            ALLOC_MIN[r][k] = 0
            ALLOC_MAX[r][k] = 0
            for a in range(NUM_ALLOCS):
                if ALLOC[a][r] >= k:
                    ALLOC_MIN[r][k] |= 1u << a
                if ALLOC[a][r] <= k:
                    ALLOC_MAX[r][k] |= 1u << a
    for k in range(256):
        for a in range(4):
            CLAMP3[a][k] = (k if k < 3 else 3) << (2 * (a - 1)) if a else 0
    for k in range(64):
        ALLOC_LACK6[k] = ALLOC_MIN[1][k & 3] & ALLOC_MIN[2][(k >> 2) & 3] & ALLOC_MIN[3][k >> 4]
        for a in range(4):
            b = (k & 3) + ((k >> 2) & 3) + (k >> 4)
            b = a if a < b else b
            ALLOC_COST6[k][a] = (ALLOC_BY_SIZE[b if b < 3 else 3] & ALLOC_MAX[1][k & 3] & ALLOC_MAX[2][(k >> 2) & 3]
                                 & ALLOC_MAX[3][k >> 4])
        for c in range(64):
            SUB6[k][c] = (max(0, (k & 3) - (c & 3)) | (max(0, ((k >> 2) & 3) - ((c >> 2) & 3)) << 2)
                          | (max(0, (k >> 4) - (c >> 4)) << 4))
    for k in range(3 * MAX_TYPES):
        PLAY_TYPE[k] = k // 3
    for k in range(256):
        SPREAD3[k] = 0
        for a in range(8):
            if (k >> a) & 1:
                SPREAD3[k] |= (<uint64_t>1) << (3 * a)


_init_tables()


# -- small helpers ----------------------------------------------------------------------------------------------

cdef inline void set_bit(uint64_t* words, int a) noexcept nogil:
    words[a >> 6] |= (<uint64_t>1) << (a & 63)


cdef inline void or_bits(uint64_t* words, int a, uint32_t bits) noexcept nogil:
    """Set actions a + k for every bit k of ``bits`` (the part past a word boundary only when it holds a bit, so
    no word beyond the last action is touched)."""
    cdef int w = a >> 6, off = a & 63
    cdef uint64_t m = bits
    words[w] |= m << off
    if off > 32:
        m >>= 64 - off
        if m:
            words[w + 1] |= m


cdef inline uint32_t sub_sat_bytes(uint32_t x, uint32_t y) noexcept nogil:
    """max(0, x - y) byte by byte, for bytes below 128."""
    cdef uint32_t d = (x | 0x80808080u) - y
    return d & (((d >> 7) & 0x01010101u) * 0x7Fu)


cdef inline bint bytes_cover(uint32_t have, uint32_t need) noexcept nogil:
    """Every byte of ``have`` >= the same byte of ``need`` (bytes below 128)."""
    return (((have | 0x80808080u) - need) & 0x80808080u) == 0x80808080u


cdef inline int table_coal_total(const NMState* s) noexcept nogil:
    """The charcoalium lying on the bric-a-brac: the 10 counts summed as bytes (entries past table_n are zero and
    the total is at most the supply, 64, which ``nm_validate`` guarantees)."""
    cdef uint64_t lo
    memcpy(&lo, &s.table_coal[0], 8)
    return <int>((lo * <uint64_t>0x0101010101010101ULL) >> 56) + s.table_coal[8] + s.table_coal[9]


cdef int hand_count(const NMState* s, int seat) noexcept nogil:
    """Machines in a hand (``nm_hand_size``: one sum of absolute differences with SSE2; elsewhere two 8-byte
    words, exact while a hand holds fewer than 256 machines, which ``nm_validate`` guarantees)."""
    return nm_hand_size(&s.hand[seat][0])


# A hand's 16 counts as one 16-byte vector where SSE2 is there (every x86-64): its size by one sum of absolute
# differences, elsewhere by two 8-byte words; the types present are the kernel's ``rc_nonzero16`` (core/bits.h).
cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #include "bits.h"
    #if defined(__SSE2__) || defined(_M_X64)
    static CYTHON_INLINE int nm_hand_size(const uint8_t* h) {
        __m128i sum = _mm_sad_epu8(_mm_loadu_si128((const __m128i*)h), _mm_setzero_si128());
        return _mm_cvtsi128_si32(sum) + _mm_extract_epi16(sum, 4);
    }
    #else
    static CYTHON_INLINE int nm_hand_size(const uint8_t* h) {
        uint64_t lo, hi;   /* exact below 256 machines: nm_validate allows at most 64 cards */
        memcpy(&lo, h, 8);
        memcpy(&hi, h + 8, 8);
        return (int)(((lo * 0x0101010101010101ULL) >> 56) + ((hi * 0x0101010101010101ULL) >> 56));
    }
    #endif
    static CYTHON_INLINE uint32_t nm_hand_types_count(const uint8_t* h, int* count) {
        *count = nm_hand_size(h);
        return rc_nonzero16(h);
    }
    """
    uint32_t nm_hand_types_count(const uint8_t* h, int* count) noexcept nogil
    int nm_hand_size(const uint8_t* h) noexcept nogil


# nm_validate's checks over rows of 16 per-type counts, 16 bytes at a time where SSE2 is there (unsigned byte
# compares and saturating adds: a sum that saturates is above every count the checks accept), a byte loop
# elsewhere.
cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #define NM_LD(p) _mm_loadu_si128((const __m128i*)(p))
    /* every a[i] <= b[i] + c[i] */
    static CYTHON_INLINE int nm_le_sum16(const uint8_t* a, const uint8_t* b, const uint8_t* c) {
        __m128i x = NM_LD(a), y = _mm_adds_epu8(NM_LD(b), NM_LD(c));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, y), y)) == 0xFFFF;
    }
    /* every r0[i] + r0[16 + i] + r1[i] + r1[16 + i] + r2[i] + r2[16 + i] + d[i] + e[i] == want[i] */
    static CYTHON_INLINE int nm_sum_eq16(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                                         const uint8_t* d, const uint8_t* e, const uint8_t* want) {
        __m128i x = _mm_adds_epu8(_mm_adds_epu8(NM_LD(r0), NM_LD(r0 + 16)),
                                  _mm_adds_epu8(NM_LD(r1), NM_LD(r1 + 16)));
        x = _mm_adds_epu8(x, _mm_adds_epu8(NM_LD(r2), NM_LD(r2 + 16)));
        x = _mm_adds_epu8(x, _mm_adds_epu8(NM_LD(d), NM_LD(e)));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(x, NM_LD(want))) == 0xFFFF;
    }
    #else
    static CYTHON_INLINE int nm_le_sum16(const uint8_t* a, const uint8_t* b, const uint8_t* c) {
        int i;
        for (i = 0; i < 16; i++) if (a[i] > b[i] + c[i]) return 0;
        return 1;
    }
    static CYTHON_INLINE int nm_sum_eq16(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2,
                                         const uint8_t* d, const uint8_t* e, const uint8_t* want) {
        int i;
        for (i = 0; i < 16; i++)
            if (r0[i] + r0[16 + i] + r1[i] + r1[16 + i] + r2[i] + r2[16 + i] + d[i] + e[i] != want[i]) return 0;
        return 1;
    }
    #endif
    """
    int nm_le_sum16(const uint8_t* a, const uint8_t* b, const uint8_t* c) noexcept nogil
    int nm_sum_eq16(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* d, const uint8_t* e,
                    const uint8_t* want) noexcept nogil


cdef uint8_t ZERO16[MAX_TYPES]      # a row of zero counts (nm_le_sum16 with one row)


# Removing byte i (< 10) of a 10-byte array, the bytes after it moving down and a zero coming in at the end: two
# word shifts on little-endian targets (the compiler turns the byte loop into memmove calls), a loop elsewhere.
cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    static CYTHON_INLINE void nm_drop_byte(uint8_t* p, int i) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t lo;
        uint16_t hi;
        memcpy(&lo, p, 8);
        memcpy(&hi, p + 8, 2);
        if (i < 8) {
            uint64_t keep = lo & ((1ULL << (8 * i)) - 1);
            uint64_t upper = i < 7 ? (lo >> (8 * i + 8)) << (8 * i) : 0;
            lo = keep | upper | ((uint64_t)(hi & 0xFF) << 56);
            hi >>= 8;
        } else if (i == 8) {
            hi >>= 8;
        } else {
            hi &= 0xFF;
        }
        memcpy(p, &lo, 8);
        memcpy(p + 8, &hi, 2);
    #else
        int j;
        for (j = i; j < 9; j++) p[j] = p[j + 1];
        p[9] = 0;
    #endif
    }
    """
    void nm_drop_byte(uint8_t* p, int i) noexcept nogil


# The bric-a-brac slots whose machine type is in a set of types (the main phase's payable repairs): where SSSE3 is
# there (every x86-64-v2 CPU, which NumPy 2.4 requires; checked at import, since builds target the baseline), a
# 16-byte lookup of the 10 slot types in the set spread to bytes (``pshufb``): about 8 instructions for every slot at
# once; elsewhere a loop over the slots. Bits 10..15 of the lookup read the charcoalium counts after the types:
# callers keep only bits lo..n-1 (n <= 10).
cdef extern from *:
    """
    #include <stdint.h>
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <tmmintrin.h>
    #define NM_HAVE_SSSE3_PATH 1
    __attribute__((target("ssse3"))) static uint32_t nm_slots_in_ssse3(const uint8_t* table, uint32_t types) {
        const __m128i spread = _mm_set_epi8(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
        const __m128i bit = _mm_set_epi8((char)0x80, 0x40, 0x20, 0x10, 8, 4, 2, 1,
                                         (char)0x80, 0x40, 0x20, 0x10, 8, 4, 2, 1);
        /* byte t of lut: 0xFF when type t is in the set */
        __m128i lut = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)types), spread);
        lut = _mm_cmpeq_epi8(_mm_and_si128(lut, bit), bit);
        return (uint32_t)_mm_movemask_epi8(_mm_shuffle_epi8(lut, _mm_loadu_si128((const __m128i*)table)));
    }
    static int nm_ssse3 = 0;
    /* on: use the SSSE3 path when this CPU has it; returns whether it is used */
    static int nm_use_ssse3(int on) {
        __builtin_cpu_init();
        nm_ssse3 = on && __builtin_cpu_supports("ssse3") ? 1 : 0;
        return nm_ssse3;
    }
    #else
    #define NM_HAVE_SSSE3_PATH 0
    static uint32_t nm_slots_in_ssse3(const uint8_t* table, uint32_t types) { (void)table; (void)types; return 0; }
    static int nm_ssse3 = 0;
    static int nm_use_ssse3(int on) { (void)on; return 0; }
    #endif
    static CYTHON_INLINE uint32_t nm_slots_in(const uint8_t* table, uint32_t types, int lo, int n) {
        uint32_t slots = 0;
        int i;
        if (nm_ssse3)
            return nm_slots_in_ssse3(table, types) & (0xFFFFu >> (16 - n)) & (0xFFFFu << lo);
        for (i = lo; i < n; i++)
            slots |= ((types >> table[i]) & 1u) << i;
        return slots;
    }
    """
    uint32_t nm_slots_in(const uint8_t* table, uint32_t types, int lo, int n) noexcept nogil
    int nm_use_ssse3(int on) noexcept nogil
    int nm_ssse3


nm_use_ssse3(1)


def _simd(int on=-1) -> bool:
    """Whether move generation uses its SSSE3 path; ``on`` 0 or 1 switches it off or on (on only where the CPU has
    it: tests compare both paths)."""
    if on >= 0:
        nm_use_ssse3(on)
    return nm_ssse3 != 0


cdef inline uint32_t hand_types_count(const NMState* s, int seat, int* count) noexcept nogil:
    """The machine types present in a hand, as a bitset; its size in ``count``."""
    return nm_hand_types_count(&s.hand[seat][0], count)


cdef inline uint32_t hand_types(const NMState* s, int seat) noexcept nogil:
    cdef int n
    return nm_hand_types_count(&s.hand[seat][0], &n)


cdef inline int cubes(const NMState* s, int seat) noexcept nogil:
    return s.res[seat][WOOD] + s.res[seat][COPPER] + s.res[seat][CRYSTAL]


cdef int reserve_of(const NMConfig* cfg, const NMState* s, int r) noexcept nogil:
    """What the reserve holds of resource r: the supply minus the players' stocks (minus, for charcoalium,
    what lies on bric-a-brac machines, counted under a mask: a gain's resource comes from the action drawn).
    Never negative in a valid state."""
    return cfg.supply[r] - s.res[0][r] - s.res[1][r] - (table_coal_total(s) & (0 - <int>(r == COAL)))


cdef inline void dec(uint8_t* x) noexcept nogil:
    if x[0] > 0:
        x[0] -= 1


cdef inline void seen_leaving(NMState* s, int observer, int t) noexcept nogil:
    """A machine of type ``t`` left the hand of ``observer``'s opponent in front of ``observer``: one fewer known,
    and one fewer certainly in the hand (the one that left may have been the certain one), never below zero and
    never more certain than known (without branches: random play makes them unpredictable)."""
    cdef int k = s.known[observer][t], u = s.sure[observer][t]
    k -= k > 0
    u -= u > 0
    s.known[observer][t] = <uint8_t>k
    s.sure[observer][t] = <uint8_t>(u if u < k else k)


cdef inline void gain(const NMConfig* cfg, NMState* s, int seat, int r, int n) noexcept nogil:
    """Take n units of r from the reserve; when it runs short, the rest from the opponent, up to what they hold;
    anything beyond is lost."""
    cdef int o = 1 - seat, avail, take, rest
    if n <= 0:
        return
    avail = reserve_of(cfg, s, r)
    take = n if n < avail else avail
    if take < 0:
        take = 0
    rest = n - take
    if rest > s.res[o][r]:
        rest = s.res[o][r]
    s.res[seat][r] += take + rest
    s.res[o][r] -= rest


cdef int32_t seat_score(const NMConfig* cfg, const NMState* s, int seat) noexcept nogil:
    """VP of every machine the seat repaired (in its workshop or set aside) plus its completed projects."""
    cdef int32_t v = 0
    cdef int t, i
    cdef uint32_t done = s.proj_done[seat]
    for i in range(s.ws_n[seat]):
        v += cfg.vp[s.ws[seat][i]]
    cdef uint32_t kinds = nonzero16(&s.aside[seat][0])     # nm_validate: none of a type >= num_types
    while kinds:
        t = lowest_bit(kinds)
        kinds &= kinds - 1
        v += s.aside[seat][t] * cfg.vp[t]
    while done:
        v += cfg.proj_vp[lowest_bit(done)]
        done &= done - 1
    return v


cdef int nth_in_hand(const NMState* s, int seat, int k) noexcept nogil:
    """The type of the k-th machine (0-based) of a hand listed by ascending type."""
    cdef int t
    for t in range(MAX_TYPES):
        if k < s.hand[seat][t]:
            return t
        k -= s.hand[seat][t]
    return 0


cdef inline void insert_sorted(NMState* s, int seat, int i) noexcept nogil:
    """Move ws[seat][i] down into its place among ws[seat][0:i], already sorted by type."""
    cdef uint8_t x = s.ws[seat][i]
    cdef int j = i - 1
    while j >= 0 and s.ws[seat][j] > x:
        s.ws[seat][j + 1] = s.ws[seat][j]
        j -= 1
    s.ws[seat][j + 1] = x


cdef void sort_workshop(NMState* s, int seat, int n) noexcept nogil:
    """Insertion sort of ws[seat][0:n] by type."""
    cdef int i
    for i in range(1, n):
        insert_sorted(s, seat, i)


cdef void remove_slot(NMState* s, int i) noexcept nogil:
    """Take machine i out of the bric-a-brac (its charcoalium goes with it) and close the gap (``nm_drop_byte``:
    the entries past table_n are zero, so the last one becomes zero)."""
    nm_drop_byte(s.table, i)
    nm_drop_byte(s.table_coal, i)
    s.table_n -= 1


# -- what an effect needs to be applicable ----------------------------------------------------------------------

cdef uint32_t exchange_mask(const NMConfig* cfg, const NMState* s, int seat) noexcept nogil:
    """Bits 0..2: charcoalium -> wood/copper/crystal; bits 3..5: wood/copper/crystal -> charcoalium. An exchange
    needs the unit given and a unit to receive (from the reserve, or from the opponent when it runs short): what
    the reserve and the opponent hold together is the supply minus the player's stock (minus, for charcoalium,
    what lies on the bric-a-brac)."""
    cdef int r
    cdef uint32_t m = 0
    cdef bint coal_to_get = reserve_of(cfg, s, COAL) + s.res[1 - seat][COAL] > 0
    for r in range(1, 4):
        if s.res[seat][COAL] > 0 and cfg.supply[r] > s.res[seat][r]:
            m |= 1u << (r - 1)
        if s.res[seat][r] > 0 and coal_to_get:
            m |= 1u << (r + 2)
    return m


cdef inline bint exchange_possible(const NMConfig* cfg, const NMState* s, int seat) noexcept nogil:
    """``exchange_mask(cfg, s, seat) != 0``: charcoalium to give and a cube the reserve or the opponent holds, or
    a cube to give and charcoalium there (the supply less the player's and the bric-a-brac's)."""
    cdef const uint8_t* res = s.res[seat]
    if res[COAL] > 0 and (cfg.supply[WOOD] > res[WOOD] or cfg.supply[COPPER] > res[COPPER]
                          or cfg.supply[CRYSTAL] > res[CRYSTAL]):
        return True
    return (res[WOOD] | res[COPPER] | res[CRYSTAL]) != 0 and cfg.supply[COAL] - res[COAL] - table_coal_total(s) > 0


cdef inline uint32_t table_types(const NMState* s, int n) noexcept nogil:
    """The machine types on bric-a-brac slots 0..n-1, as a bitset."""
    cdef uint32_t m = 0
    cdef int i
    for i in range(n):
        m |= 1u << s.table[i]
    return m


# The facts the effect tests read, as the bits of an index into cfg.fx_cond_types (built by _move_tables).
cdef enum:
    FX_COND_HAND_AFTER = 0    # a machine left in hand after the play
    FX_COND_TWO_SLOTS = 1     # at least 2 bric-a-brac machines with the played one
    FX_COND_OPP_COAL = 2      # the opponent holds charcoalium
    FX_COND_OPP_HAND = 3      # the opponent holds a machine
    FX_COND_OPP_CUBES = 4     # the opponent holds a cube
    FX_COND_OPP_HAND_3 = 5    # the opponent holds more than 2 machines
    FX_COND_PILE = 6          # a project tile is left face down


# The two facts of the opponent's hand size h (at most 5, nm_validate: indexed by h & 7): a machine, more than 2.
cdef uint32_t OPP_HAND_FACTS[8]
OPP_HAND_FACTS[0] = 0
OPP_HAND_FACTS[1] = OPP_HAND_FACTS[2] = 1u << FX_COND_OPP_HAND
for _h in range(3, 8):
    OPP_HAND_FACTS[_h] = (1u << FX_COND_OPP_HAND) | (1u << FX_COND_OPP_HAND_3)


cdef inline uint32_t applicable_types(const NMConfig* cfg, const NMState* s, int seat, int n_after,
                                      int hand_after, uint32_t want) noexcept nogil:
    """The machine types whose effect can do something if it resolves now, the played machine being the last of
    ``n_after`` bric-a-brac machines and ``hand_after`` machines left in hand (RULES.md, "Applicable"): exact for
    the types of ``want``; the exchange and the copy, the two costly tests, are only decided when ``want`` holds
    them. Every effect's test depends on the effect only, so each is made once (``cfg.fx_types``)."""
    cdef int o = 1 - seat, ho = nm_hand_size(&s.hand[o][0]), i, t
    cdef uint32_t ok, exch = cfg.fx_types[FX_EXCHANGE], copy = cfg.fx_types[FX_COPY]
    cdef uint32_t stock = load_le32(s.res[o])     # the opponent's charcoalium (byte 0) and cubes (bytes 1..3)
    cdef bint exch_open = True          # the exchange test not made yet
    # the seven facts the other effects' tests read (FX_COND_*), then the types whose test passes: one lookup
    ok = cfg.fx_cond_types[
        (<uint32_t>(hand_after >= 1) << FX_COND_HAND_AFTER)
        | (<uint32_t>(n_after >= 2) << FX_COND_TWO_SLOTS)
        | (<uint32_t>((stock & 0xFFu) != 0) << FX_COND_OPP_COAL)
        | OPP_HAND_FACTS[ho & 7]
        | (<uint32_t>(stock > 0xFFu) << FX_COND_OPP_CUBES)
        | (<uint32_t>(s.pile_n > 0) << FX_COND_PILE)]
    if want & exch:
        exch_open = False
        if exchange_possible(cfg, s, seat):
            ok |= exch
    if want & copy:
        # a copier can do something when a machine it may copy can (copyable): the first one found decides, the
        # exchange test made only if an exchanger comes before it
        for i in range(n_after - 1):
            t = s.table[i]
            if (copy >> t) & 1:
                continue
            if exch_open and (exch >> t) & 1:
                exch_open = False
                if exchange_possible(cfg, s, seat):
                    ok |= exch
            if (ok >> t) & 1:
                ok |= copy
                break
    return ok


cdef uint32_t copyable(const NMConfig* cfg, const NMState* s, int seat, int n_after, int hand_after) noexcept nogil:
    """Types a copy effect may copy: machines of the bric-a-brac before the copying one (slots 0..n_after-2), not
    themselves copiers, whose effect is applicable now."""
    cdef uint32_t tt = table_types(s, n_after - 1) & ~cfg.fx_types[FX_COPY]
    return tt & applicable_types(cfg, s, seat, n_after, hand_after, tt)


# -- repairs ----------------------------------------------------------------------------------------------------

cdef inline void reductions(const NMConfig* cfg, const NMState* s, int seat, int* red) noexcept nogil:
    """red[r]: workshop machines producing r (index 4: jokers)."""
    cdef int i
    for i in range(5):
        red[i] = 0
    for i in range(s.ws_n[seat]):
        red[cfg.prod[s.ws[seat][i]]] += 1


cdef inline uint32_t repair_allocs(uint32_t c, uint32_t have, int jokers) noexcept nogil:
    """Joker allocations (bits over ALLOC) with which a machine whose cube cost is ``c`` after the workshop's
    reductions (one byte per cube: wood, copper, crystal) can be paid from the cubes ``have`` (the same packing)
    with ``jokers`` (> 0) joker producers in the workshop. Reductions apply in full: each machine producing a
    resource lowers that cost by one, and jokers are spread over the remaining cube costs (as many as can be
    used, at most 3; the payer chooses where): an allocation of that size giving at most c[r] jokers to each cube
    r and at least what the player lacks of it."""
    cdef uint32_t d = sub_sat_bytes(c, have), total = ((c * 0x010101u) >> 16) & 0xFFu
    cdef int use = jokers if <uint32_t>jokers < total else <int>total
    if use > 3:
        use = 3
    return (ALLOC_BY_SIZE[use] & ALLOC_MIN[1][d & 0xFFu] & ALLOC_MIN[2][(d >> 8) & 0xFFu] & ALLOC_MIN[3][d >> 16]
            & ALLOC_MAX[1][c & 0xFFu] & ALLOC_MAX[2][(c >> 8) & 0xFFu] & ALLOC_MAX[3][c >> 16])


cdef void do_repair(const NMConfig* cfg, NMState* s, int seat, int slot, int alloc) noexcept nogil:
    """Pay the cubes and the charcoalium (one on each machine after the target, reduction first from the right:
    the paid units lie on the machines just after the target), take the machine and its charcoalium, score it."""
    cdef int red[5]
    cdef int i, r, t = s.table[slot], pay, need_coal
    reductions(cfg, s, seat, red)
    for r in range(1, 4):
        pay = cfg.cost[t][r] - red[r] - ALLOC[alloc][r]
        if pay > 0:
            s.res[seat][r] -= pay
    need_coal = (s.table_n - 1 - slot) - red[COAL]
    for i in range(need_coal):
        s.table_coal[slot + 1 + i] += 1
        s.res[seat][COAL] -= 1
    s.res[seat][COAL] += s.table_coal[slot]
    remove_slot(s, slot)
    s.ws[seat][s.ws_n[seat]] = <uint8_t>t
    s.ws_n[seat] += 1
    s.score[seat] += cfg.vp[t]


# -- projects ---------------------------------------------------------------------------------------------------

cdef inline uint32_t available_projects(const NMState* s, int seat) noexcept nogil:
    return s.proj_public | s.proj_private[seat]


# The subsets of 3 older workshop machines (bitsets over the 8 subsets), by size.
cdef uint32_t SUBSETS_OF_SIZE[4]
SUBSETS_OF_SIZE[0] = 0x01
SUBSETS_OF_SIZE[1] = 0x16
SUBSETS_OF_SIZE[2] = 0x68
SUBSETS_OF_SIZE[3] = 0x80


# SUBSETS_VALID[strict][used][eq][nold]: the subsets (bits over the 8 subsets of 3 older workshop machines) a project
# may take, for ``nold`` older machines sorted by type, ``eq`` bit 0 when machines 0 and 1 are of one type and bit 1
# when machines 1 and 2 are, ``used`` the machines that counted this turn, ``strict`` when they may not count again:
# among machines of one type and one "counted" status, a subset takes the lowest positions first.
cdef uint8_t SUBSETS_VALID[2][8][4][4]


cdef void _init_subsets() noexcept:
    cdef int strict, used, eq, nold, i, j, sub
    cdef int w[3]
    cdef uint32_t dup[3]
    cdef uint32_t valid
    for strict in range(2):
        for used in range(8):
            for eq in range(4):
                w[0] = 0
                w[1] = w[0] if eq & 1 else w[0] + 1
                w[2] = w[1] if eq & 2 else w[1] + 1
                for nold in range(4):
                    for i in range(nold):
                        dup[i] = 0
                        for j in range(i):
                            if w[j] == w[i] and ((used >> j) & 1) == ((used >> i) & 1):
                                dup[i] |= 1u << j
                    valid = 0
                    for sub in range(1 << nold):
                        if strict and (sub & used):
                            continue
                        for i in range(nold):
                            if (sub >> i) & 1 and dup[i] & ~(<uint32_t>sub):
                                break
                        else:
                            valid |= 1u << sub
                    SUBSETS_VALID[strict][used][eq][nold] = <uint8_t>valid


_init_subsets()


cdef void project_options(const NMConfig* cfg, const NMState* s, int seat, uint64_t* words) noexcept nogil:
    """COMPLETE(p, subset): project p with the machine just repaired (the last of the workshop) and the older
    workshop machines of ``subset``, whose attributes (colours, VP or production zones) are exactly the project's
    requirements, or which are all of one type for PK_IDENTICAL.

    Among interchangeable older machines (same type, same "already counted this turn" status) a subset takes the
    lowest positions first, so that equivalent choices have one action. A set of machines meets a project when
    the sum of their ``attr_unit`` (one nibble per attribute value) equals the project's ``proj_key``, or for
    PK_IDENTICAL k times the repaired machine's type unit."""
    cdef int nold = s.ws_n[seat] - 1, p, k, sub, kind, eq
    cdef uint32_t avail = available_projects(s, seat), valid, subs, kinds_done = 0
    cdef uint64_t keys[4][8]
    cdef uint64_t target
    cdef const uint8_t* ws = s.ws[seat]
    if nold < 0:
        return
    # only the projects small enough for the workshop that ask for the repaired machine's attribute (make time)
    avail &= cfg.proj_fit[nold] & cfg.proj_accepts[ws[nold]]
    if not avail:
        return
    if cfg.sharing == SHARE_NONE and s.proj_count > 0:
        return
    # the subsets that take interchangeable machines lowest first (and, unless shared, none counted already): a
    # lookup on which neighbours of the sorted older machines are of one type and what counted this turn
    eq = 0
    if nold >= 2:
        eq = (ws[0] == ws[1]) | ((nold >= 3 and ws[1] == ws[2]) << 1)
    valid = SUBSETS_VALID[cfg.sharing != SHARE_ALL][s.proj_used & 7][eq][nold]
    while avail:
        p = lowest_bit(avail)
        avail &= avail - 1
        k = cfg.proj_size[p]
        subs = valid & SUBSETS_OF_SIZE[k - 1]
        if not subs:
            continue
        kind = cfg.proj_kind[p]
        if not (kinds_done >> kind) & 1:
            kinds_done |= 1u << kind
            keys[kind][0] = cfg.attr_unit[kind][ws[nold]]
            for sub in range(1, 1 << nold):
                keys[kind][sub] = keys[kind][sub & (sub - 1)] + cfg.attr_unit[kind][ws[lowest_bit(<uint64_t>sub)]]
        target = <uint64_t>k * cfg.attr_unit[PK_IDENTICAL][ws[nold]] if kind == PK_IDENTICAL else cfg.proj_key[p]
        while subs:
            sub = lowest_bit(subs)
            subs &= subs - 1
            if keys[kind][sub] == target:
                set_bit(words, cfg.a_complete + p * 8 + sub)


cdef void end_projects(const NMConfig* cfg, NMState* s, int seat) noexcept nogil:
    """Set aside the machines that counted for a project, then apply the workshop limit (4 or more machines: only
    the one repaired this turn stays), and sort what remains."""
    cdef int n = s.ws_n[seat], i, k = 0, newest = n - 1
    cdef uint8_t keep[WORKSHOP_MAX]
    if s.proj_used == 0 and n < WORKSHOP_MAX:
        # no project completed and room in the workshop (most repairs): the repaired machine only takes its place
        # among the older ones, sorted by type
        insert_sorted(s, seat, newest)
        s.proj_count = 0
        return
    for i in range(n):
        if (s.proj_used >> i) & 1:
            s.aside[seat][s.ws[seat][i]] += 1
        else:
            keep[k] = s.ws[seat][i]
            k += 1
    if k >= 4:
        for i in range(k - 1):
            s.aside[seat][keep[i]] += 1
        keep[0] = keep[k - 1]
        k = 1
    for i in range(WORKSHOP_MAX):
        s.ws[seat][i] = keep[i] if i < k else 0
    s.ws_n[seat] = k
    sort_workshop(s, seat, k)
    s.proj_used = 0
    s.proj_count = 0


# -- turn structure ---------------------------------------------------------------------------------------------

cdef void clear_context(NMState* s) noexcept nogil:
    s.ctx_played = NO_CARD
    s.ctx_card = NO_CARD
    s.ctx_target = NO_CARD
    s.ctx_qty = 0
    s.ctx_exch = 0
    s.proj_used = 0
    s.proj_count = 0


cdef inline void draw_cards(NMState* s, int seat, int k) noexcept nogil:
    """The top k machines of the deck to a hand (the deck's size kept in a local: a byte store through the state
    could change it, as far as the compiler knows, so it would be read again after every card)."""
    cdef int i, n = s.deck_n, t
    for i in range(k):
        n -= 1
        t = s.deck[n]
        s.deck[n] = 0
        s.hand[seat][t] += 1
    s.deck_n = <uint8_t>n


cdef inline void refill(NMState* s, int seat) noexcept nogil:
    """Complete the hand to 5 from the deck; too few cards left triggers the end (the player draws what is left)."""
    cdef int need = HAND_SIZE - hand_count(s, seat)
    if need <= 0:
        return
    if need > s.deck_n:
        s.end_trig = 1
        need = s.deck_n
    draw_cards(s, seat, need)


cdef inline void end_turn(const NMConfig* cfg, NMState* s) noexcept nogil:
    """Bric-a-brac overflow (10 machines: the top row is discarded, its charcoalium returns to the reserve, the
    bottom row moves up), end trigger at 20 points, and the end of the game after the second player's turn."""
    cdef int i
    clear_context(s)
    if s.table_n >= TABLE_SLOTS:
        for i in range(ROW):
            s.discard[s.table[i]] += 1
        for i in range(ROW):
            s.table[i] = s.table[i + ROW]
            s.table_coal[i] = s.table_coal[i + ROW]
            s.table[i + ROW] = 0
            s.table_coal[i + ROW] = 0
        s.table_n -= ROW
    if s.score[0] >= cfg.end_score or s.score[1] >= cfg.end_score:
        s.end_trig = 1
    s.turn += 1
    if s.end_trig and s.cur != s.first:
        s.phase = PH_OVER
        return
    s.cur = 1 - s.cur
    s.phase = PH_MAIN


cdef void finish_play(const NMConfig* cfg, NMState* s) noexcept nogil:
    refill(s, s.cur)
    end_turn(cfg, s)


cdef void steal_card(NMState* s, int thief) noexcept nogil:
    """A machine drawn at random from the opponent's hand goes to the thief (both seats see which)."""
    cdef int o = 1 - thief, n = hand_count(s, o), t
    if n == 0:
        return
    t = nth_in_hand(s, o, <int>rng_below(&s.rng, <uint32_t>n))
    s.hand[o][t] -= 1
    s.hand[thief][t] += 1
    seen_leaving(s, thief, t)
    s.known[o][t] += 1
    s.sure[o][t] += 1


cdef void start_effect(const NMConfig* cfg, NMState* s, int card) noexcept nogil:
    """Resolve the effect of ``card`` (the played machine, or the one a copier copies) for the current player:
    at once when it needs no decision, else by entering the phase that asks for it."""
    cdef int seat = s.cur, o = 1 - seat, fx = cfg.effect[card], n, i, t
    s.ctx_card = <uint8_t>card
    if fx == FX_PRODUCE:
        # the bric-a-brac machines of a type with this production (nm_slots_in: no branch per machine)
        n = popcount(nm_slots_in(s.table, cfg.prod_types[cfg.prod[card]], 0, s.table_n))
        if cfg.prod[card] == JOKER:
            s.ctx_qty = <uint8_t>n
            s.phase = PH_CHOOSE_RES
            return
        gain(cfg, s, seat, cfg.prod[card], n)
    elif fx == FX_DISCARD_HAND:
        s.phase = PH_DISCARD_HAND
        return
    elif fx == FX_DISCARD_BACK_3 or fx == FX_DISCARD_BACK_2:
        s.phase = PH_DISCARD_SLOT
        return
    elif fx == FX_DISCARD_PREVIOUS:
        discard_slot(cfg, s, s.table_n - 2)
        return
    elif fx == FX_EXCHANGE:
        s.ctx_exch = 0
        s.phase = PH_EXCHANGE
        return
    elif fx == FX_STEAL_COAL:
        if s.res[o][COAL] > 0:
            s.res[o][COAL] -= 1
            s.res[seat][COAL] += 1
        steal_card(s, seat)
    elif fx == FX_STEAL_RESOURCE:
        if cubes(s, o) > 0:
            s.phase = PH_STEAL
            return
        steal_card(s, seat)
    elif fx == FX_STRIP:
        n = hand_count(s, o)
        if n > 2:
            memset(s.sure[seat], 0, MAX_TYPES)  # a known machine may now be among the face-down discards
        while n > 2:
            t = nth_in_hand(s, o, <int>rng_below(&s.rng, <uint32_t>n))
            s.hand[o][t] -= 1
            s.hdisc[seat][t] += 1
            n -= 1
        s.res[o][COAL] -= 2 if s.res[o][COAL] >= 2 else s.res[o][COAL]
    elif fx == FX_RETURN:
        s.phase = PH_RETURN
        return
    elif fx == FX_PROJECT:
        s.pend_n = 2 if s.pile_n >= 2 else s.pile_n
        for i in range(s.pend_n):
            s.pile_n -= 1
            s.pend[i] = s.pile[s.pile_n]
            s.pile[s.pile_n] = 0
        s.phase = PH_KEEP
        return
    elif fx == FX_COPY:
        s.phase = PH_COPY
        return
    finish_play(cfg, s)


cdef void discard_slot(const NMConfig* cfg, NMState* s, int slot) noexcept nogil:
    """Discard a bric-a-brac machine for an effect (its charcoalium returns to the reserve); its repair cost is
    what the player takes cubes from."""
    cdef int t = s.table[slot], fx = cfg.effect[s.ctx_card]
    s.discard[t] += 1
    remove_slot(s, slot)
    s.ctx_target = <uint8_t>t
    if fx == FX_DISCARD_BACK_2:
        gain(cfg, s, s.cur, COAL, 1)
    s.phase = PH_TAKE_COST2 if fx == FX_DISCARD_PREVIOUS else PH_TAKE_COST1


# -- move generation --------------------------------------------------------------------------------------------

cdef void cost_pairs(const NMConfig* cfg, const uint8_t* have, int base_pair, int base_single,
                     uint64_t* words) noexcept nogil:
    """Two cubes out of ``have`` (counts at index 1..3): every pair it contains; if it holds a single cube, that
    one alone."""
    cdef int i, r, any_pair = 0
    for i in range(6):
        if PAIR_A[i] == PAIR_B[i]:
            if have[PAIR_A[i]] >= 2:
                set_bit(words, base_pair + i)
                any_pair = 1
        elif have[PAIR_A[i]] >= 1 and have[PAIR_B[i]] >= 1:
            set_bit(words, base_pair + i)
            any_pair = 1
    if not any_pair:
        for r in range(1, 4):
            if have[r] >= 1:
                set_bit(words, base_single + r - 1)


cdef uint64_t main_options(const NMConfig* cfg, const NMState* s, int seat, uint64_t* words) noexcept nogil:
    """PLAY (three uses of every type in hand, the effect when applicable), REPAIR (every slot and joker
    allocation the seat can pay), DRAW (stuck: no machine in hand and no repair). Returns the words it wrote
    (bit i for word i: the playout scans only those)."""
    cdef int i, a, lo, n = s.table_n, hn, jokers
    cdef uint64_t which = 1                    # PLAY: word 0
    cdef uint32_t present = hand_types_count(s, seat, &hn), ok, allocs
    cdef const uint32_t* row = NULL
    cdef const uint64_t* bits_lo
    cdef const uint64_t* bits_hi
    cdef uint64_t red = 0, play, eff
    cdef uint32_t slots = 0, pay, h6 = 0, c6, profile, have = 0
    cdef const uint8_t* cost6 = NULL
    cdef bint any_repair = False
    ok = applicable_types(cfg, s, seat, n + 1, hn - 1, present) & present
    play = SPREAD3[present & 0xFFu] | (SPREAD3[present >> 8] << 24)
    eff = SPREAD3[ok & 0xFFu] | (SPREAD3[ok >> 8] << 24)
    words[0] |= play | (play << USE_PRODUCE) | (eff << USE_EFFECT)     # PLAY starts at action 0 (make_core)
    # the workshop's reductions, one byte per resource (charcoalium, wood, copper, crystal, joker)
    for i in range(s.ws_n[seat]):
        red += cfg.prod_unit[s.ws[seat][i]]
    jokers = <int>((red >> 32) & 0xFFu)
    # the reduction profile of this workshop (at most 3 machines in PH_MAIN, nm_validate: 0..3 of each cube), and
    # the stock of cubes, clamped to 3 of each for the tables (pay_clamped), else packed one byte per cube
    profile = ((red >> 8) & 0x3u) | ((red >> 14) & 0xCu) | ((red >> 20) & 0x30u)
    if cfg.pay_clamped:
        h6 = CLAMP3[WOOD][s.res[seat][WOOD]] | CLAMP3[COPPER][s.res[seat][COPPER]] | CLAMP3[CRYSTAL][s.res[seat][CRYSTAL]]
    else:
        row = cfg.cost_after[profile]
        have = s.res[seat][WOOD] | (<uint32_t>s.res[seat][COPPER] << 8) | (<uint32_t>s.res[seat][CRYSTAL] << 16)
    # slot i costs a charcoalium per machine after it, less the workshop's charcoalium producers: the slots the
    # seat can pay for are lo..n-1
    lo = n - 1 - <int>(red & 0xFFu) - s.res[seat][COAL]
    if lo < 0:
        lo = 0
    if jokers == 0:
        # without jokers a repair is allocation 0 or nothing: the payable slots as a bitset first (from the types
        # this stock pays for, one lookup, when no cost needs more than 3 cubes of a kind)
        if cfg.pay_clamped:
            slots = nm_slots_in(s.table, cfg.payable[profile][h6], lo, n)
        else:
            for i in range(lo, n):
                slots |= (<uint32_t>bytes_cover(have, row[s.table[i]])) << i
        if slots:
            any_repair = True
            bits_lo = cfg.repair_bits[0][slots & 31u]
            bits_hi = cfg.repair_bits[1][slots >> 5]
            words[0] |= bits_lo[0] | bits_hi[0]
            words[1] |= bits_lo[1] | bits_hi[1]
            words[2] |= bits_lo[2] | bits_hi[2]
            words[3] |= bits_lo[3] | bits_hi[3]
            which |= cfg.repair_words[0][slots & 31u] | cfg.repair_words[1][slots >> 5]
    else:
        if cfg.pay_clamped:     # the allocations by table: the cost and the clamped stock as 6-bit indices
            cost6 = cfg.cost6[profile]
        for i in range(lo, n):
            if cfg.pay_clamped:
                c6 = cost6[s.table[i]]
                allocs = ALLOC_LACK6[SUB6[c6][h6]] & ALLOC_COST6[c6][jokers]
            else:
                allocs = repair_allocs(row[s.table[i]], have, jokers)
            if allocs:
                a = cfg.a_repair + i * NUM_ALLOCS
                or_bits(words, a, allocs)
                which |= ((<uint64_t>1) << (a >> 6)) | ((<uint64_t>1) << ((a + NUM_ALLOCS - 1) >> 6))
                any_repair = True
    if hn == 0 and not any_repair:
        set_bit(words, cfg.a_draw)
        which |= (<uint64_t>1) << (cfg.a_draw >> 6)
    return which


cdef void legal_into(const NMConfig* cfg, const NMState* s, int seat, uint64_t* words) noexcept nogil:
    """Sets the legal actions of the current player ``seat`` (phase not PH_OVER) in ``words``, touching only the
    words ``cfg.word_lo[phase] .. cfg.word_hi[phase] - 1`` (the families the phase answers with)."""
    cdef int i, lo, reach, o = 1 - seat, t
    cdef uint32_t m
    cdef int ph = s.phase
    if ph == PH_MAIN:
        main_options(cfg, s, seat, words)
    elif ph == PH_CHOOSE_RES:
        or_bits(words, cfg.a_take1, 7)
    elif ph == PH_TAKE_COST1:
        or_bits(words, cfg.a_take1, cfg.take1_bits[s.ctx_target])
    elif ph == PH_TAKE_COST2:
        t = s.ctx_target
        if cfg.take2_bits[t]:
            or_bits(words, cfg.a_take2, cfg.take2_bits[t])
        else:
            or_bits(words, cfg.a_take1, cfg.take2_single[t])
    elif ph == PH_DISCARD_HAND:
        or_bits(words, cfg.a_discard_hand, hand_types(s, seat))
    elif ph == PH_DISCARD_SLOT:
        reach = 3 if cfg.effect[s.ctx_card] == FX_DISCARD_BACK_3 else 2
        lo = s.table_n - 1 - reach
        if lo < 0:
            lo = 0
        for i in range(lo, s.table_n - 1):
            set_bit(words, cfg.a_discard_slot + i)
    elif ph == PH_EXCHANGE:
        or_bits(words, cfg.a_exchange, exchange_mask(cfg, s, seat))
        if s.ctx_exch > 0:
            set_bit(words, cfg.a_stop)
    elif ph == PH_STEAL:
        m = (<uint32_t>(s.res[o][WOOD] > 0) | (<uint32_t>(s.res[o][COPPER] > 0) << 1)
             | (<uint32_t>(s.res[o][CRYSTAL] > 0) << 2))
        or_bits(words, cfg.a_steal, m)
    elif ph == PH_RETURN:
        cost_pairs(cfg, s.res[o], cfg.a_return2, cfg.a_return1, words)
    elif ph == PH_KEEP:
        for i in range(s.pend_n):
            set_bit(words, cfg.a_keep + s.pend[i])
    elif ph == PH_COPY:
        or_bits(words, cfg.a_copy, copyable(cfg, s, seat, s.table_n, hand_count(s, seat)))
    elif ph == PH_PROJECTS:
        project_options(cfg, s, seat, words)
        set_bit(words, cfg.a_done)


cdef void nm_legal_mask(const void* c, const void* st, int seat, uint64_t* words) noexcept nogil:
    cdef const NMConfig* cfg = <const NMConfig*>c
    cdef const NMState* s = <const NMState*>st
    cdef int i
    if cfg.mask_words == 8:     # the default content's 473 actions: eight stores the compiler merges, not a loop
        words[0] = 0
        words[1] = 0
        words[2] = 0
        words[3] = 0
        words[4] = 0
        words[5] = 0
        words[6] = 0
        words[7] = 0
    else:
        for i in range(cfg.mask_words):
            words[i] = 0
    if seat != s.cur:
        return
    if s.phase == PH_MAIN:      # most calls: straight to it, without legal_into's frame and its jump on the phase
        main_options(cfg, s, seat, words)
    elif s.phase != PH_OVER:
        legal_into(cfg, s, seat, words)


# -- stepping ---------------------------------------------------------------------------------------------------

cdef inline void play_step(const NMConfig* cfg, NMState* s, int action) noexcept nogil:
    """``step`` for a PLAY action (most decisions: a function of its own keeps its frame small)."""
    cdef int seat = s.cur, t = PLAY_TYPE[action], kind = cfg.play_kind[action]     # PLAY is first: make_core
    s.hand[seat][t] -= 1
    seen_leaving(s, 1 - seat, t)
    s.table[s.table_n] = <uint8_t>t                         # (its charcoalium entry is zero already)
    s.table_n += 1
    s.ctx_played = <uint8_t>t
    s.ctx_card = <uint8_t>t
    # charcoalium and a production that is not a joker are one gain from a table (cfg.play_kind): one branch
    # where the use and the production zone, coin tosses in random play, took two or three
    if kind == PLAY_GAIN:
        gain(cfg, s, seat, cfg.play_res[action], cfg.play_qty[action])
        finish_play(cfg, s)
    elif kind == PLAY_JOKER:
        s.ctx_qty = 1
        s.phase = PH_CHOOSE_RES
    else:
        start_effect(cfg, s, t)


cdef void step(const NMConfig* cfg, NMState* s, int action) noexcept nogil:
    """Apply one legal action of the current player (no auto-resolution)."""
    cdef int seat = s.cur, o = 1 - seat, a, t, use, r, i, p, sub
    if action < cfg.a_repair:                                   # play a machine
        play_step(cfg, s, action)
    elif action < cfg.a_draw:                                   # repair
        a = action - cfg.a_repair
        do_repair(cfg, s, seat, a // NUM_ALLOCS, a % NUM_ALLOCS)
        s.proj_used = 0
        s.proj_count = 0
        s.phase = PH_PROJECTS
    elif action == cfg.a_draw:                                  # stuck: draw and pass
        refill(s, seat)
        end_turn(cfg, s)
    elif action < cfg.a_take2:                                  # take one resource type
        r = action - cfg.a_take1 + 1
        gain(cfg, s, seat, r, s.ctx_qty if s.phase == PH_CHOOSE_RES else 1)
        finish_play(cfg, s)
    elif action < cfg.a_steal:                                  # take two cubes of a cost
        i = action - cfg.a_take2
        gain(cfg, s, seat, PAIR_A[i], 1)
        gain(cfg, s, seat, PAIR_B[i], 1)
        finish_play(cfg, s)
    elif action < cfg.a_return1:                                # steal a resource, then a random machine
        r = action - cfg.a_steal + 1
        s.res[o][r] -= 1
        s.res[seat][r] += 1
        steal_card(s, seat)
        finish_play(cfg, s)
    elif action < cfg.a_return2:                                # the opponent returns one resource
        s.res[o][action - cfg.a_return1 + 1] -= 1
        finish_play(cfg, s)
    elif action < cfg.a_exchange:                               # the opponent returns two resources
        i = action - cfg.a_return2
        s.res[o][PAIR_A[i]] -= 1
        s.res[o][PAIR_B[i]] -= 1
        finish_play(cfg, s)
    elif action < cfg.a_stop:                                   # one exchange with the reserve
        i = action - cfg.a_exchange
        if i < 3:
            s.res[seat][COAL] -= 1
            gain(cfg, s, seat, i + 1, 1)
        else:
            s.res[seat][i - 2] -= 1
            gain(cfg, s, seat, COAL, 1)
        s.ctx_exch += 1
        if s.ctx_exch >= 3:
            finish_play(cfg, s)
    elif action == cfg.a_stop:
        finish_play(cfg, s)
    elif action < cfg.a_discard_slot:                           # P1: discard a machine from hand
        t = action - cfg.a_discard_hand
        s.hand[seat][t] -= 1
        seen_leaving(s, o, t)
        s.discard[t] += 1
        s.ctx_target = <uint8_t>t
        s.phase = PH_TAKE_COST2
    elif action < cfg.a_copy:                                   # P2/P3: discard an earlier machine
        discard_slot(cfg, s, action - cfg.a_discard_slot)
    elif action < cfg.a_keep:                                   # Y2: copy a machine's effect
        start_effect(cfg, s, action - cfg.a_copy)
    elif action < cfg.a_complete:                               # Y1: keep a drawn project
        p = action - cfg.a_keep
        s.proj_private[seat] |= 1u << p
        for i in range(s.pend_n):
            if s.pend[i] != p:
                s.proj_removed[seat] |= 1u << s.pend[i]
            s.pend[i] = 0
        s.pend_n = 0
        finish_play(cfg, s)
    elif action < cfg.a_done:                                   # complete a project
        a = action - cfg.a_complete
        p = a // 8
        sub = a % 8
        s.proj_done[seat] |= 1u << p
        s.proj_public &= ~(1u << p)
        s.proj_private[seat] &= ~(1u << p)
        s.score[seat] += cfg.proj_vp[p]
        s.proj_used |= <uint8_t>(sub | (1 << (s.ws_n[seat] - 1)))
        s.proj_count += 1
    else:                                                       # done with projects
        end_projects(cfg, s, seat)
        end_turn(cfg, s)


cdef int single_option(const NMConfig* cfg, const NMState* s) noexcept nogil:
    """The only legal action of the current player, or -1 when there are none or several. A phase of at most four
    words (every phase of the default content) is cleared by four stores and its actions counted at once, the one
    action found without a branch; wider ones take the loop."""
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint64_t w0, w1, w2, w3
    cdef int i, j, n, found = -1, lo = cfg.word_lo[s.phase], hi = cfg.word_hi[s.phase]
    if hi - lo <= 4 and lo + 4 <= MAX_MASK_WORDS:
        words[lo] = 0
        words[lo + 1] = 0
        words[lo + 2] = 0
        words[lo + 3] = 0
        legal_into(cfg, s, s.cur, words)
        w0 = words[lo]
        w1 = words[lo + 1]
        w2 = words[lo + 2]
        w3 = words[lo + 3]
        n = popcount(w0) + popcount(w1) + popcount(w2) + popcount(w3)
        # with a single action, its word is the first non-zero one
        j = (w0 == 0) + ((w0 | w1) == 0) + ((w0 | w1 | w2) == 0)
        found = ((lo + j) << 6) | lowest_bit(words[lo + j] | ((<uint64_t>1) << 63))
        return found if n == 1 else -1
    for i in range(lo, hi):
        words[i] = 0
    legal_into(cfg, s, s.cur, words)
    for i in range(lo, hi):
        if words[i]:
            if found >= 0 or popcount(words[i]) != 1:
                return -1
            found = (i << 6) | lowest_bit(words[i])
    return found


cdef bint answer_is_public(const NMState* s) noexcept nogil:
    """May the engine answer the current sub-prompt by itself when it has a single legal answer? Only when every
    seat could name that answer from what it sees. The opponent sees the phase and who acts, so an engine that
    skips a prompt whose options come from hidden cards tells it something about them (P1 with a hand of one
    type skipped, of two types asked: the opponent learns the hand is all one type), and an answer made inside
    another action reveals hidden cards without an action of their own.

    Audit of the prompts: the options of a joker gain (always three), of taking cubes of a discarded machine's
    cost (the machine is public once discarded), of a discard from the bric-a-brac, of an exchange (stocks, the
    reserve), of a steal or a return (the opponent's stock), of a copy (the bric-a-brac, stocks, hand sizes,
    the pile size) and of completing projects (workshops, public and face-up private projects) are public. Two
    are not, and are always asked, even with one answer: P1's discard from the hand (the machine types of a
    hidden hand) and Y1's kept project (the tiles drawn face down; a single one when the pile held one)."""
    return s.phase != PH_DISCARD_HAND and s.phase != PH_KEEP


cdef void auto_resolve(const NMConfig* cfg, NMState* s) noexcept nogil:
    """Answer every sub-prompt that has a single legal answer every seat could name (``answer_is_public``); the
    main action is always asked."""
    cdef int a
    while s.phase != PH_MAIN and s.phase != PH_OVER:
        if not answer_is_public(s):
            return
        a = single_option(cfg, s)
        if a < 0:
            return
        step(cfg, s, a)


# -- set-up -----------------------------------------------------------------------------------------------------

cdef inline void shuffle_bytes(uint64_t* rng, uint8_t* a, int n) noexcept nogil:
    """``rng_shuffle_u8`` (the same draws, the same order) with the counter in a local: the swaps store bytes,
    which as far as the compiler knows could change the counter in the state, so it would be loaded and stored
    again at every draw."""
    cdef uint64_t r = rng[0]
    rng_shuffle_u8(&r, a, n)
    rng[0] = r


cdef void nm_init(const void* c, void* st, uint64_t seed) noexcept nogil:
    cdef const NMConfig* cfg = <const NMConfig*>c
    cdef NMState* s = <NMState*>st
    cdef int n, p, second, r
    memset(s, 0, sizeof(NMState))
    s.rng = rng_seed(seed)
    memcpy(s.deck, cfg.deck0, MAX_CARDS)      # every copy of every type, by type, before the shuffle
    n = cfg.num_cards
    shuffle_bytes(&s.rng, s.deck, n)
    s.deck_n = <uint8_t>n
    # one machine face up on the first slot, five to each player
    s.deck_n -= 1
    s.table[0] = s.deck[s.deck_n]
    s.deck[s.deck_n] = 0
    s.table_n = 1
    draw_cards(s, 0, HAND_SIZE)
    draw_cards(s, 1, HAND_SIZE)
    # the projects: shuffled face down, the top ones revealed
    for p in range(cfg.num_projects):
        s.pile[p] = <uint8_t>p
    shuffle_bytes(&s.rng, s.pile, cfg.num_projects)
    s.pile_n = cfg.num_projects
    for p in range(cfg.public_projects):
        s.pile_n -= 1
        s.proj_public |= 1u << s.pile[s.pile_n]
        s.pile[s.pile_n] = 0
    s.first = cfg.first_player if cfg.first_player != NO_CARD else <uint8_t>rng_below(&s.rng, 2)
    second = 1 - s.first
    for r in range(4):
        s.res[s.first][r] = cfg.start[0][r]
        s.res[second][r] = cfg.start[1][r]
    s.cur = s.first
    s.phase = PH_MAIN
    clear_context(s)


# -- the engine contract ----------------------------------------------------------------------------------------

cdef uint32_t nm_actors(const void* c, const void* st) noexcept nogil:
    cdef const NMState* s = <const NMState*>st
    if s.phase == PH_OVER:
        return 0
    return (<uint32_t>1) << s.cur


cdef void nm_apply(const void* c, void* st, int seat, int action) noexcept nogil:
    cdef const NMConfig* cfg = <const NMConfig*>c
    cdef NMState* s = <NMState*>st
    step(cfg, s, action)
    auto_resolve(cfg, s)


cdef void nm_scores(const void* c, const void* st, int32_t* out) noexcept nogil:
    cdef const NMState* s = <const NMState*>st
    out[0] = s.score[0]
    out[1] = s.score[1]


cdef void nm_rank_keys(const void* c, const void* st, int64_t* out) noexcept nogil:
    """Score, then charcoalium, then resources (wood + copper + crystal); equal keys share the victory."""
    cdef const NMState* s = <const NMState*>st
    cdef int p
    for p in range(NUM_SEATS):
        out[p] = (<int64_t>s.score[p] << 20) | (<int64_t>s.res[p][COAL] << 10) | cubes(s, p)


cdef inline int phase_mask(const NMConfig* cfg, const NMState* s, uint64_t* words, uint8_t* nonzero) noexcept nogil:
    """The current player's legal actions in the words of the phase (cleared, filled, listed for the draw): their
    number."""
    cdef int i, lo, hi
    if s.phase == PH_MAIN:      # most decisions: straight to it, without legal_into's dispatch and frame, in words
        words[0] = 0            # 0..3 (make_core checks it), and only the words written are listed
        words[1] = 0
        words[2] = 0
        words[3] = 0
        return list_nonzero_words_in(words, main_options(cfg, s, s.cur, words), nonzero)
    lo = cfg.word_lo[s.phase]
    hi = cfg.word_hi[s.phase]
    if hi - lo <= 4:            # every phase of the default content; ``words`` has MAX_MASK_WORDS entries
        words[lo] = 0
        words[lo + 1] = 0
        words[lo + 2] = 0
        words[lo + 3] = 0
    else:
        for i in range(lo, hi):
            words[i] = 0
    if s.phase == PH_PROJECTS:  # after each repair: its own frame (project_options), not legal_into's for all
        project_options(cfg, s, s.cur, words)
        set_bit(words, cfg.a_done)
    else:
        legal_into(cfg, s, s.cur, words)
    return list_nonzero_words(words, lo, hi, nonzero)


cdef int64_t nm_playout(const void* c, void* st, uint64_t* rng, int64_t max_len) noexcept nogil:
    """``random_playout_loop`` with ``nm_apply`` for Nicodemus: the same draws (k below the number of legal actions
    of the seat to act, the k-th of them in id order) and the same automatic answers, with only the mask words of
    the phase's families cleared, filled and scanned (``legal_into`` writes nowhere else; Nicodemus has 8 mask
    words, a phase uses 1 to 4), and the mask that ``auto_resolve`` computes for a sub-prompt it cannot answer
    kept for the draw instead of computed again."""
    cdef const NMConfig* cfg = <const NMConfig*>c
    cdef NMState* s = <NMState*>st
    cdef uint64_t words[MAX_MASK_WORDS]
    cdef uint8_t nonzero[MAX_MASK_WORDS]
    cdef int count = 0, a
    cdef bint have_mask = False
    cdef int64_t n = 0
    cdef uint64_t r = rng[0]    # the playout's counter in a local (stores into the state cannot touch it)
    if s.phase == PH_OVER:
        return 0
    while True:
        # the phase asks the current player (not PH_OVER); the mask is in ``words`` when have_mask
        if not have_mask:
            count = phase_mask(cfg, s, words, nonzero)
        if n >= max_len or count == 0:
            rng[0] = r
            return PLAYOUT_TOO_LONG
        a = draw_listed_action(words, nonzero, count, &r)
        if a < cfg.a_repair:
            play_step(cfg, s, a)
        else:
            step(cfg, s, a)
        n += 1
        # auto_resolve (most plays end the turn: the next phase is the main one at once)
        have_mask = False
        while s.phase != PH_MAIN:
            if s.phase == PH_OVER:
                rng[0] = r
                return n
            if not answer_is_public(s):
                break
            count = phase_mask(cfg, s, words, nonzero)
            if count != 1:
                have_mask = True
                break
            step(cfg, s, (nonzero[0] << 6) | lowest_bit(words[nonzero[0]]))


cdef int nm_validate(const void* c, const void* st) noexcept nogil:
    """0 when every invariant the engine relies on holds, else the number of the first broken one."""
    cdef const NMConfig* cfg = <const NMConfig*>c
    cdef const NMState* s = <const NMState*>st
    cdef int T = cfg.num_types, P = cfg.num_projects, t, p, i, r, n, total, seat, o, coal_on_table
    cdef uint8_t placed[MAX_TYPES]             # machines per type in the deck, on the bric-a-brac, in workshops
    cdef uint32_t allp = (<uint32_t>0xFFFFFFFF) >> (32 - P), seen, bits
    cdef uint64_t words[MAX_MASK_WORDS]
    # ranges of every index and counter
    if s.phase >= NUM_PHASES or s.cur > 1 or s.first > 1 or s.end_trig > 1:
        return 1
    if s.deck_n > cfg.num_cards or s.table_n > TABLE_SLOTS or s.pile_n > P or s.pend_n > 2:
        return 2
    if s.ws_n[0] > WORKSHOP_MAX or s.ws_n[1] > WORKSHOP_MAX:
        return 2
    # every turn takes an action, and a game takes at most Nicodemus.max_game_length of them: a uint16 count past
    # that came from no game (65535 wrapped to 0 at the next turn)
    if s.turn > 8 * cfg.num_cards + cfg.num_projects + 3:
        return 2
    # the machines of the deck, the bric-a-brac and the workshops per type (at most 64 + 10 + 8: no byte overflows)
    memset(placed, 0, MAX_TYPES)
    for i in range(s.deck_n):
        t = s.deck[i]
        if t >= T:
            return 3
        placed[t] += 1
    for i in range(s.table_n):
        t = s.table[i]
        if t >= T:
            return 3
        placed[t] += 1
    for seat in range(NUM_SEATS):
        for i in range(s.ws_n[seat]):
            t = s.ws[seat][i]
            if t >= T:
                return 3
            placed[t] += 1
    if T < MAX_TYPES:
        bits = ~((1u << T) - 1)
        for seat in range(NUM_SEATS):
            if (nonzero16(s.hand[seat]) | nonzero16(s.known[seat]) | nonzero16(s.sure[seat])
                    | nonzero16(s.hdisc[seat]) | nonzero16(s.aside[seat])) & bits:
                return 3
        if nonzero16(s.discard) & bits:
            return 3
    # every machine in exactly one place: per type, the counts of every place add up to its copies (cfg.copies is
    # zero past num_types, as every count there now is)
    if not nm_sum_eq16(&s.hand[0][0], &s.hdisc[0][0], &s.aside[0][0], s.discard, placed, cfg.copies):
        return 4
    for seat in range(NUM_SEATS):
        if nm_hand_size(s.hand[seat]) > HAND_SIZE:
            return 5
        o = 1 - seat
        # known[seat] <= hand[o] + hdisc[seat]; sure[seat] <= known[seat] and <= hand[o]
        if not nm_le_sum16(s.known[seat], s.hand[o], s.hdisc[seat]):
            return 6
        if not nm_le_sum16(s.sure[seat], s.known[seat], ZERO16) or not nm_le_sum16(s.sure[seat], s.hand[o], ZERO16):
            return 6
    # resources: nothing is created
    coal_on_table = 0
    for i in range(s.table_n):
        coal_on_table += s.table_coal[i]
    for r in range(4):
        total = s.res[0][r] + s.res[1][r] + (coal_on_table if r == COAL else 0)
        if total > cfg.supply[r]:
            return 7
    # every project in exactly one place
    seen = 0
    total = 0
    for i in range(s.pile_n):
        if s.pile[i] >= P:
            return 8
        seen |= 1u << s.pile[i]
        total += 1
    for i in range(s.pend_n):
        if s.pend[i] >= P:
            return 8
        seen |= 1u << s.pend[i]
        total += 1
    bits = s.proj_public
    total += popcount(bits)
    seen |= bits
    for seat in range(NUM_SEATS):
        seen |= s.proj_private[seat] | s.proj_done[seat] | s.proj_removed[seat]
        total += popcount(s.proj_private[seat]) + popcount(s.proj_done[seat]) + popcount(s.proj_removed[seat])
    if seen != allp or total != P:
        return 8
    # unused array entries are zero (one byte string per position)
    # (the non-zero bytes as bitsets, 16 bytes at a time: reads past an array stay inside the struct)
    if s.deck_n < MAX_CARDS and (nonzero16(s.deck) | (<uint64_t>nonzero16(s.deck + 16) << 16)
                                 | (<uint64_t>nonzero16(s.deck + 32) << 32)
                                 | (<uint64_t>nonzero16(s.deck + 48) << 48)) >> s.deck_n:
        return 8
    if ((nonzero16(s.table) | nonzero16(s.table_coal)) & 0x3FFu) >> s.table_n:
        return 8
    if (nonzero16(s.pile) | (nonzero16(s.pile + 8) << 8)) >> s.pile_n:
        return 8
    if (s.pend_n < 1 and s.pend[0]) or (s.pend_n < 2 and s.pend[1]):
        return 8
    bits = nonzero16(&s.ws[0][0])
    if ((bits & 0xFu) >> s.ws_n[0]) or (((bits >> 4) & 0xFu) >> s.ws_n[1]):
        return 8
    for seat in range(NUM_SEATS):
        if s.score[seat] != seat_score(cfg, s, seat):
            return 9
    # the turn's context
    if s.ctx_exch > 3 or s.proj_count > P:
        return 10
    if (s.ctx_played != NO_CARD and s.ctx_played >= T) or (s.ctx_card != NO_CARD and s.ctx_card >= T) \
            or (s.ctx_target != NO_CARD and s.ctx_target >= T):
        return 10
    if s.pend_n and s.phase != PH_KEEP:
        return 11
    # workshops are kept sorted by type (the end of a turn slides the repaired machine into place and touches no
    # other workshop): both between turns and while a machine is resolved, the non-acting seat's during the
    # projects after a repair, and there the acting seat's but for its last machine, the one just repaired
    for seat in range(NUM_SEATS):
        n = s.ws_n[seat] - (s.phase == PH_PROJECTS and seat == s.cur)
        for i in range(1, n):
            if s.ws[seat][i - 1] > s.ws[seat][i]:
                return 12
    # the end is triggered at the end of a turn, which then passes to the second player or ends the game: no turn
    # of the first player begins once it is triggered
    if s.phase != PH_OVER and s.end_trig and s.cur == s.first:
        return 13
    if s.phase == PH_MAIN or s.phase == PH_OVER:
        if (s.ctx_played != NO_CARD or s.ctx_card != NO_CARD or s.ctx_target != NO_CARD or s.ctx_qty
                or s.ctx_exch or s.proj_used or s.proj_count):
            return 11
        if s.table_n >= TABLE_SLOTS or s.ws_n[0] >= WORKSHOP_MAX or s.ws_n[1] >= WORKSHOP_MAX:
            return 12
        if s.phase == PH_OVER:
            return 0
        if (s.score[0] >= cfg.end_score or s.score[1] >= cfg.end_score) and not s.end_trig:
            return 13
    elif s.phase == PH_PROJECTS:
        seat = s.cur
        n = s.ws_n[seat]
        if n < 1 or s.ctx_played != NO_CARD or s.ctx_card != NO_CARD or s.ctx_target != NO_CARD:
            return 14
        if s.proj_used >> n or (s.proj_count == 0) != (s.proj_used == 0) or s.table_n >= TABLE_SLOTS:
            return 14
        if s.proj_count and not (s.proj_used >> (n - 1)) & 1:
            return 14
        if s.ws_n[1 - seat] >= WORKSHOP_MAX:
            return 14
    else:
        # resolving a played machine: it is the last of the bric-a-brac
        if s.ctx_played == NO_CARD or s.ctx_card == NO_CARD or s.table_n < 1:
            return 15
        if s.table[s.table_n - 1] != s.ctx_played or s.ws_n[0] >= WORKSHOP_MAX or s.ws_n[1] >= WORKSHOP_MAX:
            return 15
        # the machine came from the acting seat's hand, refilled only when the turn ends: a steal (R1, R2) that
        # gives it one more machine leaves it at most 5
        if nm_hand_size(s.hand[s.cur]) >= HAND_SIZE:
            return 15
        if s.ctx_card != s.ctx_played and cfg.effect[s.ctx_played] != FX_COPY:
            return 15
        if s.phase == PH_CHOOSE_RES and cfg.prod[s.ctx_card] != JOKER:
            return 16
        if (s.phase == PH_TAKE_COST1 or s.phase == PH_TAKE_COST2) and s.ctx_target == NO_CARD:
            return 16
        if s.phase == PH_DISCARD_HAND and cfg.effect[s.ctx_card] != FX_DISCARD_HAND:
            return 16
        if s.phase == PH_DISCARD_SLOT and cfg.effect[s.ctx_card] != FX_DISCARD_BACK_3 \
                and cfg.effect[s.ctx_card] != FX_DISCARD_BACK_2:
            return 16
        if s.phase == PH_EXCHANGE and (cfg.effect[s.ctx_card] != FX_EXCHANGE or s.ctx_exch >= 3):
            return 16
        if s.phase == PH_STEAL and cfg.effect[s.ctx_card] != FX_STEAL_RESOURCE:
            return 16
        if s.phase == PH_RETURN and cfg.effect[s.ctx_card] != FX_RETURN:
            return 16
        if s.phase == PH_KEEP and (cfg.effect[s.ctx_card] != FX_PROJECT or s.pend_n == 0):
            return 16
        if s.phase == PH_COPY and (cfg.effect[s.ctx_card] != FX_COPY or s.ctx_card != s.ctx_played):
            return 16
    # the seat to act has something to do (legal_into writes the words of the phase only)
    for i in range(cfg.word_lo[s.phase], cfg.word_hi[s.phase]):
        words[i] = 0
    legal_into(cfg, s, s.cur, words)
    for i in range(cfg.word_lo[s.phase], cfg.word_hi[s.phase]):
        if words[i]:
            return 0
    return 17


# -- building a config ------------------------------------------------------------------------------------------

cdef EngineSpec SPEC
SPEC.state_size = sizeof(NMState)
SPEC.num_seats = NUM_SEATS
SPEC.init = nm_init
SPEC.actors = nm_actors
SPEC.legal_mask = nm_legal_mask
SPEC.apply = nm_apply
SPEC.scores = nm_scores
SPEC.rank_keys = nm_rank_keys
SPEC.validate = nm_validate
SPEC.playout = nm_playout


STATE_SIZE = sizeof(NMState)
NUM_JOKER_ALLOCS = NUM_ALLOCS
#: joker reductions (wood, copper, crystal) of each allocation index
ALLOCS = [(ALLOC[a][1], ALLOC[a][2], ALLOC[a][3]) for a in range(NUM_ALLOCS)]
#: the two resources (1 wood, 2 copper, 3 crystal) of each pair index
PAIRS = [(PAIR_A[i], PAIR_B[i]) for i in range(6)]
PHASE_NAMES = ("main", "choose_resource", "take_cost_1", "take_cost_2", "discard_hand", "discard_slot",
               "exchange", "steal", "return", "keep_project", "copy", "projects", "over")

_FAMILIES = (
    ("play", 3), ("repair", TABLE_SLOTS * NUM_ALLOCS), ("draw", 1), ("take1", 3), ("take2", 6), ("steal", 3),
    ("return1", 3), ("return2", 6), ("exchange", 6), ("stop", 1), ("discard_hand", 1), ("discard_slot", TABLE_SLOTS),
    ("copy", 1), ("keep", 1), ("complete", 8), ("done", 1),
)


def action_layout(int num_types, int num_projects) -> dict:
    """First id and count of each action family for this content (ids are dense and fixed per content)."""
    out = {}
    base = 0
    for name, size in _FAMILIES:
        if name in ("play",):
            n = size * num_types
        elif name in ("discard_hand", "copy"):
            n = num_types
        elif name in ("keep",):
            n = num_projects
        elif name == "complete":
            n = 8 * num_projects
        else:
            n = size
        out[name] = (base, n)
        base += n
    out["num_actions"] = base
    return out


# The families each phase answers with (legal_into writes only the mask words they occupy).
_PHASE_FAMILIES = {
    PH_MAIN: ("play", "repair", "draw"), PH_CHOOSE_RES: ("take1",), PH_TAKE_COST1: ("take1",),
    PH_TAKE_COST2: ("take1", "take2"), PH_DISCARD_HAND: ("discard_hand",), PH_DISCARD_SLOT: ("discard_slot",),
    PH_EXCHANGE: ("exchange", "stop"), PH_STEAL: ("steal",), PH_RETURN: ("return1", "return2"),
    PH_KEEP: ("keep",), PH_COPY: ("copy",), PH_PROJECTS: ("complete", "done"), PH_OVER: (),
}


cdef _move_tables(NMConfig* cfg, dict layout):
    """The tables move generation reads, derived from the content and the action layout."""
    cdef int t, r, i, ph, p, pairs, n, k, half
    cdef uint32_t c
    if cfg.a_play != 0 or 3 * cfg.num_types > 64:
        raise RuntimeError("PLAY must be the first action family and fit one mask word")
    for i in range(NUM_EFFECTS):
        cfg.fx_types[i] = 0
    for i in range(JOKER + 1):
        cfg.prod_types[i] = 0
    for t in range(cfg.num_types):
        cfg.prod_types[cfg.prod[t]] |= 1u << t
        cfg.prod_unit[t] = (<uint64_t>1) << (8 * cfg.prod[t])
        cfg.play_kind[3 * t + USE_COAL] = PLAY_GAIN
        cfg.play_res[3 * t + USE_COAL] = COAL
        cfg.play_qty[3 * t + USE_COAL] = cfg.vp[t]
        cfg.play_kind[3 * t + USE_PRODUCE] = PLAY_JOKER if cfg.prod[t] == JOKER else PLAY_GAIN
        cfg.play_res[3 * t + USE_PRODUCE] = 0 if cfg.prod[t] == JOKER else cfg.prod[t]
        cfg.play_qty[3 * t + USE_PRODUCE] = 0 if cfg.prod[t] == JOKER else 1
        cfg.play_kind[3 * t + USE_EFFECT] = PLAY_EFFECT
        cfg.play_res[3 * t + USE_EFFECT] = 0
        cfg.play_qty[3 * t + USE_EFFECT] = 0
        cfg.fx_types[cfg.effect[t]] |= 1u << t
        cfg.cost_cubes[t] = cfg.cost[t][1] | (<uint32_t>cfg.cost[t][2] << 8) | (<uint32_t>cfg.cost[t][3] << 16)
        cfg.take1_bits[t] = 0
        for r in range(1, 4):
            if cfg.cost[t][r]:
                cfg.take1_bits[t] |= 1 << (r - 1)
        # two cubes of the cost: every pair it holds, else its single cubes (the cost holds at least one)
        pairs = 0
        for i in range(6):
            if (cfg.cost[t][PAIR_A[i]] >= 2 if PAIR_A[i] == PAIR_B[i]
                    else cfg.cost[t][PAIR_A[i]] >= 1 and cfg.cost[t][PAIR_B[i]] >= 1):
                pairs |= 1 << i
        cfg.take2_bits[t] = pairs
        cfg.take2_single[t] = 0 if pairs else cfg.take1_bits[t]
        for i in range(64):
            cfg.cost_after[i][t] = sub_sat_bytes(cfg.cost_cubes[t], (i & 3) | (((i >> 2) & 3) << 8) | ((i >> 4) << 16))
        cfg.attr_unit[PK_COLOUR][t] = (<uint64_t>1) << (4 * cfg.colour[t])
        cfg.attr_unit[PK_VP][t] = (<uint64_t>1) << (4 * cfg.vp[t])
        cfg.attr_unit[PK_PRODUCTION][t] = (<uint64_t>1) << (4 * cfg.prod[t])
        cfg.attr_unit[PK_IDENTICAL][t] = (<uint64_t>1) << (4 * t)
    # the types whose effect test passes, for every combination of the facts the tests read (RULES.md,
    # "Applicable"; the exchange and the copy are decided apart, in applicable_types)
    for i in range(128):
        cfg.fx_cond_types[i] = cfg.fx_types[FX_PRODUCE]
        if (i >> FX_COND_HAND_AFTER) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_DISCARD_HAND]
        if (i >> FX_COND_TWO_SLOTS) & 1:
            cfg.fx_cond_types[i] |= (cfg.fx_types[FX_DISCARD_BACK_3] | cfg.fx_types[FX_DISCARD_BACK_2]
                                     | cfg.fx_types[FX_DISCARD_PREVIOUS])
        if (i >> FX_COND_OPP_COAL) & 1 or (i >> FX_COND_OPP_HAND) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_STEAL_COAL]
        if (i >> FX_COND_OPP_CUBES) & 1 or (i >> FX_COND_OPP_HAND) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_STEAL_RESOURCE]
        if (i >> FX_COND_OPP_HAND_3) & 1 or (i >> FX_COND_OPP_COAL) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_STRIP]
        if (i >> FX_COND_OPP_CUBES) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_RETURN]
        if (i >> FX_COND_PILE) & 1:
            cfg.fx_cond_types[i] |= cfg.fx_types[FX_PROJECT]
    # the main phase without jokers: the types a (clamped) stock pays for, per reduction profile, and the mask bits
    # of repairing sets of slots with allocation 0
    cfg.pay_clamped = 1
    for t in range(cfg.num_types):
        if cfg.cost[t][1] > 3 or cfg.cost[t][2] > 3 or cfg.cost[t][3] > 3:
            cfg.pay_clamped = 0
    for i in range(64):
        for k in range(64):
            cfg.payable[i][k] = 0
            for t in range(cfg.num_types):
                if bytes_cover((k & 3) | (((k >> 2) & 3) << 8) | ((k >> 4) << 16), cfg.cost_after[i][t]):
                    cfg.payable[i][k] |= 1 << t
    for i in range(64):
        for t in range(MAX_TYPES):
            c = cfg.cost_after[i][t]
            cfg.cost6[i][t] = ((c & 3) | (((c >> 8) & 3) << 2) | (((c >> 16) & 3) << 4)) if cfg.pay_clamped else 0
    if cfg.a_draw >= 4 * 64:
        raise RuntimeError("the main phase's actions must lie in the first four mask words")
    for half in range(2):
        for k in range(32):
            cfg.repair_words[half][k] = 0
            for i in range(4):
                cfg.repair_bits[half][k][i] = 0
            for i in range(5):
                if (k >> i) & 1:
                    r = cfg.a_repair + (5 * half + i) * NUM_ALLOCS
                    cfg.repair_bits[half][k][r >> 6] |= (<uint64_t>1) << (r & 63)
                    cfg.repair_words[half][k] |= 1 << (r >> 6)
    for p in range(cfg.num_projects):
        cfg.proj_key[p] = 0
        for i in range(cfg.proj_size[p]):
            cfg.proj_key[p] += (<uint64_t>1) << (4 * cfg.proj_req[p][i])
    # project_options' filter: the projects a workshop of i + 1 machines can fill, and those the repaired machine
    # can count for (its attribute is one the project asks for; any machine for PK_IDENTICAL)
    for i in range(WORKSHOP_MAX):
        cfg.proj_fit[i] = 0
        for p in range(cfg.num_projects):
            if cfg.proj_size[p] - 1 <= i:
                cfg.proj_fit[i] |= 1u << p
    for t in range(MAX_TYPES):
        cfg.proj_accepts[t] = 0
        for p in range(cfg.num_projects):
            if t >= cfg.num_types or cfg.proj_kind[p] == PK_IDENTICAL \
                    or cfg.proj_key[p] & (cfg.attr_unit[cfg.proj_kind[p]][t] * 0xFu):
                cfg.proj_accepts[t] |= 1u << p
    n = 0
    for i in range(MAX_CARDS):
        cfg.deck0[i] = 0
    for t in range(cfg.num_types):
        for i in range(cfg.copies[t]):
            cfg.deck0[n] = t
            n += 1
    for ph in range(NUM_PHASES):
        ids = [a for name in _PHASE_FAMILIES[ph] for a in range(layout[name][0], layout[name][0] + layout[name][1])]
        cfg.word_lo[ph] = (min(ids) >> 6) if ids else 0
        cfg.word_hi[ph] = ((max(ids) >> 6) + 1) if ids else 0


def make_core(machines, projects, supply, start, int public_projects, int sharing, int first_player,
              int end_score) -> GameCore:
    """Compile content and parameters (already validated by the Python layer) into a bound GameCore.

    ``machines``: (colour, vp, (wood, copper, crystal), production, effect, copies) per type;
    ``projects``: (vp, kind, requirement list) per project; ``supply``: 4 counts; ``start``: resources of the
    first and the second player (4 counts each); ``first_player``: 0, 1 or -1 (at random).
    """
    cdef NMConfig cfg
    cdef EngineSpec spec = SPEC
    cdef int t, p, i, n_cards = 0
    memset(&cfg, 0, sizeof(NMConfig))
    if not 1 <= len(machines) <= MAX_TYPES or not 1 <= len(projects) <= MAX_PROJECTS:
        raise ValueError("content has the wrong shape")
    for t, (colour, vp, cost, prod, effect, copies) in enumerate(machines):
        if not (0 <= colour < 4 and 0 <= vp <= 15 and 0 <= prod <= JOKER and 0 <= effect < NUM_EFFECTS
                and 0 <= copies <= MAX_CARDS and len(cost) == 3):
            raise ValueError(f"machine {t} is out of range")
        if not all(0 <= x <= 9 for x in cost) or sum(cost) < 1:
            raise ValueError(f"machine {t} must cost 1 to 27 cubes")
        cfg.colour[t] = colour
        cfg.vp[t] = vp
        for i in range(3):
            cfg.cost[t][i + 1] = cost[i]
        cfg.prod[t] = prod
        cfg.effect[t] = effect
        cfg.copies[t] = copies
        n_cards += copies
    if not 1 + 2 * HAND_SIZE <= n_cards <= MAX_CARDS:
        raise ValueError("the deck must hold 11 to 64 machines")
    for p, (vp, kind, req) in enumerate(projects):
        if not (0 <= vp <= 30 and 0 <= kind <= PK_IDENTICAL and 1 <= len(req) <= MAX_REQ):
            raise ValueError(f"project {p} is out of range")
        cfg.proj_vp[p] = vp
        cfg.proj_kind[p] = kind
        cfg.proj_size[p] = len(req)
        for i in range(len(req)):
            if not 0 <= req[i] <= 15:
                raise ValueError(f"project {p} has an impossible requirement")
            cfg.proj_req[p][i] = req[i]
    if len(supply) != 4 or not all(0 <= x <= 64 for x in supply):
        raise ValueError("supply must be 4 counts in 0..64")
    for i in range(2):
        for t in range(4):
            if not 0 <= start[i][t] <= 64:
                raise ValueError("bad start resources")
            cfg.start[i][t] = start[i][t]
    for t in range(4):
        cfg.supply[t] = supply[t]
        if cfg.start[0][t] + cfg.start[1][t] > supply[t]:
            raise ValueError("the start resources exceed the supply")
    if not 0 <= public_projects <= len(projects) or not 0 <= sharing <= SHARE_NONE:
        raise ValueError("bad public project count or sharing rule")
    if not -1 <= first_player <= 1 or not 1 <= end_score <= 255:
        raise ValueError("bad first player or end score")
    cfg.num_types = len(machines)
    cfg.num_projects = len(projects)
    cfg.num_cards = n_cards
    cfg.public_projects = public_projects
    cfg.sharing = sharing
    cfg.first_player = NO_CARD if first_player < 0 else first_player
    cfg.end_score = end_score
    layout = action_layout(cfg.num_types, cfg.num_projects)
    cfg.a_play = layout["play"][0]
    cfg.a_repair = layout["repair"][0]
    cfg.a_draw = layout["draw"][0]
    cfg.a_take1 = layout["take1"][0]
    cfg.a_take2 = layout["take2"][0]
    cfg.a_steal = layout["steal"][0]
    cfg.a_return1 = layout["return1"][0]
    cfg.a_return2 = layout["return2"][0]
    cfg.a_exchange = layout["exchange"][0]
    cfg.a_stop = layout["stop"][0]
    cfg.a_discard_hand = layout["discard_hand"][0]
    cfg.a_discard_slot = layout["discard_slot"][0]
    cfg.a_copy = layout["copy"][0]
    cfg.a_keep = layout["keep"][0]
    cfg.a_complete = layout["complete"][0]
    cfg.a_done = layout["done"][0]
    cfg.num_actions = layout["num_actions"]
    cfg.mask_words = (cfg.num_actions + 63) >> 6
    _move_tables(&cfg, layout)
    spec.num_actions = cfg.num_actions
    core = GameCore()
    from robotcore.games.nicodemus.view import NATIVE_HOOKS    # view.pyx cimports this module: read at make time
    take_native_hooks(&spec, NATIVE_HOOKS)
    core.bind(&spec, &cfg, sizeof(NMConfig))
    return core


# -- raw access for tests and tools (in-process only: this is the omniscient struct) ----------------------------

_SCALARS = ("rng", "proj_public", "turn", "deck_n", "table_n", "pile_n", "pend_n", "phase", "cur", "first",
            "end_trig", "ctx_played", "ctx_card", "ctx_target", "ctx_qty", "ctx_exch", "proj_used", "proj_count")


def unpack_state(const uint8_t[::1] raw) -> dict:
    """Every field of the struct as Python values (arrays as lists, bitsets as ints)."""
    cdef NMState s
    cdef int p, t
    if raw.shape[0] != sizeof(NMState):
        raise ValueError(f"a Nicodemus state is {sizeof(NMState)} bytes")
    memcpy(&s, &raw[0], sizeof(NMState))
    return {
        "rng": s.rng,
        "proj_public": s.proj_public,
        "proj_private": [s.proj_private[0], s.proj_private[1]],
        "proj_done": [s.proj_done[0], s.proj_done[1]],
        "proj_removed": [s.proj_removed[0], s.proj_removed[1]],
        "score": [s.score[0], s.score[1]],
        "turn": s.turn,
        "deck": [s.deck[i] for i in range(MAX_CARDS)],
        "hand": [[s.hand[p][t] for t in range(MAX_TYPES)] for p in range(2)],
        "known": [[s.known[p][t] for t in range(MAX_TYPES)] for p in range(2)],
        "sure": [[s.sure[p][t] for t in range(MAX_TYPES)] for p in range(2)],
        "hdisc": [[s.hdisc[p][t] for t in range(MAX_TYPES)] for p in range(2)],
        "aside": [[s.aside[p][t] for t in range(MAX_TYPES)] for p in range(2)],
        "discard": [s.discard[t] for t in range(MAX_TYPES)],
        "table": [s.table[i] for i in range(TABLE_SLOTS)],
        "table_coal": [s.table_coal[i] for i in range(TABLE_SLOTS)],
        "ws": [[s.ws[p][i] for i in range(WORKSHOP_MAX)] for p in range(2)],
        "res": [[s.res[p][i] for i in range(4)] for p in range(2)],
        "pile": [s.pile[i] for i in range(MAX_PROJECTS)],
        "pend": [s.pend[0], s.pend[1]],
        "deck_n": s.deck_n,
        "table_n": s.table_n,
        "ws_n": [s.ws_n[0], s.ws_n[1]],
        "pile_n": s.pile_n,
        "pend_n": s.pend_n,
        "phase": s.phase,
        "cur": s.cur,
        "first": s.first,
        "end_trig": s.end_trig,
        "ctx_played": s.ctx_played,
        "ctx_card": s.ctx_card,
        "ctx_target": s.ctx_target,
        "ctx_qty": s.ctx_qty,
        "ctx_exch": s.ctx_exch,
        "proj_used": s.proj_used,
        "proj_count": s.proj_count,
    }


def pack_state(dict f) -> bytes:
    """Inverse of ``unpack_state`` (no validation here: build a State with ``Game.state_from_row``)."""
    cdef NMState s
    cdef int p, t, i
    memset(&s, 0, sizeof(NMState))
    s.rng = f["rng"]
    s.proj_public = f["proj_public"]
    for p in range(2):
        s.proj_private[p] = f["proj_private"][p]
        s.proj_done[p] = f["proj_done"][p]
        s.proj_removed[p] = f["proj_removed"][p]
        s.score[p] = f["score"][p]
        s.ws_n[p] = f["ws_n"][p]
        s.pend[p] = f["pend"][p]
        for t in range(MAX_TYPES):
            s.hand[p][t] = f["hand"][p][t]
            s.known[p][t] = f["known"][p][t]
            s.sure[p][t] = f["sure"][p][t]
            s.hdisc[p][t] = f["hdisc"][p][t]
            s.aside[p][t] = f["aside"][p][t]
        for i in range(WORKSHOP_MAX):
            s.ws[p][i] = f["ws"][p][i]
        for i in range(4):
            s.res[p][i] = f["res"][p][i]
    s.turn = f["turn"]
    for i in range(MAX_CARDS):
        s.deck[i] = f["deck"][i]
    for t in range(MAX_TYPES):
        s.discard[t] = f["discard"][t]
    for i in range(TABLE_SLOTS):
        s.table[i] = f["table"][i]
        s.table_coal[i] = f["table_coal"][i]
    for i in range(MAX_PROJECTS):
        s.pile[i] = f["pile"][i]
    s.deck_n = f["deck_n"]
    s.table_n = f["table_n"]
    s.pile_n = f["pile_n"]
    s.pend_n = f["pend_n"]
    s.phase = f["phase"]
    s.cur = f["cur"]
    s.first = f["first"]
    s.end_trig = f["end_trig"]
    s.ctx_played = f["ctx_played"]
    s.ctx_card = f["ctx_card"]
    s.ctx_target = f["ctx_target"]
    s.ctx_qty = f["ctx_qty"]
    s.ctx_exch = f["ctx_exch"]
    s.proj_used = f["proj_used"]
    s.proj_count = f["proj_count"]
    return (<char*>&s)[:sizeof(NMState)]


def repair_cost(GameCore core, const uint8_t[::1] raw, int seat, int slot) -> dict:
    """What repairing ``slot`` costs ``seat`` now, reductions applied (for tests, tools and views)."""
    cdef const NMConfig* cfg = <const NMConfig*>core.cfg
    cdef const NMState* s
    cdef int red[5]
    cdef int i, r, t
    if raw.shape[0] != sizeof(NMState) or nm_validate(core.cfg, &raw[0]) != 0:
        raise ValueError("not a valid Nicodemus state")
    s = <const NMState*>&raw[0]
    if not 0 <= seat < 2 or not 0 <= slot < s.table_n:
        raise ValueError("no such seat or slot")
    for r in range(5):
        red[r] = 0
    for i in range(s.ws_n[seat]):
        red[cfg.prod[s.ws[seat][i]]] += 1
    t = s.table[slot]
    return {
        "charcoalium": max(0, s.table_n - 1 - slot - red[COAL]),
        "cubes": [max(0, cfg.cost[t][r] - red[r]) for r in range(1, 4)],
        "jokers": red[JOKER],
    }
