internal import CTensorFlow
import Foundation

/// A TensorFlow SavedModel, run and trained through the TensorFlow C API.
///
/// `model.file` names the SavedModel folder inside the bundle. Layer names are the graph's operation
/// names (`"output"`, or `"output:1"` for a second output). The meta graph tagged `train` is loaded when
/// `model.modes` includes `train`, else the one tagged `serve`. Layers whose shape starts with `-1` take a
/// batch of items in one run. The model is safe to share: TensorFlow sessions accept concurrent runs.
public final class TensorFlowModel: TrainableModel, @unchecked Sendable {
    public let bundle: ModelBundle
    public let configuration: ModelConfiguration

    private let loaded = LockedValue<LoadedGraph?>(nil)
    private let loading = NSLock()
    /// The layers a run takes (training-only ones left out), filtered once rather than on every run.
    private let predictionInputs: LayerList

    /// Creates a model for a bundle; nothing is loaded until ``load()`` or the first run.
    ///
    /// - Parameters:
    ///   - bundle: A bundle whose model file is a SavedModel folder.
    ///   - configuration: Threads and other runtime settings.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration()) {
        self.bundle = bundle
        self.configuration = configuration
        predictionInputs = bundle.predictionInputs
    }

    public var isLoaded: Bool { loaded.value != nil }

    public func load() throws {
        _ = try graph()
    }

    /// Frees the session; runs already under way finish on it first.
    public func unload() {
        loaded.value = nil
    }

    public func tensorDescriptions() throws -> ModelTensors {
        let graph = try graph()
        return ModelTensors(
            signature: graph.session.tags.joined(separator: ","),
            inputs: graph.inputs.map(\.tensorDescription),
            outputs: graph.outputs.map(\.tensorDescription)
        )
    }

    // MARK: - Prediction

    public func run(_ input: InputValue) throws -> Outputs {
        try run(input, placeholders: [:])
    }

    /// Runs the model on a value, feeding placeholders too.
    ///
    /// - Parameters:
    ///   - input: A value for the only input layer, a list by position, or a dictionary by layer name.
    ///   - placeholders: Values for `placeholders` layers, by name.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: ``TensorIOError`` naming the layer when a value does not fit; TensorFlow's message when
    ///   the run fails (a placeholder the graph needs was not given, say).
    public func run(_ input: InputValue, placeholders: [String: InputValue]) throws -> Outputs {
        try requireMode(.predict)
        let values = try InputMatching.values(for: input, layers: predictionInputs)
        let graph = try graph()
        let results = try graph.run(
            inputs: zip(graph.predictionInputs, values).map { ($0, [$1]) },
            placeholders: placeholders, fetching: graph.predictionOutputs, targets: [], splitInto: nil
        )
        return Outputs(results.map { ($0.layer.name, $0.values[0]) })
    }

    /// Runs every item of the batch in one session run when the input layers have a batch dimension.
    public func run(_ batch: Batch) throws -> [Outputs] {
        try requireMode(.predict)
        let graph = try graph()
        guard !batch.isEmpty else { return [] }
        let feeds = try Self.columns(of: batch, for: graph.predictionInputs)
        let results = try graph.run(
            inputs: feeds, placeholders: [:], fetching: graph.predictionOutputs, targets: [], splitInto: batch.count
        )
        return (0..<batch.count).map { item in Outputs(results.map { ($0.layer.name, $0.values[item]) }) }
    }

    // MARK: - Training

    public func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        try requireMode(.train)
        let graph = try graph()
        guard !batch.isEmpty else { throw TensorIOError.invalidInput("the batch has no items to train on") }
        // Training graphs need their placeholders (a learning rate, say): say which is missing rather than
        // let TensorFlow fail half-way with a longer message.
        let declared = bundle.placeholders.names
        let unknown = placeholders.keys.filter { !declared.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw TensorIOError.invalidInput(
                "no placeholder named \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); the placeholders are \(declared.isEmpty ? "none" : declared.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
        let missing = declared.filter { placeholders[$0] == nil }
        guard missing.isEmpty else {
            throw TensorIOError.invalidInput(
                "training feeds every placeholder: give a value for \(missing.map { "\"\($0)\"" }.joined(separator: ", "))"
            )
        }
        let feeds = try Self.columns(of: batch, for: graph.inputs)
        let results = try graph.run(
            inputs: feeds, placeholders: placeholders, fetching: graph.trainingOutputs, targets: graph.targets,
            splitInto: nil
        )
        return Outputs(results.map { ($0.layer.name, $0.values[0]) })
    }

    public func export(to directory: URL) throws {
        let graph = try graph()
        guard let saver = graph.session.saver else {
            throw TensorIOError(
                .unsupported,
                "the SavedModel's meta graph has no saver_def, so its variables cannot be written to a checkpoint",
                location: "model.file"
            )
        }
        guard let filename = graph.session.endpoint(named: saver.filenameTensor),
              let save = graph.session.endpoint(named: saver.saveTensor)
        else {
            throw TensorIOError(
                .runtimeFailure,
                "the saver_def names \"\(saver.filenameTensor)\" and \"\(saver.saveTensor)\", which the graph does not have",
                location: "model.file"
            )
        }
        try BundleExport.write(bundle, to: directory) { staging in
            // A SavedModel keeps its variables as the checkpoint `variables/variables`: overwrite it (and
            // drop the old shards, whose count may differ) so the copy opens with the trained weights.
            let variables = staging.appendingPathComponent(bundle.model.file).appendingPathComponent("variables")
            let files = FileManager.default
            if files.fileExists(atPath: variables.path) { try files.removeItem(at: variables) }
            try files.createDirectory(at: variables, withIntermediateDirectories: true)
            let prefix = try TensorFlowTensor(
                runtime: graph.session.runtime, string: variables.appendingPathComponent("variables").path
            )
            _ = try graph.session.run(
                feeds: [(filename, prefix)], fetches: [save], targets: [], action: "writing the checkpoint"
            )
        }
    }

    // MARK: - Loading

    private func requireMode(_ mode: ModelMode) throws {
        guard bundle.model.modes.contains(mode) else {
            throw TensorIOError(
                .unsupported, "the model does not support \(mode.rawValue) (model.modes)", location: "model.modes"
            )
        }
    }

    private func graph() throws -> LoadedGraph {
        if let graph = loaded.value { return graph }
        // One load at a time: loading a SavedModel takes most of a second and hundreds of megabytes.
        loading.lock()
        defer { loading.unlock() }
        if let graph = loaded.value { return graph }
        let graph = try LoadedGraph(bundle: bundle, configuration: configuration)
        loaded.value = graph
        return graph
    }

    /// One column of values per layer, from a batch that must give every layer and nothing else.
    private static func columns(
        of batch: Batch, for endpoints: [TensorFlowEndpoint]
    ) throws -> [(TensorFlowEndpoint, [InputValue])] {
        let names = endpoints.map(\.layer.name)
        let missing = names.filter { !batch.keys.contains($0) }
        let unknown = batch.keys.filter { !names.contains($0) }
        guard missing.isEmpty, unknown.isEmpty else {
            var problems: [String] = []
            if !missing.isEmpty { problems.append("no values for \(missing.map { "\"\($0)\"" }.joined(separator: ", "))") }
            if !unknown.isEmpty { problems.append("no input layer named \(unknown.map { "\"\($0)\"" }.joined(separator: ", "))") }
            throw TensorIOError.invalidInput(
                "the batch's keys do not match the input layers \(names.map { "\"\($0)\"" }.joined(separator: ", ")): \(problems.joined(separator: "; "))"
            )
        }
        return endpoints.map { ($0, batch.values(forKey: $0.layer.name)) }
    }
}

/// A loaded session with every layer resolved.
private final class LoadedGraph: Sendable {
    let session: TensorFlowSession
    /// Every input layer (what training feeds), in `model.json` order.
    let inputs: [TensorFlowEndpoint]
    /// Every output layer the loaded graph has, in `model.json` order.
    let outputs: [TensorFlowEndpoint]
    let predictionInputs: [TensorFlowEndpoint]
    let predictionOutputs: [TensorFlowEndpoint]
    let trainingOutputs: [TensorFlowEndpoint]
    let placeholders: [String: TensorFlowEndpoint]
    /// Input layers fed only when training (`train.inputs`).
    let trainingOnlyInputs: [String]
    /// The `train.ops` operations.
    nonisolated(unsafe) let targets: [OpaquePointer]

    init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        guard let directory = bundle.modelFileURL else {
            throw TensorIOError(.unsupported, "a placeholder bundle has no model to load")
        }
        let trains = bundle.model.modes.contains(.train)
        let predicts = bundle.model.modes.contains(.predict)
        let session = try TensorFlowSession(
            directory: directory, tags: [trains ? "train" : "serve"], threadCount: configuration.threadCount
        )
        self.session = session
        let quantized = bundle.model.isQuantized
        func endpoint(_ layer: LayerDescription, isInput: Bool) throws -> TensorFlowEndpoint {
            try TensorFlowEndpoint(
                layer: layer, in: session, quantizedModel: quantized, isInput: isInput,
                resizeMode: configuration.imageResizeMode
            )
        }
        // Only the layers the loaded modes use must exist in the graph: a serving graph has no labels.
        let inputLayers = trains ? Array(bundle.inputs) : Array(bundle.predictionInputs)
        var outputNames = Set<String>()
        if predicts { outputNames.formUnion(bundle.predictionOutputs.names) }
        if trains { outputNames.formUnion(bundle.trainingOutputs.names) }
        inputs = try inputLayers.map { try endpoint($0, isInput: true) }
        outputs = try bundle.outputs.filter { outputNames.contains($0.name) }.map { try endpoint($0, isInput: false) }
        let predictionInputNames = bundle.predictionInputs.names
        let predictionOutputNames = bundle.predictionOutputs.names
        let trainingOutputNames = bundle.trainingOutputs.names
        predictionInputs = inputs.filter { predictionInputNames.contains($0.layer.name) }
        predictionOutputs = outputs.filter { predictionOutputNames.contains($0.layer.name) }
        trainingOutputs = trains ? outputs.filter { trainingOutputNames.contains($0.layer.name) } : []
        placeholders = try Dictionary(uniqueKeysWithValues: bundle.placeholders.map {
            ($0.name, try endpoint($0, isInput: true))
        })
        trainingOnlyInputs = bundle.training?.trainingOnlyInputs ?? []
        var targets: [OpaquePointer] = []
        if trains {
            for (index, name) in (bundle.trainingOperations ?? []).enumerated() {
                guard let operation = session.operation(named: name) else {
                    throw TensorIOError(
                        .layerMismatch, "the graph (tags [\"train\"]) has no operation named \"\(name)\"",
                        location: "train.ops[\(index)]"
                    )
                }
                targets.append(operation)
            }
            if targets.isEmpty {
                throw TensorIOError(
                    .invalidBundle, "model.modes includes train, but train.ops names no operation to run",
                    location: "train.ops"
                )
            }
        }
        self.targets = targets
    }

    struct Result {
        let layer: LayerDescription
        let values: [Output]
    }

    /// TensorFlow's "You must feed a value for placeholder tensor 'NAME' …" as an error naming the
    /// placeholder in the bundle's terms; `nil` for any other error. Whether a run needs a placeholder
    /// depends on what it fetches, so only TensorFlow can tell, and only by failing.
    ///
    /// - Parameters:
    ///   - declared: The bundle's placeholder layers.
    ///   - trainingOnlyInputs: The input layers only training feeds.
    static func unfedPlaceholderError(
        _ error: TensorIOError, declared: [String], trainingOnlyInputs: [String]
    ) -> TensorIOError? {
        let marker = "You must feed a value for placeholder tensor '"
        guard let message = error.runtimeMessage, let start = message.range(of: marker)?.upperBound,
              let end = message[start...].firstIndex(of: "'")
        else { return nil }
        let name = String(message[start..<end])
        if declared.contains(name) || declared.contains(where: { $0.hasPrefix(name + ":") }) {
            return TensorIOError.invalidInput(
                "the placeholder \"\(name)\" was not given a value, and this run needs it (tensorio run: --placeholder \(name)=VALUE)",
                layer: name
            )
        }
        if trainingOnlyInputs.contains(name) {
            return TensorIOError.invalidInput(
                "what this run fetches needs the input \"\(name)\", which only training feeds (model.json lists it in train.inputs)",
                layer: name
            )
        }
        return TensorIOError.invalidInput(
            "the graph needs a value for its placeholder \"\(name)\", which model.json does not declare: add it to \"placeholders\" (declared: \(declared.isEmpty ? "none" : declared.map { "\"\($0)\"" }.joined(separator: ", ")))"
        )
    }

    /// Feeds the inputs and placeholders, runs the targets, and reads the fetched layers — whole, or split
    /// into `splitInto` items.
    func run(
        inputs: [(TensorFlowEndpoint, [InputValue])], placeholders: [String: InputValue],
        fetching fetched: [TensorFlowEndpoint], targets: [OpaquePointer], splitInto itemCount: Int?
    ) throws -> [Result] {
        let runtime = session.runtime
        let unknown = placeholders.keys.filter { self.placeholders[$0] == nil }.sorted()
        guard unknown.isEmpty else {
            let declared = self.placeholders.keys.sorted().map { "\"\($0)\"" }
            throw TensorIOError.invalidInput(
                "no placeholder named \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); the placeholders are \(declared.isEmpty ? "none" : declared.joined(separator: ", "))"
            )
        }
        var feeds = try inputs.map { endpoint, values in
            (endpoint.output, try endpoint.makeTensor(values, runtime: runtime))
        }
        for (name, value) in placeholders.sorted(by: { $0.key < $1.key }) {
            guard let endpoint = self.placeholders[name] else { continue }
            feeds.append((endpoint.output, try endpoint.makeTensor([value], runtime: runtime)))
        }
        let tensors: [TensorFlowTensor]
        do {
            tensors = try session.run(
                feeds: feeds.map { (endpoint: $0.0, tensor: $0.1) }, fetches: fetched.map(\.output), targets: targets,
                action: targets.isEmpty ? "running the model" : "training the model"
            )
        } catch let error as TensorIOError {
            throw Self.unfedPlaceholderError(
                error, declared: self.placeholders.keys.sorted(), trainingOnlyInputs: trainingOnlyInputs
            ) ?? error
        }
        return try zip(fetched, tensors).map { endpoint, tensor in
            Result(layer: endpoint.layer, values: try endpoint.read(tensor, splittingInto: itemCount))
        }
    }
}
