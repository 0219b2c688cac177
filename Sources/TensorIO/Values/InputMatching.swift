/// Matches the value given to a run with the model's input layers: a dictionary by layer name, a
/// positional list in layer order, or any other value for a one-input model.
///
/// The meaning of a value never depends on the model (``InputValue``'s rule): numbers are one tensor even
/// when their count equals the number of layers.
enum InputMatching {
    /// One value per input layer, in layer order.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming unknown or missing layers,
    ///   or saying how many values a multi-input model expects.
    static func values(for input: InputValue, layers: LayerList) throws -> [InputValue] {
        switch input {
        case .named(let byName):
            // The usual case, without building any list: one value per layer, every name found.
            if byName.count == layers.count {
                var values: [InputValue] = []
                values.reserveCapacity(layers.count)
                for layer in layers {
                    guard let value = byName[layer.name] else { break }
                    values.append(value)
                }
                if values.count == layers.count { return values }
            }
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
        case .positional(let items):
            guard items.count == layers.count else {
                throw TensorIOError.invalidInput(
                    "the model has \(inputCount(layers)) (\(quoted(layers.names))); got \(input.summary)"
                )
            }
            return items
        case .numbers, .bytes, .image:
            guard layers.count == 1 else {
                throw TensorIOError.invalidInput(
                    "the model has \(inputCount(layers)) (\(quoted(layers.names))): give a dictionary by layer name or InputValue.positional with one value per layer in that order; got \(input.summary)"
                )
            }
            return [input]
        }
    }

    private static func inputCount(_ layers: LayerList) -> String {
        layers.count == 1 ? "1 input" : "\(layers.count) inputs"
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
