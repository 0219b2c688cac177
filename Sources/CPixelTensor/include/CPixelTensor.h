#ifndef CPIXELTENSOR_H
#define CPIXELTENSOR_H

#include <stdint.h>

/// A 4-byte-a-pixel image written into a float32 tensor of three channels, each normalized:
/// output[3 i + c] = fmaf(pixels[4 i + offsets[c]], scales[c], biases[c]) — the product and the sum rounded
/// once, as OpenCV's convertTo computes MediaPipe's tensors with its FMA instructions (PixelNormalizer) — the
/// same bits on every path.
///
/// - pixels: count × 4 bytes; output: count × 3 floats; offsets: each 0 to 3 (the byte each channel takes).
/// - allow_vector: 0 the portable path, 1 AVX2 and FMA where the processor has them (chosen at run time; the
///   tests check both).
void tio_pixels_to_float3(const uint8_t *pixels, int64_t count, const int32_t offsets[3], const float scales[3],
                          const float biases[3], float *output, int allow_vector);

#endif
