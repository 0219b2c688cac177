// Image pixels into a float tensor: the conversion every float image model's input goes through (see
// CPixelTensor.h). The portable loop is the definition (fmaf: one rounding); the AVX2 path converts eight
// pixels at a time with the FMA instruction, which rounds the same way.
#include "CPixelTensor.h"

#include <math.h>
#include <stddef.h>

static void convert_portable(const uint8_t *pixels, int64_t from, int64_t count, const int32_t offsets[3],
                             const float scales[3], const float biases[3], float *output) {
    for (int64_t i = from; i < count; i++) {
        const uint8_t *pixel = pixels + i * 4;
        float *out = output + i * 3;
        out[0] = fmaf((float)pixel[offsets[0]], scales[0], biases[0]);
        out[1] = fmaf((float)pixel[offsets[1]], scales[1], biases[1]);
        out[2] = fmaf((float)pixel[offsets[2]], scales[2], biases[2]);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

/// Eight pixels a step: their 32 bytes shuffled into 24 channel bytes in the tensor's order, widened to
/// three vectors of eight floats, each a fused multiply-add with the channel pattern it starts on.
/// Returns how many pixels it converted (a multiple of eight).
__attribute__((target("avx2,fma")))
static int64_t convert_avx2(const uint8_t *pixels, int64_t count, const int32_t offsets[3], const float scales[3],
                            const float biases[3], float *output) {
    // Within each 16-byte half: pixels 0-3's chosen bytes into bytes 0-11, in channel order; -1 zeroes.
    char shuffle[16];
    for (int i = 0; i < 16; i++) shuffle[i] = -1;
    for (int p = 0; p < 4; p++) {
        for (int c = 0; c < 3; c++) shuffle[p * 3 + c] = (char)(p * 4 + offsets[c]);
    }
    const __m128i half = _mm_loadu_si128((const __m128i *)shuffle);
    const __m256i gather = _mm256_broadcastsi128_si256(half);
    // The two halves' twelve bytes side by side: dwords 0, 1, 2 then 4, 5, 6.
    const __m256i pack = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    float pattern_scale[24], pattern_bias[24];
    for (int i = 0; i < 24; i++) {
        pattern_scale[i] = scales[i % 3];
        pattern_bias[i] = biases[i % 3];
    }
    const __m256 s0 = _mm256_loadu_ps(pattern_scale), s1 = _mm256_loadu_ps(pattern_scale + 8), s2 = _mm256_loadu_ps(pattern_scale + 16);
    const __m256 b0 = _mm256_loadu_ps(pattern_bias), b1 = _mm256_loadu_ps(pattern_bias + 8), b2 = _mm256_loadu_ps(pattern_bias + 16);
    int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(pixels + i * 4));
        bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(bytes, gather), pack);
        const __m128i low = _mm256_castsi256_si128(bytes), high = _mm256_extracti128_si256(bytes, 1);
        const __m256 f0 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(low));
        const __m256 f1 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(low, 8)));
        const __m256 f2 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(high));
        float *out = output + i * 3;
        _mm256_storeu_ps(out, _mm256_fmadd_ps(f0, s0, b0));
        _mm256_storeu_ps(out + 8, _mm256_fmadd_ps(f1, s1, b1));
        _mm256_storeu_ps(out + 16, _mm256_fmadd_ps(f2, s2, b2));
    }
    return i;
}
#endif

void tio_pixels_to_float3(const uint8_t *pixels, int64_t count, const int32_t offsets[3], const float scales[3],
                          const float biases[3], float *output, int allow_vector) {
    int64_t done = 0;
#if defined(__x86_64__)
    if (allow_vector >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        done = convert_avx2(pixels, count, offsets, scales, biases, output);
    }
#endif
    convert_portable(pixels, done, count, offsets, scales, biases, output);
}
