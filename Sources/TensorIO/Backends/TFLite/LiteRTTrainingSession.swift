internal import CLiteRT
import Foundation

/// A TensorFlow Lite model in TensorFlow's on-device training format: one compiled model whose
/// signatures share the weights (resource variables) — `train` (or the signature `train.ops` names)
/// takes a step, `infer` predicts, `save` returns every weight as an output, `restore` sets them from
/// inputs.
///
/// The weights learnt are written to, and read back from, ``weightsFileName`` in the bundle, in the
/// safetensors format. Not thread-safe: the core's pool holds one and lends it to one run or training
/// step at a time.
final class LiteRTTrainingSession: TrainingInstance {
    /// The file in a bundle that holds trained weights, restored when the model loads.
    static let weightsFileName = "weights.safetensors"

    private let bundle: ModelBundle
    private let configuration: ModelConfiguration
    private let instance: LiteRTModelInstance
    /// Remade for a batch of another size (``SignatureRunner/resizingInputs(_:)``).
    private var trainer: SignatureRunner
    private let saver: SignatureRunner?
    private let restorer: SignatureRunner?
    /// Predictions, on the same compiled model so they see the trained weights.
    let predictor: LiteRTCompiledModel?

    /// The layers the training signature takes (every input, then the placeholders) and its outputs,
    /// with the slot each binds to and their bindings: found once, and again only when a batch of
    /// another size remakes the slots, rather than on every step (for a small model that took as long
    /// as a good part of the step).
    private let trainingLayers: LayerList
    private let trainingOutputs: LayerList
    private var inputOrder: [Int]
    private var outputOrder: [Int]
    private var inputBindings: [TensorBinding] = []
    private var outputBindings: [TensorBinding] = []

    /// The signatures that belong to training rather than prediction.
    static func signatureKeys(of bundle: ModelBundle) -> Set<String> {
        guard bundle.modelFile.modes.contains(.train) else { return [] }
        return Set(bundle.trainingOperations ?? []).union(["train", "save", "restore"])
    }

    /// Compiles the model, binds its signatures, and restores the bundle's trained weights if it has them.
    ///
    /// - Throws: ``TensorIOError`` when `train.ops` does not name exactly one signature of the model, the
    ///   layers disagree with the signatures, or restoring fails.
    init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        self.bundle = bundle
        self.configuration = configuration
        let instance = try LiteRTModelInstance(bundle: bundle, configuration: configuration)
        self.instance = instance
        let operations = bundle.trainingOperations ?? []
        guard operations.count == 1, let key = operations.first else {
            throw TensorIOError(
                .invalidBundle,
                "a TensorFlow Lite model trains through one signature: train.ops must name exactly one (it names \(operations.count))",
                location: "train.ops"
            )
        }
        guard let signature = instance.signature(named: key) else {
            throw TensorIOError(
                .layerMismatch,
                "the model has no signature \"\(key)\" (it has \(instance.signatures.map { "\"\($0.key)\"" }.joined(separator: ", ")))",
                location: "train.ops[0]"
            )
        }
        trainer = try SignatureRunner(instance, signature: signature)
        saver = try instance.signature(named: "save").map { try SignatureRunner(instance, signature: $0) }
        restorer = try instance.signature(named: "restore").map { try SignatureRunner(instance, signature: $0) }
        if bundle.modelFile.modes.contains(.predict) {
            let signature = try instance.predictionSignature(trainingSignatures: Self.signatureKeys(of: bundle))
            predictor = try LiteRTCompiledModel(
                runner: SignatureRunner(instance, signature: signature), bundle: bundle, configuration: configuration
            )
        } else {
            predictor = nil
        }
        // Check the training layers against the signature now rather than on the first step.
        trainingLayers = LayerList(Array(bundle.inputs) + Array(bundle.placeholders))
        trainingOutputs = bundle.trainingOutputs
        inputOrder = try SignatureRunner.bind(trainingLayers, to: trainer.inputSlots, side: "input", signature: key)
        outputOrder = try SignatureRunner.bind(trainingOutputs, to: trainer.outputSlots, side: "output", signature: key)
        try makeBindings()

        let weights = bundle.url.appendingPathComponent(Self.weightsFileName)
        if FileManager.default.fileExists(atPath: weights.path) {
            try restoreWeights(from: weights)
        }
    }

    /// What `tensorio inspect` shows: the prediction signature's tensors, else the training signature's.
    var tensors: ModelTensors {
        predictor?.tensors ?? ModelTensors(
            signature: trainer.signature.key,
            inputs: trainer.inputSlots.map { $0.description(layer: $0.name) },
            outputs: trainer.outputSlots.map { $0.description(layer: $0.name) }
        )
    }

    /// Predicts with what the model has learnt so far.
    func run(_ inputs: PreparedInputs, placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs {
        guard let predictor else {
            try bundle.require(.predict)
            throw TensorIOError(.unsupported, "the model has no signature to predict with", location: "model.file")
        }
        return try predictor.run(inputs, placeholders: placeholders, profile: &profile)
    }

    // MARK: - Training

    /// Takes one training step on the batch and returns the training outputs.
    ///
    /// - Parameters:
    ///   - batch: A value for every input layer in each item.
    ///   - placeholders: A value for every placeholder layer (names already checked).
    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        let itemCount = batch.count
        guard itemCount > 0 else { throw TensorIOError.invalidInput("the batch has no items to train on") }
        let layers = trainingLayers
        // The batch's columns as it keeps them (one array of numbers per input, from a data source that
        // keeps its values by key), then one value per placeholder.
        let columns = try batch.layerColumns(for: bundle.inputs).map { ($0, itemCount) }
            + bundle.placeholders.map { placeholders[$0.name].map { (Batch.Column.values([$0]), 1) } ?? (.values([]), 0) }

        // Give every batched input the batch's size (LiteRT remakes the buffers), then bind again.
        let inputCount = bundle.inputs.count
        var shapes: [Int: [Int]] = [:]
        for (index, (layer, slot)) in zip(layers, inputOrder).enumerated() where layer.isBatched && index < inputCount {
            var shape = trainer.inputSlots[slot].shape
            guard !shape.isEmpty, shape[0] != itemCount else { continue }
            shape[0] = itemCount
            shapes[slot] = shape
        }
        if !shapes.isEmpty {
            trainer = try trainer.resizingInputs(shapes)
            let key = trainer.signature.key
            inputOrder = try SignatureRunner.bind(layers, to: trainer.inputSlots, side: "input", signature: key)
            outputOrder = try SignatureRunner.bind(trainingOutputs, to: trainer.outputSlots, side: "output", signature: key)
            try makeBindings()
        }

        for (index, (column, count)) in columns.enumerated() {
            let (layer, slot) = (layers[index], trainer.inputSlots[inputOrder[index]])
            guard slot.shape.reduce(1, *) == count * layer.elementCount else {
                throw TensorIOError.invalidInput(
                    "\(count) items cannot be fed: the signature's tensor \"\(slot.name)\" has shape \(slot.shape)",
                    layer: layer.name
                )
            }
            try inputBindings[index].writeItems(column, count: count, to: slot.memory)
        }
        try trainer.invoke()

        return Outputs(outputBindings.indices.map { index in
            let slot = trainer.outputSlots[outputOrder[index]]
            return Output(name: trainingOutputs[index].name, value: outputBindings[index].read(from: slot.memory))
        })
    }

    /// Binds every training layer to its slot as the slots now are.
    private func makeBindings() throws {
        let quantized = bundle.modelFile.isQuantized
        inputBindings = try zip(trainingLayers, inputOrder).map { layer, slot in
            try trainer.inputSlots[slot].binding(
                for: layer, quantizedModel: quantized, isInput: true
            )
        }
        outputBindings = try zip(trainingOutputs, outputOrder).map { layer, slot in
            try trainer.outputSlots[slot].binding(for: layer, quantizedModel: quantized, isInput: false)
        }
    }

    // MARK: - Weights

    /// Writes a copy of the bundle with the weights learnt so far in ``weightsFileName``, which the copy
    /// restores when it loads.
    func export(to directory: URL) throws {
        try BundleExport.write(bundle, to: directory) { staging in
            try saveWeights(to: staging.appendingPathComponent(Self.weightsFileName))
        }
    }

    /// Runs `save` and writes every weight it returns to `url`.
    func saveWeights(to url: URL) throws {
        guard let saver else {
            throw TensorIOError(
                .unsupported,
                "the model has no \"save\" signature, so the weights it learnt cannot be written (signatures: \(instance.signatures.map { "\"\($0.key)\"" }.joined(separator: ", ")))",
                location: "model.file"
            )
        }
        try saver.invoke()
        var tensors: [String: SafetensorsFile.Tensor] = [:]
        for slot in saver.outputSlots {
            guard let dataType = slot.dataType else {
                throw TensorIOError(.unsupported, "the save signature's output \"\(slot.name)\" holds \(slot.typeName) values")
            }
            let byteCount = slot.shape.reduce(1, *) * dataType.byteCount
            tensors[slot.name] = .init(dataType: dataType, shape: slot.shape, bytes: slot.memory.data(count: byteCount))
        }
        try SafetensorsFile(tensors: tensors).write(to: url)
    }

    /// Reads weights from `url` and runs `restore` with them.
    func restoreWeights(from url: URL) throws {
        guard let restorer else {
            throw TensorIOError(
                .unsupported,
                "the bundle holds \(Self.weightsFileName), but the model has no \"restore\" signature to load it",
                location: "model.file"
            )
        }
        let file = try SafetensorsFile(contentsOf: url)
        for slot in restorer.inputSlots {
            guard let tensor = file.tensors[slot.name] else {
                throw TensorIOError(
                    .io, "\(url.lastPathComponent) has no weight \"\(slot.name)\", which the restore signature takes (it has \(file.tensors.keys.sorted()))"
                )
            }
            guard tensor.dataType == slot.dataType, tensor.bytes.count == slot.shape.reduce(1, *) * tensor.dataType.byteCount else {
                throw TensorIOError(
                    .io, "\(url.lastPathComponent): weight \"\(slot.name)\" is \(tensor.dataType) \(tensor.shape), but the restore signature takes \(slot.typeName) \(slot.shape)"
                )
            }
            tensor.bytes.withUnsafeBytes { bytes in
                slot.memory.copyBytes(from: bytes)
            }
        }
        try restorer.invoke()
    }
}
