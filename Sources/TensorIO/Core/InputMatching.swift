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
        if case .positional(let items) = input, items.count == layers.count { return items }
        var values = [InputValue](repeating: .positional([]), count: layers.count)
        try forEachValue(in: input, layers: layers) { index, value in values[index] = value }
        return values
    }

    /// Calls `body` with each input layer's position and its value, once per layer, in no set order;
    /// what ``InputPreparer`` uses to match a one- or two-input model's value without building a list.
    ///
    /// `body` may have been called for some layers when a mismatch is found (a dictionary naming a layer
    /// the model does not have, say): the caller then throws and drops what it collected.
    ///
    /// Always inlined, with its errors made out of line: `body` is then part of the caller's code rather
    /// than a closure whose context is retained and released on every run.
    ///
    /// - Throws: What ``values(for:layers:)`` throws, and what `body` throws.
    @inline(__always)
    static func forEachValue(
        in input: InputValue, layers: LayerList, _ body: (Int, InputValue) throws -> Void
    ) throws {
        switch input {
        case .named(let byName):
            guard byName.count == layers.count, layers.hasDistinctNames else {
                // Layers sharing a name take the value given for it (each one).
                for (index, value) in try slowlyMatched(byName, layers: layers).enumerated() { try body(index, value) }
                return
            }
            // As many distinct keys as layers, each naming a layer: every layer exactly once.
            for (name, value) in byName {
                guard let index = layers.position(ofName: name) else {
                    _ = try slowlyMatched(byName, layers: layers)  // throws, naming the unknown layer
                    return
                }
                try body(index, value)
            }
        case .positional(let items):
            guard items.count == layers.count else { throw countMismatch(input, layers: layers) }
            for index in items.indices { try body(index, items[index]) }
        case .numbers, .bytes, .image:
            guard layers.count == 1 else { throw singleValueForSeveralLayers(input, layers: layers) }
            try body(0, input)
        }
    }

    @inline(never)
    private static func countMismatch(_ input: InputValue, layers: LayerList) -> TensorIOError {
        TensorIOError.invalidInput("the model has \(inputCount(layers)) (\(quoted(layers.names))); got \(input.summary)")
    }

    @inline(never)
    private static func singleValueForSeveralLayers(_ input: InputValue, layers: LayerList) -> TensorIOError {
        TensorIOError.invalidInput(
            "the model has \(inputCount(layers)) (\(quoted(layers.names))): give a dictionary by layer name or InputValue.positional with one value per layer in that order; got \(input.summary)"
        )
    }

    /// The values by layer, or the error naming unknown or missing layers.
    @inline(never)
    private static func slowlyMatched(_ byName: [String: InputValue], layers: LayerList) throws -> [InputValue] {
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
        return layers.names.compactMap { byName[$0] }
    }

    private static func inputCount(_ layers: LayerList) -> String {
        layers.count == 1 ? "1 input" : "\(layers.count) inputs"
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
