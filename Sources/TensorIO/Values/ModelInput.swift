public import Foundation

/// A Swift value a model can take as input.
///
/// Numbers of every standard numeric type, `Bool`, `Data`, arrays of these (nested arrays are flattened
/// row-major), dictionaries keyed by layer name, and ``InputValue`` conform. Conform your own types by
/// returning the ``InputValue`` they stand for.
public protocol ModelInput: Sendable {
    /// The value this instance stands for.
    var inputValue: InputValue { get }

    /// The value an array of this type stands for. The default is a ``InputValue/list(_:)`` of the
    /// elements' values; number types return ``InputValue/numbers(_:)`` without boxing each element.
    static func inputValue(of elements: [Self]) -> InputValue
}

extension ModelInput {
    public static func inputValue(of elements: [Self]) -> InputValue {
        let values = elements.map(\.inputValue)
        // A list of single numbers is one array of numbers (so `[InputValue]` literals like [1, 2.5]
        // stay flat); anything else keeps its structure for matching by position.
        if values.allSatisfy({ if case .numbers(let n) = $0 { n.count == 1 } else { false } }),
           let joined = NumericArray(joining: values.compactMap { if case .numbers(let n) = $0 { n } else { nil } })
        {
            return .numbers(joined)
        }
        return .list(values)
    }
}

extension ModelInput where Self: TensorScalar {
    public var inputValue: InputValue { .numbers(Self.numericArray([self])) }
    public static func inputValue(of elements: [Self]) -> InputValue { .numbers(Self.numericArray(elements)) }
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
