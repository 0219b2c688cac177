public import Foundation

/// What one output layer produced.
public enum Output: Sendable, Hashable {
    /// A layer with a single element.
    case number(Scalar)
    /// A layer with several elements.
    case tensor(TensorArray)
    /// A labelled layer: a score per label.
    case scores(LabeledScores)
    /// A string layer: raw bytes.
    case bytes(Data)
    /// An image layer: the tensor denormalized into pixels (RGBA, or gray for one channel).
    case image(PixelBuffer)

    /// A single-element layer's value as a `Double`.
    public var scalar: Double? {
        if case .number(let value) = self { return value.doubleValue }
        return nil
    }

    /// A several-element layer's values.
    public var array: TensorArray? {
        if case .tensor(let value) = self { return value }
        return nil
    }

    /// A labelled layer's scores.
    public var labeled: LabeledScores? {
        if case .scores(let value) = self { return value }
        return nil
    }

    /// An image layer's pixels.
    public var pixelBuffer: PixelBuffer? {
        if case .image(let value) = self { return value }
        return nil
    }

    /// A string layer's bytes.
    public var data: Data? {
        if case .bytes(let value) = self { return value }
        return nil
    }
}
