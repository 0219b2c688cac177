import Foundation

/// Loads a bundle's model and runs it once on zeros: the work of a load check, the same in this process
/// and in the child.
enum LoadProbe {
    /// What the probe is doing, for the child to announce before each step.
    enum Phase: String, Codable {
        case opening, loading, running
    }

    /// Loads `bundle`'s model and, when `runsModel` and every input can be made, runs it on zeros.
    ///
    /// - Parameters:
    ///   - bundle: The opened bundle.
    ///   - configuration: Runtime settings.
    ///   - registry: Where the model is built from.
    ///   - runsModel: Whether to run once after loading.
    ///   - entering: Called before each phase.
    /// - Returns: How long loading and the run took.
    /// - Throws: ``TensorIOError`` from loading or the run.
    static func probe(
        _ bundle: ModelBundle, configuration: ModelConfiguration, registry: ModelRegistry = .builtIn, runsModel: Bool, entering: (Phase) -> Void = { _ in }
    ) throws -> (load: Duration, run: Duration?) {
        let clock = ContinuousClock()
        entering(.loading)
        var start = clock.now
        let model = try bundle.makeModel(configuration: configuration, registry: registry)
        try model.load()
        let load = start.duration(to: clock.now)
        guard runsModel, let zeros = zeroInputs(for: bundle) else { return (load, nil) }
        entering(.running)
        start = clock.now
        _ = try model.run(zeros)
        return (load, start.duration(to: clock.now))
    }

    /// Zeros for every prediction input, as raw bytes of the layer's size; `nil` when the model does not
    /// predict, has nothing to run, needs placeholders, or has a dynamic dimension besides the batch.
    static func zeroInputs(for bundle: ModelBundle) -> InputValue? {
        guard !bundle.isPlaceholder, bundle.modelFile.modes.contains(.predict), bundle.placeholders.isEmpty else {
            return nil
        }
        var values: [String: InputValue] = [:]
        for layer in bundle.predictionInputs {
            guard !layer.shape.dropFirst().contains(where: { $0 < 0 }) else { return nil }
            guard let type = layer.dataType(quantizedModel: bundle.modelFile.isQuantized) else {
                // The tensor's type decides (model.quantized left out): numbers convert to any of them.
                values[layer.name] = .numbers(.float32([Float](repeating: 0, count: layer.elementCount)))
                continue
            }
            let (bytes, overflow) = layer.elementCount.multipliedReportingOverflow(by: type.byteCount)
            guard !overflow, bytes > 0 else { return nil }
            values[layer.name] = .bytes(Data(count: bytes))
        }
        return values.isEmpty ? nil : .named(values)
    }
}
