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

#endif
