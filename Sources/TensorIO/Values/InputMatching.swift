/// Matches the value given to a run with the model's input layers, as the original did: a dictionary by
/// layer name, a single value for a one-input model, else a list matched by position.
enum InputMatching {
    /// One value per input layer, in layer order.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming unknown or missing layers,
    ///   or saying how many values a multi-input model expects.
    static func values(for input: InputValue, layers: LayerList) throws -> [InputValue] {
        if case .named(let byName) = input {
            let unknown = byName.keys.filter { layers.index(forName: $0) == nil }.sorted()
            guard unknown.isEmpty else {
                throw TensorIOError.invalidInput(
                    "no input layer named \(quoted(unknown)); the inputs are \(quoted(layers.names))"
                )
            }
            let missing = layers.names.filter { byName[$0] == nil }
            guard missing.isEmpty else {
                throw TensorIOError.invalidInput("missing a value for the input layer \(quoted(missing))")
            }
            return layers.compactMap { byName[$0.name] }
        }
        if layers.count == 1 { return [input] }

        switch input {
        case .list(let items) where items.count == layers.count:
            return items
        case .numbers(let numbers) where numbers.count == layers.count:
            return (0..<numbers.count).map { .numbers(NumericArray(scalar: numbers[$0])) }
        default:
            // For a list, the count that matters here is its items, not the numbers they hold.
            let given = if case .list(let items) = input {
                items.count == 1 ? "a list of 1 value" : "a list of \(items.count) values"
            } else {
                input.summary
            }
            throw TensorIOError.invalidInput(
                "the model has \(layers.count) inputs (\(quoted(layers.names))): give a list of \(layers.count) values in that order or a dictionary by name; got \(given)"
            )
        }
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension NumericArray {
    /// An array of one element.
    init(scalar: Scalar) {
        switch scalar {
        case .integer(let value): self = .int64([value])
        case .floatingPoint(let value): self = .float64([value])
        case .boolean(let value): self = .bool([value])
        }
    }
}
