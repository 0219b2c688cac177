internal import CTensorFlow
import Foundation

/// How a TensorFlow SavedModel loads: one session (TensorFlow sessions take concurrent runs), loaded
/// once, one load at a time (a SavedModel takes most of a second and hundreds of megabytes).
///
/// `model.file` names the SavedModel folder inside the bundle. Layer names are the graph's operation
/// names (`"output"`, or `"output:1"` for a second output). The meta graph tagged `train` is loaded when
/// `model.modes` includes `train`, else the one tagged `serve`. Layers whose shape starts with `-1` take a
/// batch of items in one run.
struct TensorFlowEngine: BackendEngine {
    let bundle: ModelBundle
    let configuration: ModelConfiguration

    var instancesRunConcurrently: Bool { true }
    var maximumInstances: Int { 1 }

    func makeInstance() throws -> any BackendInstance {
        try TensorFlowGraph(bundle: bundle, configuration: configuration)
    }
}

/// A loaded session with every layer resolved: the TensorFlow backend's instance.
final class TensorFlowGraph: TrainingInstance, Sendable {
    let session: TensorFlowSession
    private let bundle: ModelBundle
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
        self.bundle = bundle
        let trains = bundle.modelFile.modes.contains(.train)
        let predicts = bundle.modelFile.modes.contains(.predict)
        let session = try TensorFlowSession(
            directory: directory, tags: [trains ? "train" : "serve"], threadCount: configuration.threadCount,
            logger: configuration.logger
        )
        self.session = session
        let quantized = bundle.modelFile.isQuantized
        func endpoint(_ layer: LayerDescription, isInput: Bool) throws -> TensorFlowEndpoint {
            try TensorFlowEndpoint(layer: layer, in: session, quantizedModel: quantized, isInput: isInput)
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
        let values: [Output.Value]
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
        fetching fetched: [TensorFlowEndpoint], targets: [OpaquePointer], splitInto itemCount: Int?,
        profile: inout RunProfile?
    ) throws -> [Result] {
        let runtime = session.runtime
        var mark = profile == nil ? 0 : Stopwatch.now()
        var feeds = try inputs.map { endpoint, values in
            (endpoint.output, try endpoint.makeTensor(values, runtime: runtime))
        }
        for (name, value) in placeholders.sorted(by: { $0.key < $1.key }) {
            guard let endpoint = self.placeholders[name] else { continue }
            feeds.append((endpoint.output, try endpoint.makeTensor([value], runtime: runtime)))
        }
        if profile != nil {
            profile?.inputs = Stopwatch.since(mark)
            mark = Stopwatch.now()
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
        if profile != nil {
            profile?.invoke = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        let results = try zip(fetched, tensors).map { endpoint, tensor in
            Result(layer: endpoint.layer, values: try endpoint.read(tensor, splittingInto: itemCount))
        }
        if profile != nil { profile?.outputs = Stopwatch.since(mark) }
        return results
    }

    // MARK: - BackendInstance

    var tensors: ModelTensors {
        ModelTensors(
            signature: session.tags.joined(separator: ","),
            inputs: inputs.map(\.tensorDescription),
            outputs: outputs.map(\.tensorDescription)
        )
    }

    func run(_ inputs: PreparedInputs, placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs {
        let results = try run(
            inputs: zip(predictionInputs, inputs.values).map { ($0, [$1]) }, placeholders: placeholders,
            fetching: predictionOutputs, targets: [], splitInto: nil, profile: &profile
        )
        return Outputs(results.map { Output(name: $0.layer.name, value: $0.values[0]) })
    }

    /// Runs every item in one session run; the layers' batch dimension (or the graph's) takes them.
    func runBatch(_ batch: PreparedBatch) throws -> [Outputs]? {
        var profile: RunProfile?
        let results = try run(
            inputs: Array(zip(predictionInputs, batch.columns)), placeholders: [:], fetching: predictionOutputs, targets: [],
            splitInto: batch.itemCount, profile: &profile
        )
        return (0..<batch.itemCount).map { item in Outputs(results.map { Output(name: $0.layer.name, value: $0.values[item]) }) }
    }

    // MARK: - TrainingInstance

    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        let feeds = try Array(zip(inputs, batch.columns(for: LayerList(inputs.map(\.layer)))))
        var profile: RunProfile?
        let results = try run(
            inputs: feeds, placeholders: placeholders, fetching: trainingOutputs, targets: targets, splitInto: nil,
            profile: &profile
        )
        return Outputs(results.map { Output(name: $0.layer.name, value: $0.values[0]) })
    }

    func export(to directory: URL) throws {
        guard let saver = session.saver else {
            throw TensorIOError(
                .unsupported,
                "the SavedModel's meta graph has no saver_def, so its variables cannot be written to a checkpoint",
                location: "model.file"
            )
        }
        guard let filename = session.endpoint(named: saver.filenameTensor),
              let save = session.endpoint(named: saver.saveTensor)
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
            let variables = staging.appendingPathComponent(bundle.modelFile.path).appendingPathComponent("variables")
            let files = FileManager.default
            if files.fileExists(atPath: variables.path) { try files.removeItem(at: variables) }
            try files.createDirectory(at: variables, withIntermediateDirectories: true)
            let prefix = try TensorFlowTensor(
                runtime: session.runtime, string: variables.appendingPathComponent("variables").path
            )
            _ = try session.run(
                feeds: [(filename, prefix)], fetches: [save], targets: [], action: "writing the checkpoint"
            )
        }
    }

}
