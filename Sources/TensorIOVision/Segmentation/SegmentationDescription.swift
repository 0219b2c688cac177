public import TensorIO

/// How a bundle's output becomes a ``SegmentationMask``: the `segmentation` entry of `model.json`
/// (docs/model-json.md, "Segmentation").
///
/// The output is an image-like tensor, `[1, height, width, categories]` (or `[height, width,
/// categories]`): one score per pixel and category. The description says how the scores become
/// confidences (`activation`), what each category is called (`labels`) and, for a one-category model
/// (a foreground), from which confidence a pixel is foreground (`threshold`).
public struct SegmentationDescription: Sendable, Hashable {
    /// How raw scores become confidences: MediaPipe's `SegmenterOptions.Activation`.
    public enum Activation: String, Sendable, Hashable, CaseIterable {
        /// The scores are confidences already.
        case none
        /// Each score on its own: `1 / (1 + exp(−s))`.
        case sigmoid
        /// Each pixel's scores together: `exp(s − max) / Σ exp(s − max)`.
        case softmax
    }

    /// The output holding the scores.
    public let output: String
    /// How the scores become confidences (`activation`, default `Activation/none`).
    public let activation: Activation
    /// From which confidence a pixel of a one-category model is foreground (`threshold`, default 0.5:
    /// MediaPipe's cutoff). Models with several categories take each pixel's most confident one.
    public let threshold: Float
    /// The category labels by index (`labels`: a file in `assets/`, one label per line); `nil` when the
    /// model has none.
    public internal(set) var labels: LayerLabels?
    /// The labels file named in `model.json`, read when the bundle opens.
    let labelsFile: String?

    /// The most categories a mask may have: category indices are bytes.
    public static let maximumCategories = 256
}
