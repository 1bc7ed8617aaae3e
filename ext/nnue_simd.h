/* The net's output layer in SIMD (nnue.pxi): one perspective's half of the output, exactly.
 *
 * Both functions take n int16 accumulator entries and n int16 weights, n a multiple of 32 (the
 * net's stride; the padding is zero in both), and return the exact sum in 64 bits:
 *   nnue_crelu_dot:  sum of clamp(acc, 0, qa) * w
 *   nnue_screlu_dot: sum of clamp(acc, 0, qa)^2 * w, which needs qa * |w| <= 32767 for every w
 *                    (the caller checks): v * w is then an int16, and pmaddwd sums v * (v * w).
 * pmaddwd adds two products of at most 255 * 32768 into an int32 lane; 32-bit lanes are widened to
 * 64 bits every 512 entries (at most 64 such pairs a lane), so no int32 sum can overflow.
 * x86-64 always has SSE2; with -march=native on an AVX2 machine the 256-bit forms are used, and
 * other machines take the plain C loop.
 */
#ifndef PYROPE_NNUE_SIMD_H
#define PYROPE_NNUE_SIMD_H

#include <stdint.h>

#if defined(__AVX2__)
#include <immintrin.h>
#define NNUE_LANES 16
typedef __m256i nnue_vec;
#define nnue_load(p) _mm256_load_si256((const __m256i*)(p))
#define nnue_zero() _mm256_setzero_si256()
#define nnue_set16(x) _mm256_set1_epi16(x)
#define nnue_max16 _mm256_max_epi16
#define nnue_min16 _mm256_min_epi16
#define nnue_mullo16 _mm256_mullo_epi16
#define nnue_madd16 _mm256_madd_epi16
#define nnue_add32 _mm256_add_epi32
static inline int64_t nnue_lanes_sum(nnue_vec v) {
    int32_t lanes[8] __attribute__((aligned(32)));
    _mm256_store_si256((__m256i*)lanes, v);
    int64_t total = 0;
    for (int i = 0; i < 8; i++) total += lanes[i];
    return total;
}
#elif defined(__SSE2__)
#include <emmintrin.h>
#define NNUE_LANES 8
typedef __m128i nnue_vec;
#define nnue_load(p) _mm_load_si128((const __m128i*)(p))
#define nnue_zero() _mm_setzero_si128()
#define nnue_set16(x) _mm_set1_epi16(x)
#define nnue_max16 _mm_max_epi16
#define nnue_min16 _mm_min_epi16
#define nnue_mullo16 _mm_mullo_epi16
#define nnue_madd16 _mm_madd_epi16
#define nnue_add32 _mm_add_epi32
static inline int64_t nnue_lanes_sum(nnue_vec v) {
    int32_t lanes[4] __attribute__((aligned(16)));
    _mm_store_si128((__m128i*)lanes, v);
    return (int64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

#define NNUE_WIDEN_EVERY 512

#ifdef NNUE_LANES

static inline int64_t nnue_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa, int squared) {
    const nnue_vec zero = nnue_zero(), top = nnue_set16(qa);
    int64_t total = 0;
    for (int start = 0; start < n; start += NNUE_WIDEN_EVERY) {
        int end = start + NNUE_WIDEN_EVERY < n ? start + NNUE_WIDEN_EVERY : n;
        nnue_vec sum = nnue_zero();
        for (int j = start; j < end; j += NNUE_LANES) {
            nnue_vec v = nnue_min16(nnue_max16(nnue_load(acc + j), zero), top);
            nnue_vec weights = nnue_load(w + j);
            sum = nnue_add32(sum, nnue_madd16(v, squared ? nnue_mullo16(v, weights) : weights));
        }
        total += nnue_lanes_sum(sum);
    }
    return total;
}

#else

static inline int64_t nnue_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa, int squared) {
    int64_t total = 0;
    for (int j = 0; j < n; j++) {
        int32_t v = acc[j] < 0 ? 0 : (acc[j] > qa ? qa : acc[j]);
        total += (int64_t)v * (squared ? (int16_t)(v * w[j]) : w[j]);
    }
    return total;
}

#endif

/* An accumulator from the one below it in one pass: acc = below + the columns of the pieces that
 * arrived - those of the pieces that left (a move changes at most 2 + 2: castling's king and rook,
 * or a capture's mover and victim). __restrict lets the compiler vectorise the plain loop; int16
 * arithmetic wraps, as nnue.pxi's order-free argument needs. */
static inline void nnue_update_columns(int16_t* __restrict acc, const int16_t* __restrict below,
                                       const int16_t* const* added, int n_added,
                                       const int16_t* const* removed, int n_removed, int n) {
    const int16_t* __restrict a0 = added[0];
    const int16_t* __restrict r0 = removed[0];
    if (n_added == 1 && n_removed == 1) {
        for (int j = 0; j < n; j++) acc[j] = (int16_t)(below[j] + a0[j] - r0[j]);
        return;
    }
    if (n_added == 1 && n_removed == 2) {
        const int16_t* __restrict r1 = removed[1];
        for (int j = 0; j < n; j++) acc[j] = (int16_t)(below[j] + a0[j] - r0[j] - r1[j]);
        return;
    }
    if (n_added == 2 && n_removed == 2) {
        const int16_t* __restrict a1 = added[1];
        const int16_t* __restrict r1 = removed[1];
        for (int j = 0; j < n; j++) acc[j] = (int16_t)(below[j] + a0[j] + a1[j] - r0[j] - r1[j]);
        return;
    }
    for (int j = 0; j < n; j++) acc[j] = below[j];
    for (int i = 0; i < n_added; i++)
        for (int j = 0; j < n; j++) acc[j] = (int16_t)(acc[j] + added[i][j]);
    for (int i = 0; i < n_removed; i++)
        for (int j = 0; j < n; j++) acc[j] = (int16_t)(acc[j] - removed[i][j]);
}

/* One column added to or taken from an accumulator in place (the refresh cache's updates). */
static inline void nnue_add_column(int16_t* __restrict acc, const int16_t* __restrict column, int n) {
    for (int j = 0; j < n; j++) acc[j] = (int16_t)(acc[j] + column[j]);
}

static inline void nnue_sub_column(int16_t* __restrict acc, const int16_t* __restrict column, int n) {
    for (int j = 0; j < n; j++) acc[j] = (int16_t)(acc[j] - column[j]);
}

static inline int64_t nnue_crelu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa) {
    return nnue_dot(acc, w, n, qa, 0);
}

static inline int64_t nnue_screlu_dot(const int16_t* acc, const int16_t* w, int n, int16_t qa) {
    return nnue_dot(acc, w, n, qa, 1);
}

#endif
