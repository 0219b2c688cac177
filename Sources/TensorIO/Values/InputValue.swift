public import Foundation

/// A value given to a model: numbers, raw bytes, an ordered list of values, or values by layer name.
///
/// You rarely build one yourself: numbers, arrays, `Data` and dictionaries convert through
/// ``ModelInput``. Use it to mix kinds in one call:
///
/// ```swift
/// let inputs: [String: InputValue] = ["features": [1, 2, 3], "mask": .bytes(maskData)]
/// try model.run(inputs)
/// ```
public enum InputValue: Sendable, Hashable {
    /// Numbers, flattened row-major; one number is an array of one.
    case numbers(NumericArray)
    /// Raw bytes in the layer's element type, copied as they are.
    case bytes(Data)
    /// An ordered list: values for the layers by position, or the rows of one layer's value.
    case list([InputValue])
    /// Values by layer name.
    case named([String: InputValue])
    /// An image, for an image layer: oriented, fitted, converted and normalized on the way in.
    case image(PixelBuffer)

    /// How many numbers the value holds once flattened, or `nil` when it holds bytes or names.
    var flattenedCount: Int? {
        switch self {
        case .numbers(let numbers): return numbers.count
        case .bytes, .named, .image: return nil
        case .list(let items):
            var total = 0
            for item in items {
                guard let count = item.flattenedCount else { return nil }
                total += count
            }
            return total
        }
    }

    /// A short description for error messages: "3 numbers", "12 bytes", "a list of 2 values".
    var summary: String {
        switch self {
        case .numbers(let numbers): return numbers.count == 1 ? "1 number" : "\(numbers.count) numbers"
        case .bytes(let data): return "\(data.count) bytes"
        case .list(let items):
            if let count = flattenedCount { return count == 1 ? "1 number" : "\(count) numbers" }
            return "a list of \(items.count) values"
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
