#ifndef CREGIONCROP_H
#define CREGIONCROP_H

#include <stdint.h>

/// The crop of a rotated region of a 4-byte-a-pixel photo, as OpenCV's warpPerspective (INTER_LINEAR,
/// BORDER_REPLICATE) computes it for an affine map — see Sources/TensorIOVision/Landmarks/RegionCrop.swift,
/// which checks every size and calls this.
///
/// Output pixel (x, y) samples the photo at origin + x * across + y * down (in doubles, in that order), kept
/// within ±INT32_MAX / 32 and rounded to 1/32 of a pixel (ties to even), clamped to the photo's first and last
/// pixel; its four neighbours are blended with the weights (32 - fx)(32 - fy) and so on, (sum + 512) >> 10.
///
/// - pixels: width × height × 4 bytes; width, height ≥ 1.
/// - output: outputWidth × outputHeight × 4 bytes; column_x and column_y: outputWidth doubles of scratch.
/// - allow_vector: the widest path allowed where the processor has it: 0 the portable one, 1 AVX2, 2 AVX-512
///   (the tests check each).
void tio_region_crop(const uint8_t *pixels, int64_t width, int64_t height,
                     double origin_x, double origin_y, double across_x, double across_y, double down_x, double down_y,
                     int64_t output_width, int64_t output_height, uint8_t *output,
                     double *column_x, double *column_y, int allow_vector);

#endif
