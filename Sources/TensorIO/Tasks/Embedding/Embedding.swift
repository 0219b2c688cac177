import Foundation

/// A photo's features as a vector, to compare with another's by ``cosineSimilarity(to:)``.
///
/// Either float values (``values``) or, when quantized, bytes (``quantizedValues``): each value of the
/// (optionally L2-normalized) vector as `clamp(round(v × 128), −128, 127)`, MediaPipe's scalar quantization.
public struct Embedding: Sendable, Hashable {
    /// The float values; empty when the embedding is quantized.
    public let values: [Float]
    /// The quantized values; empty when the embedding holds floats.
    public let quantizedValues: [Int8]

    /// Whether the values are quantized bytes.
    public var isQuantized: Bool { !quantizedValues.isEmpty }

    /// The number of values.
    public var count: Int { isQuantized ? quantizedValues.count : values.count }

    /// An embedding of float values.
    ///
    /// - Parameter values: The values.
    public init(values: [Float]) {
        self.values = values
        self.quantizedValues = []
    }

    /// An embedding of quantized values.
    ///
    /// - Parameter quantizedValues: The values as bytes.
    public init(quantizedValues: [Int8]) {
        self.values = []
        self.quantizedValues = quantizedValues
    }

    /// The embedding of a model's raw vector: L2-normalized and quantized as asked.
    ///
    /// - Parameters:
    ///   - raw: The model's output values.
    ///   - normalizing: Whether to divide by the L2 norm (a zero vector stays zero).
    ///   - quantizing: Whether to quantize to bytes.
    init(raw: [Float], normalizing: Bool, quantizing: Bool) {
        var scale: Float = 1
        if normalizing {
            // Summed in double (MediaPipe sums in float): the scales differ by far less than the 1e-4 a comparison allows.
            let norm = raw.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
            if norm > 0 { scale = Float(1 / norm) }
        }
        if quantizing {
            self.init(quantizedValues: raw.map { value in
                let scaled = (value * scale * 128).rounded(.toNearestOrAwayFromZero)
                guard scaled.isFinite else { return scaled.isNaN ? 0 : (scaled > 0 ? 127 : -128) }
                return Int8(max(-128, min(127, scaled)))
            })
        } else {
            self.init(values: scale == 1 ? raw : raw.map { $0 * scale })
        }
    }

    /// The cosine of the angle between this embedding and `other`: 1 for the same direction, 0 for
    /// unrelated, −1 for opposite. Computed in double precision, as MediaPipe's `cosine_similarity`.
    ///
    /// - Parameter other: An embedding of the same kind (float or quantized) and size.
    /// - Returns: The similarity, from −1 to 1.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when the two differ in size or kind,
    ///   are empty, or one is a zero vector (it has no direction).
    public func cosineSimilarity(to other: Embedding) throws -> Double {
        guard isQuantized == other.isQuantized else {
            throw TensorIOError(.invalidInput, "cannot compare a quantized embedding with a float one: make both the same way")
        }
        guard count == other.count, count > 0 else {
            throw TensorIOError(.invalidInput, "cannot compare embeddings of \(count) and \(other.count) values: they must have the same size, at least 1")
        }
        let (u, v) = isQuantized
            ? (quantizedValues.map(Double.init), other.quantizedValues.map(Double.init))
            : (values.map(Double.init), other.values.map(Double.init))
        var (dot, normU, normV) = (0.0, 0.0, 0.0)
        for index in u.indices {
            dot += u[index] * v[index]
            normU += u[index] * u[index]
            normV += v[index] * v[index]
        }
        guard normU > 0, normV > 0, normU.isFinite, normV.isFinite else {
            throw TensorIOError(.invalidInput, "cannot compare an embedding of length 0 (or not finite): it has no direction")
        }
        return dot / (normU * normV).squareRoot()
    }
}
