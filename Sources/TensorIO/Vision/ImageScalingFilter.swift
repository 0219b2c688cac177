/// How an image's pixels are resampled to an image layer's size.
///
/// A model gives its best answers on pixels made the way its authors made them when they measured it.
/// MediaPipe's detectors and segmenters, for instance, were tuned on OpenCV's bilinear warp, which
/// samples without averaging; an area average of the same photo softens small faces enough to move a
/// detected box by tens of pixels. `model.json` gives an image layer's filter as `scaling`; an app can
/// override it with ``ModelConfiguration/imageScalingFilter``, the `tensorio` tool with `--scaling`.
public enum ImageScalingFilter: String, Sendable, Hashable, CaseIterable {
    /// An area average when reducing (every source pixel counts, as in a photo editor), bilinear when
    /// enlarging: libyuv's box filter. The default, and what classifiers of the original were run with.
    case box
    /// Bilinear interpolation without antialiasing, as OpenCV's `warpAffine`/`warpPerspective` with
    /// `INTER_LINEAR` samples (MediaPipe's image-to-tensor step): each tensor pixel is interpolated from
    /// the four source pixels around the point it maps to, with OpenCV's 1/32-pixel weights; tensor pixel
    /// (i, j) maps to the source point at (i, j) times the scale, and what falls outside the photo is black.
    /// A JPEG is decoded at full size for it, since a reduced decode would average.
    case bilinear
    /// libyuv's `ARGBScale` with its bilinear filter, as the TFLite Task Library scales photos for its
    /// detectors and classifiers: bilinear interpolation between pixel centres, without antialiasing,
    /// with libyuv's 7-bit weights (which leave a resized image about one level in 128 darker). A JPEG is
    /// decoded at full size for it.
    case libyuvBilinear = "libyuv-bilinear"
}
