extension ModelBundle {
    /// Fails unless `model.modes` includes `mode`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``, location `model.modes`).
    func require(_ mode: ModelMode) throws {
        guard modelFile.modes.contains(mode) else {
            throw TensorIOError(
                .unsupported, "the model does not support \(mode.rawValue) (model.modes)", location: "model.modes"
            )
        }
    }

    /// Checks the names of the placeholder values a run or training step was given.
    ///
    /// - Parameters:
    ///   - given: The names given.
    ///   - requireAll: Whether every declared placeholder needs a value (training does; a prediction
    ///     needs those its outputs depend on, which only the runtime can tell).
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming the unknown or missing
    ///   placeholders.
    func checkPlaceholders(_ given: Set<String>, requireAll: Bool) throws {
        let declared = placeholders.names
        let unknown = given.subtracting(declared).sorted()
        guard unknown.isEmpty else {
            throw TensorIOError.invalidInput(
                "no placeholder named \(Self.quoted(unknown)); "
                    + (declared.isEmpty ? "this model has no placeholders" : "the placeholders are \(Self.quoted(declared))")
            )
        }
        let missing = declared.filter { !given.contains($0) }
        guard !requireAll || missing.isEmpty else {
            throw TensorIOError.invalidInput("training feeds every placeholder: give a value for \(Self.quoted(missing))")
        }
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension TensorIOError {
    /// Runs `body`, putting "item N" in front of the location of a ``TensorIOError`` it throws when the
    /// work is one item of several.
    static func locating<Result>(item index: Int, of count: Int, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch var error as TensorIOError where count > 1 {
            error.location = ["item \(index)", error.location].compactMap { $0 }.joined(separator: ", ")
            throw error
        }
    }
}

extension Batch {
    /// For each layer, its value in every item, from a batch that gives every layer and nothing else.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming the missing and unknown
    ///   keys.
    func columns(for layers: LayerList) throws -> [[InputValue]] {
        try layerColumns(for: layers).map { $0.values(count: count) }
    }

    /// For each layer, its column: as ``columns(for:)``, but numbers kept as one array where the batch
    /// has them so (see ``Batch/Column``).
    ///
    /// - Throws: As ``columns(for:)``.
    func layerColumns(for layers: LayerList) throws -> [Batch.Column] {
        let names = layers.names
        let missing = names.filter { !keys.contains($0) }
        let unknown = keys.filter { !names.contains($0) }
        guard missing.isEmpty, unknown.isEmpty else {
            var problems: [String] = []
            if !missing.isEmpty { problems.append("no values for \(missing.map { "\"\($0)\"" }.joined(separator: ", "))") }
            if !unknown.isEmpty { problems.append("no input layer named \(unknown.map { "\"\($0)\"" }.joined(separator: ", "))") }
            throw TensorIOError.invalidInput(
                "the batch's keys do not match the input layers \(names.map { "\"\($0)\"" }.joined(separator: ", ")): \(problems.joined(separator: "; "))"
            )
        }
        return names.map { name in columns[keys.firstIndex(of: name)!] }  // every name is a key
    }
}
