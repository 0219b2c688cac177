// The region crop's paths: a portable one, the steps one pixel at a time, and on x86-64 processors with AVX2
// (chosen at run time) four pixels at a time, or for a row that lies wholly inside the photo (no clamps)
// eight, or sixteen with AVX-512 — the same integers in all (checked by the tests against a plain Swift transcription of the steps,
// on random regions, and against OpenCV's own bytes).
//
// Exactness: the map is OpenCV's own matrix (tio_region_matrix: getPerspectiveTransform's LU, invert's 3 × 3
// form) and each row's positions its WarpPerspectiveInvoker's double operations, in 1/32 pixels (times 32 / W),
// computed once per row (row_positions: scalar, or four or eight columns at a time), never fused into
// multiply-adds (the pragma; the vector functions do not enable FMA either), rounded half to even (rint and
// cvtpd2dq both use the default rounding mode); the blend is integer arithmetic. The sum of the four products splits exactly into a
// horizontal then a vertical weighting: (32 - fy)((32 - fx)a + fx b) + fy((32 - fx)c + fx d), and
// ((that × 32) + 2^14) >> 15 is (that + 512) >> 10.
#include "CRegionCrop.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

static const double position_limit = 2147483647.0;

// NaN (a crafted region) goes to the low end, as cvtpd2dq's "integer indefinite" does on the vector path.
static inline double clamp_position(double value) {
    return value >= -position_limit ? (value > position_limit ? position_limit : value) : -position_limit;
}

static inline int64_t clamp_fixed(int64_t value, int64_t last) {
    return value < 0 ? 0 : (value > last ? last : value);
}

// Columns [from, count) of one output row, one pixel at a time.
static void crop_row_portable(const uint8_t *pixels, int64_t width, int64_t height, const double *column_x,
                              const double *column_y, double row_x, double row_y, int64_t from, int64_t count,
                              uint8_t *row) {
    const int64_t last_x = (width - 1) * 32, last_y = (height - 1) * 32;
    for (int64_t x = from; x < count; x++) {
        int64_t fixed_x = clamp_fixed((int64_t)rint(clamp_position(column_x[x] + row_x)), last_x);
        int64_t fixed_y = clamp_fixed((int64_t)rint(clamp_position(column_y[x] + row_y)), last_y);
        int64_t left = fixed_x >> 5, top = fixed_y >> 5;
        int32_t ax = (int32_t)(fixed_x & 31), ay = (int32_t)(fixed_y & 31);
        int64_t right = left + 1 < width ? left + 1 : width - 1, bottom = top + 1 < height ? top + 1 : height - 1;
        const uint8_t *p00 = pixels + (top * width + left) * 4, *p01 = pixels + (top * width + right) * 4;
        const uint8_t *p10 = pixels + (bottom * width + left) * 4, *p11 = pixels + (bottom * width + right) * 4;
        for (int channel = 0; channel < 4; channel++) {
            int32_t upper = (32 - ax) * p00[channel] + ax * p01[channel];
            int32_t lower = (32 - ax) * p10[channel] + ax * p11[channel];
            row[x * 4 + channel] = (uint8_t)(((32 - ay) * upper + ay * lower + 512) >> 10);
        }
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// Four pixels at a time: positions as four doubles, the two neighbour pairs of each pixel gathered as 8 bytes
// (on the last column or row, the pair before it with all the weight on its second pixel: the same sums
// without reading past the photo), weighted across with maddubs and down with madd.
__attribute__((target("avx2")))
static void crop_row_avx2(const uint8_t *pixels, int64_t width, int64_t height, const double *column_x,
                          const double *column_y, double row_x, double row_y, int64_t count, uint8_t *row) {
    const __m256d limit = _mm256_set1_pd(position_limit), negative_limit = _mm256_set1_pd(-position_limit);
    const __m256d rx = _mm256_set1_pd(row_x), ry = _mm256_set1_pd(row_y);
    const __m128i zero = _mm_setzero_si128(), k31 = _mm_set1_epi32(31), k32 = _mm_set1_epi32(32);
    const __m128i last_x = _mm_set1_epi32((int32_t)((width - 1) * 32)), last_y = _mm_set1_epi32((int32_t)((height - 1) * 32));
    const __m128i max_left = _mm_set1_epi32((int32_t)(width - 2)), max_top = _mm_set1_epi32((int32_t)(height - 2));
    const __m128i stride = _mm_set1_epi32((int32_t)width);
    // A pair's bytes [B0 G0 R0 A0 B1 G1 R1 A1] as [B0 B1 G0 G1 R0 R1 A0 A1], for maddubs.
    const __m256i interleave = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                                                0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i rounding = _mm256_set1_epi32(512);
    const __m256i first_of_lanes = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2), second_of_lanes = _mm256_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3);
    const long long *base = (const long long *)(const void *)pixels;
    int64_t x = 0;
    for (; x + 4 <= count; x += 4) {
        __m256d sx = _mm256_add_pd(_mm256_loadu_pd(column_x + x), rx);
        __m256d sy = _mm256_add_pd(_mm256_loadu_pd(column_y + x), ry);
        sx = _mm256_max_pd(negative_limit, _mm256_min_pd(limit, sx));
        sy = _mm256_max_pd(negative_limit, _mm256_min_pd(limit, sy));
        __m128i fx = _mm_min_epi32(_mm_max_epi32(_mm256_cvtpd_epi32(sx), zero), last_x);
        __m128i fy = _mm_min_epi32(_mm_max_epi32(_mm256_cvtpd_epi32(sy), zero), last_y);
        __m128i left = _mm_srai_epi32(fx, 5), top = _mm_srai_epi32(fy, 5);
        __m128i ax = _mm_and_si128(fx, k31), ay = _mm_and_si128(fy, k31);
        ax = _mm_blendv_epi8(ax, k32, _mm_cmpgt_epi32(left, max_left));
        ay = _mm_blendv_epi8(ay, k32, _mm_cmpgt_epi32(top, max_top));
        left = _mm_min_epi32(left, max_left);
        top = _mm_min_epi32(top, max_top);
        __m128i upper_index = _mm_add_epi32(_mm_mullo_epi32(top, stride), left);
        __m256i upper = _mm256_i32gather_epi64(base, _mm_slli_epi32(upper_index, 2), 1);
        __m256i lower = _mm256_i32gather_epi64(base, _mm_slli_epi32(_mm_add_epi32(upper_index, stride), 2), 1);
        upper = _mm256_shuffle_epi8(upper, interleave);
        lower = _mm256_shuffle_epi8(lower, interleave);
        // Bytes [32 - fx, fx] four times for each pixel's 64-bit element.
        __m128i across16 = _mm_or_si128(_mm_sub_epi32(k32, ax), _mm_slli_epi32(ax, 8));
        __m256i across = _mm256_cvtepu32_epi64(_mm_or_si128(across16, _mm_slli_epi32(across16, 16)));
        across = _mm256_or_si256(across, _mm256_slli_epi64(across, 32));
        __m256i upper_sums = _mm256_maddubs_epi16(upper, across), lower_sums = _mm256_maddubs_epi16(lower, across);
        // Words [32 - fy, fy] for each pixel, for madd over (upper, lower) pairs.
        __m256i down = _mm256_castsi128_si256(_mm_or_si128(_mm_sub_epi32(k32, ay), _mm_slli_epi32(ay, 16)));
        __m256i first = _mm256_madd_epi16(_mm256_unpacklo_epi16(upper_sums, lower_sums), _mm256_permutevar8x32_epi32(down, first_of_lanes));
        __m256i second = _mm256_madd_epi16(_mm256_unpackhi_epi16(upper_sums, lower_sums), _mm256_permutevar8x32_epi32(down, second_of_lanes));
        first = _mm256_srli_epi32(_mm256_add_epi32(first, rounding), 10);
        second = _mm256_srli_epi32(_mm256_add_epi32(second, rounding), 10);
        __m256i words = _mm256_packus_epi32(first, second);     // lane 0: pixels 0, 1; lane 1: pixels 2, 3
        __m256i bytes = _mm256_packus_epi16(words, words);
        __m256i ordered = _mm256_permute4x64_epi64(bytes, 0x08);
        _mm_storeu_si128((__m128i *)(void *)(row + x * 4), _mm256_castsi256_si128(ordered));
    }
    crop_row_portable(pixels, width, height, column_x, column_y, row_x, row_y, x, count, row);
}

// A row all of whose positions lie inside the photo with a pixel to their right and below (checked at its two
// ends: the positions grow or shrink steadily along a row, as the doubles' sums and rint are monotonic), eight
// pixels at a time without the clamps: the same integers as crop_row_avx2, about 1.6 times as fast.
__attribute__((target("avx2")))
static void crop_row_inside_avx2(const uint8_t *pixels, int64_t width, int64_t height, const double *column_x, const double *column_y,
                                 double row_x, double row_y, int64_t count, uint8_t *row) {
    const __m256d rx = _mm256_set1_pd(row_x), ry = _mm256_set1_pd(row_y);
    const __m256i k31 = _mm256_set1_epi32(31), k32 = _mm256_set1_epi32(32), stride = _mm256_set1_epi32((int32_t)width);
    const __m256i interleave = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,
                                                0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i rounding = _mm256_set1_epi32(512);
    const __m256i pairs_low = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), pairs_high = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    const __m256i down_0 = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2), down_1 = _mm256_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3);
    const __m256i down_4 = _mm256_setr_epi32(4, 4, 4, 4, 6, 6, 6, 6), down_5 = _mm256_setr_epi32(5, 5, 5, 5, 7, 7, 7, 7);
    const long long *base = (const long long *)(const void *)pixels;
    int64_t x = 0;
    for (; x + 8 <= count; x += 8) {
        __m128i fx0 = _mm256_cvtpd_epi32(_mm256_add_pd(_mm256_loadu_pd(column_x + x), rx));
        __m128i fx1 = _mm256_cvtpd_epi32(_mm256_add_pd(_mm256_loadu_pd(column_x + x + 4), rx));
        __m128i fy0 = _mm256_cvtpd_epi32(_mm256_add_pd(_mm256_loadu_pd(column_y + x), ry));
        __m128i fy1 = _mm256_cvtpd_epi32(_mm256_add_pd(_mm256_loadu_pd(column_y + x + 4), ry));
        __m256i fx = _mm256_inserti128_si256(_mm256_castsi128_si256(fx0), fx1, 1);
        __m256i fy = _mm256_inserti128_si256(_mm256_castsi128_si256(fy0), fy1, 1);
        __m256i ax = _mm256_and_si256(fx, k31), ay = _mm256_and_si256(fy, k31);
        __m256i upper_index = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(fy, 5), stride), _mm256_srai_epi32(fx, 5));
        __m256i lower_index = _mm256_add_epi32(upper_index, stride);
        __m256i upper0 = _mm256_i32gather_epi64(base, _mm256_castsi256_si128(upper_index), 4);
        __m256i upper1 = _mm256_i32gather_epi64(base, _mm256_extracti128_si256(upper_index, 1), 4);
        __m256i lower0 = _mm256_i32gather_epi64(base, _mm256_castsi256_si128(lower_index), 4);
        __m256i lower1 = _mm256_i32gather_epi64(base, _mm256_extracti128_si256(lower_index, 1), 4);
        upper0 = _mm256_shuffle_epi8(upper0, interleave);
        upper1 = _mm256_shuffle_epi8(upper1, interleave);
        lower0 = _mm256_shuffle_epi8(lower0, interleave);
        lower1 = _mm256_shuffle_epi8(lower1, interleave);
        // Bytes [32 - fx, fx] four times for each pixel's 64-bit element.
        __m256i across = _mm256_or_si256(_mm256_sub_epi32(k32, ax), _mm256_slli_epi32(ax, 8));
        across = _mm256_or_si256(across, _mm256_slli_epi32(across, 16));
        __m256i across0 = _mm256_permutevar8x32_epi32(across, pairs_low), across1 = _mm256_permutevar8x32_epi32(across, pairs_high);
        __m256i upper_sums0 = _mm256_maddubs_epi16(upper0, across0), lower_sums0 = _mm256_maddubs_epi16(lower0, across0);
        __m256i upper_sums1 = _mm256_maddubs_epi16(upper1, across1), lower_sums1 = _mm256_maddubs_epi16(lower1, across1);
        // Words [32 - fy, fy] for each pixel, for madd over (upper, lower) pairs.
        __m256i down = _mm256_or_si256(_mm256_sub_epi32(k32, ay), _mm256_slli_epi32(ay, 16));
        __m256i p02 = _mm256_madd_epi16(_mm256_unpacklo_epi16(upper_sums0, lower_sums0), _mm256_permutevar8x32_epi32(down, down_0));
        __m256i p13 = _mm256_madd_epi16(_mm256_unpackhi_epi16(upper_sums0, lower_sums0), _mm256_permutevar8x32_epi32(down, down_1));
        __m256i p46 = _mm256_madd_epi16(_mm256_unpacklo_epi16(upper_sums1, lower_sums1), _mm256_permutevar8x32_epi32(down, down_4));
        __m256i p57 = _mm256_madd_epi16(_mm256_unpackhi_epi16(upper_sums1, lower_sums1), _mm256_permutevar8x32_epi32(down, down_5));
        p02 = _mm256_srli_epi32(_mm256_add_epi32(p02, rounding), 10);
        p13 = _mm256_srli_epi32(_mm256_add_epi32(p13, rounding), 10);
        p46 = _mm256_srli_epi32(_mm256_add_epi32(p46, rounding), 10);
        p57 = _mm256_srli_epi32(_mm256_add_epi32(p57, rounding), 10);
        // Words: lane 0 pixels 0, 1 | 4, 5; lane 1 pixels 2, 3 | 6, 7; then bytes in pixel order.
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(p02, p13), _mm256_packus_epi32(p46, p57));
        _mm256_storeu_si256((__m256i *)(void *)(row + x * 4), _mm256_permute4x64_epi64(bytes, 0xD8));
    }
    crop_row_portable(pixels, width, height, column_x, column_y, row_x, row_y, x, count, row);
}

// Sixteen pixels at a time with AVX-512 (F and BW), the same steps as crop_row_inside_avx2 on twice the lanes:
// on AMD's processors, which split a 512-bit operation in two, still about a fifth faster (fewer instructions
// to decode and schedule); the remainder of the row goes to the AVX2 function.
__attribute__((target("avx512f,avx512bw,avx2")))
static void crop_row_inside_avx512(const uint8_t *pixels, int64_t width, int64_t height, const double *column_x, const double *column_y,
                                   double row_x, double row_y, int64_t count, uint8_t *row) {
    const __m512d rx = _mm512_set1_pd(row_x), ry = _mm512_set1_pd(row_y);
    const __m512i k31 = _mm512_set1_epi32(31), k32 = _mm512_set1_epi32(32), stride = _mm512_set1_epi32((int32_t)width);
    const __m512i interleave = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15));
    const __m512i rounding = _mm512_set1_epi32(512);
    const __m512i pairs_low = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    const __m512i pairs_high = _mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15);
    const __m512i down_even = _mm512_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6);
    const __m512i down_odd = _mm512_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7);
    const __m512i eight = _mm512_set1_epi32(8);
    const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    const long long *base = (const long long *)(const void *)pixels;
    int64_t x = 0;
    for (; x + 16 <= count; x += 16) {
        __m256i fx0 = _mm512_cvtpd_epi32(_mm512_add_pd(_mm512_loadu_pd(column_x + x), rx));
        __m256i fx1 = _mm512_cvtpd_epi32(_mm512_add_pd(_mm512_loadu_pd(column_x + x + 8), rx));
        __m256i fy0 = _mm512_cvtpd_epi32(_mm512_add_pd(_mm512_loadu_pd(column_y + x), ry));
        __m256i fy1 = _mm512_cvtpd_epi32(_mm512_add_pd(_mm512_loadu_pd(column_y + x + 8), ry));
        __m512i fx = _mm512_inserti64x4(_mm512_castsi256_si512(fx0), fx1, 1);
        __m512i fy = _mm512_inserti64x4(_mm512_castsi256_si512(fy0), fy1, 1);
        __m512i ax = _mm512_and_si512(fx, k31), ay = _mm512_and_si512(fy, k31);
        __m512i upper_index = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_srai_epi32(fy, 5), stride), _mm512_srai_epi32(fx, 5));
        __m512i lower_index = _mm512_add_epi32(upper_index, stride);
        __m512i upper0 = _mm512_i32gather_epi64(_mm512_castsi512_si256(upper_index), base, 4);
        __m512i upper1 = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(upper_index, 1), base, 4);
        __m512i lower0 = _mm512_i32gather_epi64(_mm512_castsi512_si256(lower_index), base, 4);
        __m512i lower1 = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(lower_index, 1), base, 4);
        upper0 = _mm512_shuffle_epi8(upper0, interleave);
        upper1 = _mm512_shuffle_epi8(upper1, interleave);
        lower0 = _mm512_shuffle_epi8(lower0, interleave);
        lower1 = _mm512_shuffle_epi8(lower1, interleave);
        __m512i across = _mm512_or_si512(_mm512_sub_epi32(k32, ax), _mm512_slli_epi32(ax, 8));
        across = _mm512_or_si512(across, _mm512_slli_epi32(across, 16));
        __m512i across0 = _mm512_permutexvar_epi32(pairs_low, across), across1 = _mm512_permutexvar_epi32(pairs_high, across);
        __m512i us0 = _mm512_maddubs_epi16(upper0, across0), ls0 = _mm512_maddubs_epi16(lower0, across0);
        __m512i us1 = _mm512_maddubs_epi16(upper1, across1), ls1 = _mm512_maddubs_epi16(lower1, across1);
        __m512i down = _mm512_or_si512(_mm512_sub_epi32(k32, ay), _mm512_slli_epi32(ay, 16));
        __m512i e0 = _mm512_madd_epi16(_mm512_unpacklo_epi16(us0, ls0), _mm512_permutexvar_epi32(down_even, down));
        __m512i o0 = _mm512_madd_epi16(_mm512_unpackhi_epi16(us0, ls0), _mm512_permutexvar_epi32(down_odd, down));
        __m512i e1 = _mm512_madd_epi16(_mm512_unpacklo_epi16(us1, ls1), _mm512_permutexvar_epi32(_mm512_add_epi32(down_even, eight), down));
        __m512i o1 = _mm512_madd_epi16(_mm512_unpackhi_epi16(us1, ls1), _mm512_permutexvar_epi32(_mm512_add_epi32(down_odd, eight), down));
        e0 = _mm512_srli_epi32(_mm512_add_epi32(e0, rounding), 10);
        o0 = _mm512_srli_epi32(_mm512_add_epi32(o0, rounding), 10);
        e1 = _mm512_srli_epi32(_mm512_add_epi32(e1, rounding), 10);
        o1 = _mm512_srli_epi32(_mm512_add_epi32(o1, rounding), 10);
        __m512i bytes = _mm512_packus_epi16(_mm512_packus_epi32(e0, o0), _mm512_packus_epi32(e1, o1));
        _mm512_storeu_si512((void *)(row + x * 4), _mm512_permutexvar_epi64(order, bytes));
    }
    crop_row_inside_avx2(pixels, width, height, column_x + x, column_y + x, row_x, row_y, count - x, row + x * 4);
}
#endif

// The map OpenCV's warpPerspective samples with, for MediaPipe's crop: cv::getPerspectiveTransform of the
// region's four corners (cv::boxPoints order: bottom-left, top-left, top-right, bottom-right) onto the output's
// (0, h), (0, 0), (w, 0), (w, h) — the 8 × 8 system built from the Float corners (each product -x·u a Float
// product, as Point2f's members multiply), solved by OpenCV's LU (hal::LU64f: partial pivoting, eps
// DBL_EPSILON × 100) — then inverted by cv::invert's closed form for a 3 × 3 matrix (warpPerspective inverts
// the map unless WARP_INVERSE_MAP). A system OpenCV cannot solve or invert gives the zero matrix (every
// position 0), as OpenCV's does.
void tio_region_matrix(const float corners[8], int64_t output_width, int64_t output_height, double matrix[9]) {
    const float targets[8] = {0.0f, (float)output_height, 0.0f, 0.0f, (float)output_width, 0.0f,
                              (float)output_width, (float)output_height};
    double a[8][8], b[8];
    for (int i = 0; i < 4; i++) {
        float x = corners[2 * i], y = corners[2 * i + 1], u = targets[2 * i], v = targets[2 * i + 1];
        a[i][0] = a[i + 4][3] = x;
        a[i][1] = a[i + 4][4] = y;
        a[i][2] = a[i + 4][5] = 1;
        a[i][3] = a[i][4] = a[i][5] = a[i + 4][0] = a[i + 4][1] = a[i + 4][2] = 0;
        a[i][6] = -(x * u);
        a[i][7] = -(y * u);
        a[i + 4][6] = -(x * v);
        a[i + 4][7] = -(y * v);
        b[i] = u;
        b[i + 4] = v;
    }
    for (int k = 0; k < 9; k++) matrix[k] = 0;
    // hal::LU64f (modules/core/src/matrix_decomp.cpp, LUImpl), with one right-hand side.
    for (int i = 0; i < 8; i++) {
        int pivot = i;
        for (int j = i + 1; j < 8; j++)
            if (fabs(a[j][i]) > fabs(a[pivot][i])) pivot = j;
        if (fabs(a[pivot][i]) < 2.2204460492503131e-16 * 100) return;
        if (pivot != i) {
            for (int j = i; j < 8; j++) {
                double swap = a[i][j];
                a[i][j] = a[pivot][j];
                a[pivot][j] = swap;
            }
            double swap = b[i];
            b[i] = b[pivot];
            b[pivot] = swap;
        }
        double d = -1 / a[i][i];
        for (int j = i + 1; j < 8; j++) {
            double alpha = a[j][i] * d;
            for (int k = i + 1; k < 8; k++) a[j][k] += alpha * a[i][k];
            b[j] += alpha * b[i];
        }
    }
    for (int i = 7; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < 8; k++) s -= a[i][k] * b[k];
        b[i] = s / a[i][i];
    }
    // cv::invert, DECOMP_LU, n == 3 (modules/core/src/lapack.cpp): det3, then the adjugate times 1 / det.
    const double m[9] = {b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], 1.0};
#define S(r, c) m[(r) * 3 + (c)]
    double det = S(0, 0) * (S(1, 1) * S(2, 2) - S(1, 2) * S(2, 1)) - S(0, 1) * (S(1, 0) * S(2, 2) - S(1, 2) * S(2, 0))
        + S(0, 2) * (S(1, 0) * S(2, 1) - S(1, 1) * S(2, 0));
    if (det == 0.) return;
    det = 1. / det;
    matrix[0] = (S(1, 1) * S(2, 2) - S(1, 2) * S(2, 1)) * det;
    matrix[1] = (S(0, 2) * S(2, 1) - S(0, 1) * S(2, 2)) * det;
    matrix[2] = (S(0, 1) * S(1, 2) - S(0, 2) * S(1, 1)) * det;
    matrix[3] = (S(1, 2) * S(2, 0) - S(1, 0) * S(2, 2)) * det;
    matrix[4] = (S(0, 0) * S(2, 2) - S(0, 2) * S(2, 0)) * det;
    matrix[5] = (S(0, 2) * S(1, 0) - S(0, 0) * S(1, 2)) * det;
    matrix[6] = (S(1, 0) * S(2, 1) - S(1, 1) * S(2, 0)) * det;
    matrix[7] = (S(0, 1) * S(2, 0) - S(0, 0) * S(2, 1)) * det;
    matrix[8] = (S(0, 0) * S(1, 1) - S(0, 1) * S(1, 0)) * det;
#undef S
}

// Columns [from, count) of one block, one at a time: W = W0 + M6·x1, W = W ? 32 / W : 0, X = (X0 + M0·x1)·W
// (and Y), clamped to the int range — row_positions' steps, and the vector paths' last columns. Returns
// whether every one is inside the photo with a pixel to its right and below.
static int block_columns(const double m[9], double x0, double y0, double w0, int64_t from, int64_t count,
                         double right, double bottom, double *position_x, double *position_y) {
    int inside = 1;
    for (int64_t x1 = from; x1 < count; x1++) {
        double w = w0 + m[6] * (double)x1;
        w = w != 0 ? 32.0 / w : 0;
        double fx = clamp_position((x0 + m[0] * (double)x1) * w);
        double fy = clamp_position((y0 + m[3] * (double)x1) * w);
        position_x[x1] = fx;
        position_y[x1] = fy;
        inside &= fx >= 0.0 && fx <= right && fy >= 0.0 && fy <= bottom;
    }
    return inside;
}

// One output row's source positions in 1/32 pixels, as WarpPerspectiveInvoker (modules/imgproc/src/imgwarp.cpp)
// computes them before rounding: the output in blocks of bw0 columns (BLOCK_SZ 32: bh0 = min(16, h),
// bw0 = min(1024 / bh0, w)), each block's row start X0 = M0·x + M1·y + M2 (and Y0, W0 alike), then per column
// x1 of the block W = W0 + M6·x1, W = W ? 32 / W : 0, X = (X0 + M0·x1)·W, clamped to the int range. (The SSE4.1
// line of OpenCV does the same double operations.) Returns whether every position of the row is a number
// that rounds to a pixel with a neighbour to its right and below (the vector paths' condition).
static int row_positions(const double m[9], int64_t width, int64_t height, int64_t output_width, int64_t output_height,
                         int64_t y, double *position_x, double *position_y) {
    int64_t block_height = output_height < 16 ? output_height : 16;
    int64_t block_width = 1024 / block_height < output_width ? 1024 / block_height : output_width;
    const double right = (double)((width - 1) * 32 - 1), bottom = (double)((height - 1) * 32 - 1);
    int inside = 1;
    for (int64_t start = 0; start < output_width; start += block_width) {
        int64_t count = output_width - start < block_width ? output_width - start : block_width;
        double x0 = m[0] * (double)start + m[1] * (double)y + m[2];
        double y0 = m[3] * (double)start + m[4] * (double)y + m[5];
        double w0 = m[6] * (double)start + m[7] * (double)y + m[8];
        inside &= block_columns(m, x0, y0, w0, 0, count, right, bottom, position_x + start, position_y + start);
    }
    return inside;
}

#if defined(__x86_64__)
// Whether a block's positions all lie inside the photo with a pixel to their right and below, known from its
// two ends: along a block X and Y are X0' · 32 / W with X0' and W linear in the column, so they move
// steadily one way while W keeps its sign (W at both ends nonzero, of one sign); the doubles' roundings
// stray from that by ulps, which a margin of one 1/32 step at both bounds covers many times over. Such a
// block needs neither the clamps nor a check per column (nearly every block of a crop inside the photo).
static int block_inside(const double m[9], double x0, double y0, double w0, int64_t count, double right, double bottom) {
    const double ends[2] = {0.0, (double)(count - 1)};
    double first_w = 0;
    for (int end = 0; end < 2; end++) {
        double w = w0 + m[6] * ends[end];
        if (!(w != 0 && isfinite(w))) return 0;
        if (end == 0) first_w = w;
        else if ((w > 0) != (first_w > 0)) return 0;
        w = 32.0 / w;
        double fx = (x0 + m[0] * ends[end]) * w, fy = (y0 + m[3] * ends[end]) * w;
        if (!(fx >= 1.0 && fx <= right - 1.0 && fy >= 1.0 && fy <= bottom - 1.0)) return 0;
    }
    return 1;
}

// row_positions four columns at a time with AVX2: the same double operations in the same order (no FMA), the
// division done for every lane and zeroed where W is 0, as OpenCV's SSE4.1 line does; NaN to the low end as
// clamp_position sends it. About three times as fast as the scalar loop, whose division dominates the crop.
__attribute__((target("avx2")))
static int row_positions_avx2(const double m[9], int64_t width, int64_t height, int64_t output_width, int64_t output_height,
                              int64_t y, double *position_x, double *position_y) {
    int64_t block_height = output_height < 16 ? output_height : 16;
    int64_t block_width = 1024 / block_height < output_width ? 1024 / block_height : output_width;
    const double right = (double)((width - 1) * 32 - 1), bottom = (double)((height - 1) * 32 - 1);
    const __m256d limit = _mm256_set1_pd(position_limit), negative_limit = _mm256_set1_pd(-position_limit);
    const __m256d zero = _mm256_setzero_pd(), thirty_two = _mm256_set1_pd(32.0), four = _mm256_set1_pd(4.0);
    const __m256d m0 = _mm256_set1_pd(m[0]), m3 = _mm256_set1_pd(m[3]), m6 = _mm256_set1_pd(m[6]);
    const __m256d right_v = _mm256_set1_pd(right), bottom_v = _mm256_set1_pd(bottom);
    __m256d inside_v = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    int inside = 1;
    for (int64_t start = 0; start < output_width; start += block_width) {
        int64_t count = output_width - start < block_width ? output_width - start : block_width;
        double x0 = m[0] * (double)start + m[1] * (double)y + m[2];
        double y0 = m[3] * (double)start + m[4] * (double)y + m[5];
        double w0 = m[6] * (double)start + m[7] * (double)y + m[8];
        const __m256d x0_v = _mm256_set1_pd(x0), y0_v = _mm256_set1_pd(y0), w0_v = _mm256_set1_pd(w0);
        __m256d column = _mm256_setr_pd(0, 1, 2, 3);
        int64_t x1 = 0;
        if (block_inside(m, x0, y0, w0, count, right, bottom)) {
            // The same operations without the clamps and checks (W is never 0 here).
            for (; x1 + 4 <= count; x1 += 4) {
                const __m256d w = _mm256_div_pd(thirty_two, _mm256_add_pd(w0_v, _mm256_mul_pd(m6, column)));
                _mm256_storeu_pd(position_x + start + x1, _mm256_mul_pd(_mm256_add_pd(x0_v, _mm256_mul_pd(m0, column)), w));
                _mm256_storeu_pd(position_y + start + x1, _mm256_mul_pd(_mm256_add_pd(y0_v, _mm256_mul_pd(m3, column)), w));
                column = _mm256_add_pd(column, four);
            }
            block_columns(m, x0, y0, w0, x1, count, right, bottom, position_x + start, position_y + start);
            continue;
        }
        for (; x1 + 4 <= count; x1 += 4) {
            __m256d w = _mm256_add_pd(w0_v, _mm256_mul_pd(m6, column));
            w = _mm256_andnot_pd(_mm256_cmp_pd(w, zero, _CMP_EQ_OQ), _mm256_div_pd(thirty_two, w));
            __m256d fx = _mm256_mul_pd(_mm256_add_pd(x0_v, _mm256_mul_pd(m0, column)), w);
            __m256d fy = _mm256_mul_pd(_mm256_add_pd(y0_v, _mm256_mul_pd(m3, column)), w);
            // value >= -limit ? min(value, limit) : -limit (NaN fails the comparison: -limit).
            fx = _mm256_blendv_pd(negative_limit, _mm256_min_pd(fx, limit), _mm256_cmp_pd(fx, negative_limit, _CMP_GE_OQ));
            fy = _mm256_blendv_pd(negative_limit, _mm256_min_pd(fy, limit), _mm256_cmp_pd(fy, negative_limit, _CMP_GE_OQ));
            _mm256_storeu_pd(position_x + start + x1, fx);
            _mm256_storeu_pd(position_y + start + x1, fy);
            __m256d ok = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(fx, zero, _CMP_GE_OQ), _mm256_cmp_pd(fx, right_v, _CMP_LE_OQ)),
                                       _mm256_and_pd(_mm256_cmp_pd(fy, zero, _CMP_GE_OQ), _mm256_cmp_pd(fy, bottom_v, _CMP_LE_OQ)));
            inside_v = _mm256_and_pd(inside_v, ok);
            column = _mm256_add_pd(column, four);
        }
        inside &= block_columns(m, x0, y0, w0, x1, count, right, bottom, position_x + start, position_y + start);
    }
    return inside && _mm256_movemask_pd(inside_v) == 0xF;
}

// row_positions_avx2 eight columns at a time with AVX-512F.
__attribute__((target("avx512f,avx2")))
static int row_positions_avx512(const double m[9], int64_t width, int64_t height, int64_t output_width, int64_t output_height,
                                int64_t y, double *position_x, double *position_y) {
    int64_t block_height = output_height < 16 ? output_height : 16;
    int64_t block_width = 1024 / block_height < output_width ? 1024 / block_height : output_width;
    const double right = (double)((width - 1) * 32 - 1), bottom = (double)((height - 1) * 32 - 1);
    const __m512d limit = _mm512_set1_pd(position_limit), negative_limit = _mm512_set1_pd(-position_limit);
    const __m512d zero = _mm512_setzero_pd(), thirty_two = _mm512_set1_pd(32.0), eight = _mm512_set1_pd(8.0);
    const __m512d m0 = _mm512_set1_pd(m[0]), m3 = _mm512_set1_pd(m[3]), m6 = _mm512_set1_pd(m[6]);
    const __m512d right_v = _mm512_set1_pd(right), bottom_v = _mm512_set1_pd(bottom);
    __mmask8 inside_mask = 0xFF;
    int inside = 1;
    for (int64_t start = 0; start < output_width; start += block_width) {
        int64_t count = output_width - start < block_width ? output_width - start : block_width;
        double x0 = m[0] * (double)start + m[1] * (double)y + m[2];
        double y0 = m[3] * (double)start + m[4] * (double)y + m[5];
        double w0 = m[6] * (double)start + m[7] * (double)y + m[8];
        const __m512d x0_v = _mm512_set1_pd(x0), y0_v = _mm512_set1_pd(y0), w0_v = _mm512_set1_pd(w0);
        __m512d column = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7);
        int64_t x1 = 0;
        if (block_inside(m, x0, y0, w0, count, right, bottom)) {
            // The same operations without the clamps and checks (W is never 0 here).
            for (; x1 + 8 <= count; x1 += 8) {
                const __m512d w = _mm512_div_pd(thirty_two, _mm512_add_pd(w0_v, _mm512_mul_pd(m6, column)));
                _mm512_storeu_pd(position_x + start + x1, _mm512_mul_pd(_mm512_add_pd(x0_v, _mm512_mul_pd(m0, column)), w));
                _mm512_storeu_pd(position_y + start + x1, _mm512_mul_pd(_mm512_add_pd(y0_v, _mm512_mul_pd(m3, column)), w));
                column = _mm512_add_pd(column, eight);
            }
            block_columns(m, x0, y0, w0, x1, count, right, bottom, position_x + start, position_y + start);
            continue;
        }
        for (; x1 + 8 <= count; x1 += 8) {
            __m512d w = _mm512_add_pd(w0_v, _mm512_mul_pd(m6, column));
            w = _mm512_maskz_div_pd(_mm512_cmp_pd_mask(w, zero, _CMP_NEQ_UQ), thirty_two, w);
            __m512d fx = _mm512_mul_pd(_mm512_add_pd(x0_v, _mm512_mul_pd(m0, column)), w);
            __m512d fy = _mm512_mul_pd(_mm512_add_pd(y0_v, _mm512_mul_pd(m3, column)), w);
            fx = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(fx, negative_limit, _CMP_GE_OQ), negative_limit, _mm512_min_pd(fx, limit));
            fy = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(fy, negative_limit, _CMP_GE_OQ), negative_limit, _mm512_min_pd(fy, limit));
            _mm512_storeu_pd(position_x + start + x1, fx);
            _mm512_storeu_pd(position_y + start + x1, fy);
            inside_mask &= _mm512_cmp_pd_mask(fx, zero, _CMP_GE_OQ) & _mm512_cmp_pd_mask(fx, right_v, _CMP_LE_OQ)
                & _mm512_cmp_pd_mask(fy, zero, _CMP_GE_OQ) & _mm512_cmp_pd_mask(fy, bottom_v, _CMP_LE_OQ);
            column = _mm512_add_pd(column, eight);
        }
        inside &= block_columns(m, x0, y0, w0, x1, count, right, bottom, position_x + start, position_y + start);
    }
    return inside && inside_mask == 0xFF;
}
#endif

// Asks for the photo's pixels under the region before the rows need them: the rows' reads depend on
// computed addresses, one after another, and a photo that other work pushed out of the cache would make each
// wait for memory in turn; prefetches of the region's bounding box (when it is at most 1 MiB of the photo)
// let the memory fetch them all at once.
static void prefetch_region(const uint8_t *pixels, int64_t width, int64_t height, const float corners[8]) {
    double left = corners[0], right = corners[0], top = corners[1], bottom = corners[1];
    for (int corner = 1; corner < 4; corner++) {
        double x = corners[2 * corner], y = corners[2 * corner + 1];
        left = x < left ? x : left;
        right = x > right ? x : right;
        top = y < top ? y : top;
        bottom = y > bottom ? y : bottom;
    }
    if (!(left <= right && top <= bottom)) return;  // NaN
    left = left < 0 ? 0 : left;
    top = top < 0 ? 0 : top;
    right = right > (double)(width - 1) ? (double)(width - 1) : right;
    bottom = bottom > (double)(height - 1) ? (double)(height - 1) : bottom;
    if (left > right || top > bottom) return;
    int64_t first_column = (int64_t)left, last_column = (int64_t)right + 1, first_row = (int64_t)top, last_row = (int64_t)bottom + 1;
    if (last_column >= width) last_column = width - 1;
    if (last_row >= height) last_row = height - 1;
    if ((last_row - first_row + 1) * (last_column - first_column + 1) * 4 > (1 << 20)) return;
    for (int64_t y = first_row; y <= last_row; y++) {
        const uint8_t *line = pixels + (y * width) * 4;
        for (int64_t x = first_column * 4; x <= last_column * 4 + 3; x += 64) __builtin_prefetch(line + x);
        __builtin_prefetch(line + last_column * 4 + 3);
    }
}

void tio_region_crop(const uint8_t *pixels, int64_t width, int64_t height, const float corners[8],
                     int64_t output_width, int64_t output_height, uint8_t *output,
                     double *position_x, double *position_y, int allow_vector) {
    double m[9];
    tio_region_matrix(corners, output_width, output_height, m);
    int vector = 0, wide = 0;
#if defined(__x86_64__)
    // The pair reads need two columns and two rows; the 32-bit lanes need the positions ((side - 1) × 32) and
    // the byte offsets (width × height × 4) within an int32.
    vector = allow_vector >= 1 && width >= 2 && height >= 2 && width <= (1 << 26) && height <= (1 << 26) && width * height <= INT32_MAX / 4
        && __builtin_cpu_supports("avx2");
    wide = vector && allow_vector >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
    prefetch_region(pixels, width, height, corners);
    for (int64_t y = 0; y < output_height; y++) {
        uint8_t *row = output + y * output_width * 4;
#if defined(__x86_64__)
        int inside = wide ? row_positions_avx512(m, width, height, output_width, output_height, y, position_x, position_y)
            : vector ? row_positions_avx2(m, width, height, output_width, output_height, y, position_x, position_y)
                     : row_positions(m, width, height, output_width, output_height, y, position_x, position_y);
#else
        int inside = row_positions(m, width, height, output_width, output_height, y, position_x, position_y);
#endif
#if defined(__x86_64__)
        if (vector && inside) {
            if (wide) {
                crop_row_inside_avx512(pixels, width, height, position_x, position_y, 0.0, 0.0, output_width, row);
            } else {
                crop_row_inside_avx2(pixels, width, height, position_x, position_y, 0.0, 0.0, output_width, row);
            }
            continue;
        }
        if (vector) {
            crop_row_avx2(pixels, width, height, position_x, position_y, 0.0, 0.0, output_width, row);
            continue;
        }
#endif
        (void)inside;
        crop_row_portable(pixels, width, height, position_x, position_y, 0.0, 0.0, 0, output_width, row);
    }
}
