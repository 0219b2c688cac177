import TensorIO

/// One detection before or after non-maximum suppression: a box, its best class and keypoints, all in
/// the model's input coordinates normalized to 0…1 (MediaPipe's `Detection` with a
/// `relative_bounding_box` and `relative_keypoints`).
struct DetectionCandidate: Sendable, Hashable {
    /// A keypoint, normalized like the box.
    struct Keypoint: Sendable, Hashable {
        var x: Float
        var y: Float
    }

    /// The box's left edge.
    var xMin: Float
    /// The box's top edge (its bottom edge before flipping, with ``BoxDecodingOptions/flipVertically``).
    var yMin: Float
    var width: Float
    var height: Float
    /// The class's score: a probability when the decoder applied the sigmoid, else the raw score.
    var score: Float
    /// The index of the best-scoring allowed class.
    var classIndex: Int
    var keypoints: [Keypoint] = []

    /// The right edge.
    var xMax: Float { xMin + width }
    /// The bottom edge.
    var yMax: Float { yMin + height }
}
