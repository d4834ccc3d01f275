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

/* Bit i set exactly when p[i] != 0, for the 16 bytes p[0..15] (a byte array of counts as a set): SSE2 (every
 * x86-64) by one compare and a byte-sign mask; elsewhere two 8-byte words, each byte's "any bit set" carried
 * into its top bit and the eight top bits gathered by one multiply. */
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
static inline uint32_t rc_nonzero16(const uint8_t* p) {
    __m128i v = _mm_loadu_si128((const __m128i*)p);
    return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xFFFFu;
}
#else
static inline uint32_t rc_nonzero8(uint64_t x) {   /* x: bytes p[0..7] loaded as a little-endian word */
    uint64_t y = (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) >> 7;
    return (uint32_t)(((y & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}
static inline uint32_t rc_nonzero16(const uint8_t* p) {
    uint64_t lo, hi;
    memcpy(&lo, p, 8);
    memcpy(&hi, p + 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    lo = __builtin_bswap64(lo);
    hi = __builtin_bswap64(hi);
#endif
    return rc_nonzero8(lo) | (rc_nonzero8(hi) << 8);
}
#endif

#endif
