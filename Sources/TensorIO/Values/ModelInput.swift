public import Foundation

/// A Swift value a model can take as input.
///
/// Numbers of every standard numeric type, `Bool`, `Data`, images, arrays of these (arrays of numbers,
/// nested or not, are one tensor flattened row-major; see ``InputValue`` for the rule), dictionaries keyed
/// by layer name, and ``InputValue`` conform. Conform your own types by
/// returning the ``InputValue`` they stand for.
public protocol ModelInput: Sendable {
    /// The value this instance stands for.
    var inputValue: InputValue { get }

    /// The value an array of this type stands for. The default joins numbers into one
    /// ``InputValue/numbers(_:)`` and lists anything else as ``InputValue/positional(_:)``; number types
    /// return ``InputValue/numbers(_:)`` without boxing each element.
    static func inputValue(of elements: [Self]) -> InputValue
}

extension ModelInput {
    public static func inputValue(of elements: [Self]) -> InputValue {
        let values = elements.map(\.inputValue)
        // Numbers nested to any depth are one tensor, whatever the model (InputValue's one rule for lists);
        // anything else cannot be one tensor and lists values by position.
        var parts: [NumericArray] = []
        parts.reserveCapacity(values.count)
        for value in values {
            guard case .numbers(let numbers) = value else { return .positional(values) }
            parts.append(numbers)
        }
        return .numbers(NumericArray(joining: parts) ?? .float32([]))
    }
}

extension Array: ModelInput where Element: ModelInput {
    public var inputValue: InputValue { Element.inputValue(of: self) }
}

extension ContiguousArray: ModelInput where Element: ModelInput {
    public var inputValue: InputValue { Element.inputValue(of: Array(self)) }
}

extension Dictionary: ModelInput where Key == String, Value: ModelInput {
    public var inputValue: InputValue { .named(mapValues(\.inputValue)) }
}

extension Data: ModelInput {
    public var inputValue: InputValue { .bytes(self) }
}

extension PixelBuffer: ModelInput {
    public var inputValue: InputValue { .image(self) }
}
