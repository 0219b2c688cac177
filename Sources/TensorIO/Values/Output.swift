public import Foundation

/// What one output layer produced: the layer's name and its value.
///
/// Read the value with the accessor for its kind, or switch over ``value``:
///
/// ```swift
/// let outputs = try model.run(image)
/// let top5 = try outputs["probabilities"].labeled.top(5)
/// let boxes = try outputs["boxes"].values(as: Float.self)
/// let count = try outputs["count"].value(as: Int.self)
/// ```
///
/// Each accessor throws ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) naming the output when
/// it holds another kind of value, so a wrong guess about a model never passes as an empty result.
public struct Output: Sendable, Hashable {
    /// The kinds of value an output layer produces; one per kind of layer.
    public enum Value: Sendable, Hashable {
        /// The numbers of an `array` or `scalar` layer, flattened row-major, with the tensor's shape.
        ///
        /// Numbers keep the tensor's element type (`UInt8`, `Int32`, `Float`…); dequantized layers and
        /// float16 tensors give `Float`.
        case numbers(NumericArray, shape: [Int])
        /// A labelled `array` layer: one score per label.
        case labeled(LabeledScores)
        /// An `image` layer: the tensor denormalized into pixels (RGBA, or gray for one channel).
        case image(PixelBuffer)
        /// A `string` layer: the tensor's raw bytes.
        case bytes(Data)
    }

    /// The output layer's name.
    public let name: String
    /// The value the layer produced.
    public let value: Value

    /// Creates an output (for models of your own types).
    ///
    /// - Parameters:
    ///   - name: The output layer's name.
    ///   - value: Its value.
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    /// The numbers of an `array` or `scalar` output (a labelled output's scores too), converted to `type`.
    ///
    /// Numbers of the tensor's own type are returned without conversion. Otherwise every value must fit:
    /// integer types take integral values in their range, `Bool` takes 0 and 1, and `Float` and `Double`
    /// take any number (rounding to the nearest).
    ///
    /// - Parameter type: The Swift number type wanted, such as `Float.self`.
    /// - Returns: The values, flattened row-major.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) when the output holds an image
    ///   or bytes, or a value does not fit `type`.
    public func values<Number: TensorScalar>(as type: Number.Type) throws -> [Number] {
        let numbers: NumericArray
        switch value {
        case .numbers(let values, _): numbers = values
        case .labeled(let scores): numbers = .float32(scores.scores)
        case .image, .bytes: throw mismatch("holds \(value.kindDescription), not numbers")
        }
        guard let converted = numbers.converted(to: type) else {
            throw mismatch("holds \(numbers.elementTypeName) values that do not all fit \(Number.self)")
        }
        return converted
    }

    /// The single number of a one-element `array` or `scalar` output, converted to `type` as
    /// ``values(as:)`` converts.
    ///
    /// - Parameter type: The Swift number type wanted, such as `Float.self`.
    /// - Returns: The number.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) when the output holds another
    ///   count of numbers, an image or bytes, or the number does not fit `type`.
    public func value<Number: TensorScalar>(as type: Number.Type) throws -> Number {
        let numbers = try values(as: type)
        guard numbers.count == 1 else { throw mismatch("holds \(numbers.count) numbers, not one") }
        return numbers[0]
    }

    /// The shape of a numbers output (the tensor's real shape), or `[count]` for labelled scores.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) for an image or bytes output.
    public var shape: [Int] {
        get throws {
            switch value {
            case .numbers(_, let shape): return shape
            case .labeled(let scores): return [scores.count]
            case .image, .bytes: throw mismatch("holds \(value.kindDescription), not numbers")
            }
        }
    }

    /// A labelled output's scores.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) when the output is not labelled.
    public var labeled: LabeledScores {
        get throws {
            guard case .labeled(let scores) = value else {
                throw mismatch("holds \(value.kindDescription), not labelled scores (its layer has no labels)")
            }
            return scores
        }
    }

    /// An image output's pixels.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) when the output is not an image.
    public var image: PixelBuffer {
        get throws {
            guard case .image(let image) = value else { throw mismatch("holds \(value.kindDescription), not an image") }
            return image
        }
    }

    /// A `string` output's raw bytes.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) when the output is not bytes.
    public var bytes: Data {
        get throws {
            guard case .bytes(let data) = value else { throw mismatch("holds \(value.kindDescription), not bytes") }
            return data
        }
    }

    private func mismatch(_ message: String) -> TensorIOError {
        TensorIOError.outputMismatch("the output \(message)", output: name)
    }
}

extension Output {
    /// What `try? value(as: Double.self)` gives — the single number as a `Double`, or `nil` — read without
    /// its generic conversion for the outputs a training step returns (a float32 or float64 loss): that
    /// conversion's dynamic casts, made for every output of every step, cost more than a few percent of a
    /// small model's step.
    var singleDouble: Double? {
        switch value {
        case .numbers(.float32(let numbers), _): return numbers.count == 1 ? Double(numbers[0]) : nil
        case .numbers(.float64(let numbers), _): return numbers.count == 1 ? numbers[0] : nil
        default: return try? self.value(as: Double.self)
        }
    }
}

extension Output.Value {
    /// "3 numbers", "10 labelled scores", "a 224×224 image", "12 bytes": for error messages.
    var kindDescription: String {
        switch self {
        case .numbers(let numbers, _): return numbers.count == 1 ? "1 number" : "\(numbers.count) numbers"
        case .labeled(let scores): return "\(scores.count) labelled scores"
        case .image(let image): return "a \(image.width)×\(image.height) image"
        case .bytes(let data): return "\(data.count) bytes"
        }
    }
}
