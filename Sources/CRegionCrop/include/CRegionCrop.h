#ifndef CREGIONCROP_H
#define CREGIONCROP_H

#include <stdint.h>

/// The map from output pixels to photo positions that OpenCV's warpPerspective uses for MediaPipe's crop:
/// cv::getPerspectiveTransform of the region's corners (cv::boxPoints order, Float: bottom-left x, y, top-left,
/// top-right, bottom-right) onto the output's (0, h), (0, 0), (w, 0), (w, h), solved as OpenCV's LU solves it,
/// then inverted as cv::invert inverts a 3 × 3 matrix; row-major, 9 doubles (all zero where OpenCV's solve or
/// invert fails).
void tio_region_matrix(const float corners[8], int64_t output_width, int64_t output_height, double matrix[9]);

/// The crop of a rotated region of a 4-byte-a-pixel photo, as OpenCV's warpPerspective (INTER_LINEAR,
/// BORDER_REPLICATE) computes it — see Sources/TensorIOVision/Landmarks/RegionCrop.swift, which checks every
/// size and calls this.
///
/// Output pixel (x, y) samples the photo where tio_region_matrix's map sends it, computed as OpenCV's
/// WarpPerspectiveInvoker does (in blocks of columns, dividing by the projective term), kept within
/// ±INT32_MAX / 32 and rounded to 1/32 of a pixel (ties to even), clamped to the photo's first and last pixel;
/// its four neighbours are blended with the weights (32 - fx)(32 - fy) and so on, (sum + 512) >> 10.
///
/// - pixels: width × height × 4 bytes; width, height ≥ 1.
/// - corners: the region's corners, as for tio_region_matrix.
/// - output: outputWidth × outputHeight × 4 bytes; position_x and position_y: outputWidth doubles of scratch.
/// - allow_vector: the widest path allowed where the processor has it: 0 the portable one, 1 AVX2, 2 AVX-512
///   (the tests check each).
void tio_region_crop(const uint8_t *pixels, int64_t width, int64_t height, const float corners[8],
                     int64_t output_width, int64_t output_height, uint8_t *output,
                     double *position_x, double *position_y, int allow_vector);

#endif
