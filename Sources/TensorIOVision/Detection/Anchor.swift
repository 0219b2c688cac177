import TensorIO

/// One SSD anchor: the prior box a detection model predicts offsets from (MediaPipe's `Anchor` proto).
///
/// Centres are normalized to the model's input (0…1). Sizes are normalized too, except with
/// ``SSDAnchorOptions/fixedAnchorSize``, where every anchor is 1 × 1 and the model predicts sizes
/// directly (divided by the decoder's scales).
struct Anchor: Sendable, Hashable {
    var xCenter: Float
    var yCenter: Float
    var width: Float
    var height: Float
}
