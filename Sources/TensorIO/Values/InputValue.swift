public import Foundation

/// A value given to a model: numbers, raw bytes, an image, values by layer name, or values by position.
///
/// You rarely build one yourself: numbers, arrays, `Data`, images and dictionaries convert through
/// ``ModelInput``. One rule decides what a list means, and it depends only on the value, never on the
/// model: **an array of numbers, nested to any depth, is one value** — a tensor, flattened row-major. Give
/// several input layers their values by name (a dictionary), or in layer order with
/// ``positional(_:)``:
///
/// ```swift
/// try model.run([[1, 2], [3, 4]])                       // one 2×2 value for a one-input model
/// try model.run(["features": [1, 2, 3], "mask": .bytes(maskData)])
/// try model.run(.positional([[1, 2, 3], .bytes(maskData)]))
/// ```
///
/// An array of values that are not all numbers (`Data`, images, dictionaries) cannot be one tensor, so it
/// stands for ``positional(_:)`` too.
public enum InputValue: Sendable, Hashable {
    /// Numbers, flattened row-major; one number is an array of one.
    case numbers(NumericArray)
    /// Raw bytes in the layer's element type, copied as they are.
    case bytes(Data)
    /// An image, for an image layer: oriented, fitted, converted and normalized on the way in.
    case image(PixelBuffer)
    /// Values by layer name.
    case named([String: InputValue])
    /// Values for the input layers in their `model.json` order, one per layer.
    case positional([InputValue])

    /// A short description for error messages: "3 numbers", "12 bytes", "a positional list of 2 values".
    var summary: String {
        switch self {
        case .numbers(let numbers): return numbers.count == 1 ? "1 number" : "\(numbers.count) numbers"
        case .bytes(let data): return "\(data.count) bytes"
        case .positional(let items): return "a positional list of \(items.count) value\(items.count == 1 ? "" : "s")"
        case .named(let values): return "a dictionary of \(values.count) values"
        case .image(let image): return "a \(image.width)×\(image.height) image"
        }
    }
}

extension InputValue: ModelInput {
    public var inputValue: InputValue { self }
}

extension InputValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .numbers(.int([value])) }
}

extension InputValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .numbers(.float64([value])) }
}

extension InputValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: InputValue...) { self = InputValue.inputValue(of: elements) }
}

extension InputValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, InputValue)...) {
        self = .named(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
