/* Portable 64-bit bit tricks used by every engine: one place, with a fallback per compiler.
 *
 * Wheels target the baseline of each architecture, so on x86-64 without POPCNT (enabled by -mpopcnt or
 * -march=x86-64-v2) __builtin_popcountll becomes a libgcc call; the inline SWAR version is faster there.
 * Bit scans (bsf/bsr, or tzcnt/lzcnt-compatible uses) are baseline everywhere. */
#ifndef ROBOTCORE_BITS_H
#define ROBOTCORE_BITS_H
#include <stdint.h>

static inline int rc_popcount64_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

#if defined(__GNUC__) || defined(__clang__)
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON)
static inline int rc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int rc_popcount64(uint64_t x) { return rc_popcount64_swar(x); }
#endif
/* x must be non-zero */
static inline int rc_ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int rc_msb64(uint64_t x) { return 63 - __builtin_clzll(x); }
#elif defined(_MSC_VER)
#include <intrin.h>
static __inline int rc_popcount64(uint64_t x) { return rc_popcount64_swar(x); }
static __inline int rc_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static __inline int rc_msb64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
#else
static inline int rc_popcount64(uint64_t x) { return rc_popcount64_swar(x); }
static inline int rc_ctz64(uint64_t x) { int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i; }
static inline int rc_msb64(uint64_t x) { int i = 0; while (x >>= 1) i++; return i; }
#endif

/* The n-th (0-based) set bit of x by BMI2's PDEP, two instructions and no branch, on a CPU where PDEP is fast:
 * BMI2 is not in the x86-64 baseline the wheels target, so a function compiled for it is chosen at load
 * (``rc_fast_pdep``), and AMD's family 17h (Zen 1 and 2), whose PDEP is microcoded and slow, keeps the portable
 * code of ``nth_set_bit`` (core/bits.pxd), as do other compilers and architectures. Same answer either way. */
/* A hot loop can be compiled twice, once with RC_BMI2 on its outer function (every call inlined into it, PDEP
 * included, is then compiled for BMI2) and once without, the copy chosen by rc_fast_pdep once per call of the
 * loop instead of once per draw: a call to rc_nth_bit_pdep from baseline code is a real call, not two
 * instructions (Robotrick's ``rt_playout``). ROBOTCORE_PORTABLE_BITS=1 in the environment keeps the portable code
 * everywhere, so that its copies are tested on a CPU that has a fast PDEP. */
#include <stdlib.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#define RC_BMI2 __attribute__((target("bmi2")))
__attribute__((target("bmi2"), unused)) static inline int rc_nth_bit_pdep(uint64_t x, int n) {
    return (int)__builtin_ctzll(_pdep_u64((uint64_t)1 << n, x));
}
static int rc_fast_pdep __attribute__((unused)) = 0;
/* AVX-512 VBMI2's byte compress (the positions of a word's set bits in one instruction), for the kernel's
 * legal-action lists (core/state.pyx, rc_decode_compress); the same switch keeps the portable loop. Intel's CPUs
 * only for now: it was measured there (faster), not on AMD's Zen 4/5, whose 512-bit gathers cost more. */
static int rc_fast_compress __attribute__((unused)) = 0;
__attribute__((constructor, unused)) static void rc_detect_pdep(void) {
    __builtin_cpu_init();
    const char* portable = getenv("ROBOTCORE_PORTABLE_BITS");
    int keep_portable = portable && portable[0] == '1';
    rc_fast_pdep = __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam17h") && !keep_portable;
    rc_fast_compress = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
                       && __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_is("intel") && !keep_portable;
}
#else
#define RC_BMI2
#define rc_fast_pdep 0
#define rc_fast_compress 0
static inline int rc_nth_bit_pdep(uint64_t x, int n) { (void)x; (void)n; return -1; }   /* never called */
#endif

#include <string.h>

/* Bytes p[0..3] (p[0..7]) as a word, byte i in bits 8i..8i+7 whatever the byte order: one unaligned load. */
static inline uint32_t rc_load_le32(const uint8_t* p) {
    uint32_t x;
    memcpy(&x, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#endif
    return x;
}
static inline uint64_t rc_load_le64(const uint8_t* p) {
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* Zero n mask words: 8 to 24 words by straight-line 16-byte stores, 8 words at a time, the last 8 overlapping
 * (a loop or a memset of a variable size is a libc call or ``rep stos``, an instruction per word); with a
 * constant n, inlined, only the stores remain. */
#if defined(__GNUC__) || defined(__clang__)
typedef uint64_t rc_v2 __attribute__((vector_size(16), aligned(8), may_alias));
static inline void rc_zero8(uint64_t* w) {
    const rc_v2 z = {0, 0};
    rc_v2* v = (rc_v2*)w;
    v[0] = z; v[1] = z; v[2] = z; v[3] = z;
}
#else
static inline void rc_zero8(uint64_t* w) { memset(w, 0, 8 * sizeof(uint64_t)); }
#endif
static inline void rc_zero_words(uint64_t* w, int n) {
    if (n >= 8 && n <= 16) {
        rc_zero8(w);
        rc_zero8(w + n - 8);
    } else if (n > 16 && n <= 24) {
        rc_zero8(w);
        rc_zero8(w + 8);
        rc_zero8(w + n - 8);
    } else {
        memset(w, 0, (size_t)n * sizeof(uint64_t));
    }
}

/* Bit i set exactly when p[i] != 0, for the 16 bytes p[0..15] (a byte array of counts as a set): SSE2 (every
 * x86-64) by one compare and a byte-sign mask; elsewhere two 8-byte words, each byte's "any bit set" carried
 * into its top bit and the eight top bits gathered by one multiply. */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
static inline uint32_t rc_nonzero16(const uint8_t* p) {
    __m128i v = _mm_loadu_si128((const __m128i*)p);
    return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xFFFFu;
}
#else
static inline uint32_t rc_nonzero8(uint64_t x) {   /* x: bytes p[0..7] as rc_load_le64 loads them */
    uint64_t y = (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) >> 7;
    return (uint32_t)(((y & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}
static inline uint32_t rc_nonzero16(const uint8_t* p) {
    return rc_nonzero8(rc_load_le64(p)) | (rc_nonzero8(rc_load_le64(p + 8)) << 8);
}
#endif

#endif
