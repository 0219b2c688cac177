internal import CLiteRT
import Foundation

/// The LiteRT objects behind a loaded `tflite` model: the model, its compiled form, and one buffer per
/// signature tensor in memory we own, allocated once so a run only writes inputs, invokes and reads.
///
/// Not thread-safe: the core's pool lends it to one run at a time.
final class LiteRTCompiledModel: BackendInstance {
    private let runner: SignatureRunner
    /// For each layer in `model.json` order, its slot index and binding.
    private let inputBindings: [(slot: Int, binding: TensorBinding)]
    private let outputBindings: [(slot: Int, binding: TensorBinding)]
    /// Each binding's tensor memory, in the same order, read once: this runner's slots are never remade
    /// (only a training session's runner resizes), and a run should not go through them every time.
    private let inputMemory: [TensorMemory]
    private let outputMemory: [TensorMemory]

    /// The tensors as LiteRT reports them, for `tensorio inspect`.
    let tensors: ModelTensors
    /// The model file's name in its bundle, for errors.
    private let fileName: String
    /// How many inputs LiteRT reads from memory bound when compiling, with no buffer passed per run.
    var boundInputCount: Int { runner.boundInputCount }

    /// Compiles the bundle's model and binds the prediction layers to its prediction signature.
    convenience init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        // This runner is never resized, so its inputs can be bound to memory when compiling.
        let trainingSignatures = LiteRTTrainingSession.signatureKeys(of: bundle)
        let instance = try LiteRTModelInstance(bundle: bundle, configuration: configuration) { signatures in
            try? LiteRTModelInstance.predictionSignature(in: signatures, trainingSignatures: trainingSignatures)
        }
        let signature = try instance.predictionSignature(trainingSignatures: trainingSignatures)
        try self.init(runner: SignatureRunner(instance, signature: signature), bundle: bundle, configuration: configuration)
    }

    /// Binds the prediction layers to a signature already compiled.
    init(runner: SignatureRunner, bundle: ModelBundle, configuration: ModelConfiguration) throws {
        self.runner = runner
        fileName = bundle.modelFile.path
        let key = runner.signature.key
        let quantized = bundle.modelFile.isQuantized
        let inputs = bundle.predictionInputs
        let outputs = bundle.predictionOutputs
        let inputOrder = try SignatureRunner.bind(inputs, to: runner.inputSlots, side: "input", signature: key)
        inputBindings = try zip(inputs, inputOrder).map { layer, slot in
            (slot, try runner.inputSlots[slot].binding(
                for: layer, quantizedModel: quantized, isInput: true
            ))
        }
        let outputOrder = try SignatureRunner.bind(outputs, to: runner.outputSlots, side: "output", signature: key)
        outputBindings = try zip(outputs, outputOrder).map { layer, slot in
            (slot, try runner.outputSlots[slot].binding(for: layer, quantizedModel: quantized, isInput: false))
        }
        inputMemory = inputBindings.map { runner.inputSlots[$0.slot].memory }
        outputMemory = outputBindings.map { runner.outputSlots[$0.slot].memory }
        tensors = ModelTensors(
            signature: key,
            inputs: inputBindings.map { runner.inputSlots[$0.slot].description(layer: $0.binding.layer.name) },
            outputs: outputBindings.map { runner.outputSlots[$0.slot].description(layer: $0.binding.layer.name) }
        )
    }

    /// Writes each prepared value into its layer's tensor, invokes, and reads every output, measuring
    /// each step into `profile` when it is not `nil`. Placeholders feed only training signatures, so a
    /// prediction leaves them out.
    func run(_ inputs: PreparedInputs, placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs {
        var mark = profile == nil ? 0 : Stopwatch.now()
        for index in inputBindings.indices {
            try inputBindings[index].binding.write(inputs[index], to: inputMemory[index])
        }
        if profile != nil {
            profile?.inputs = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        let invoked = Result { try runner.invoke() }
        if profile != nil {
            profile?.invoke = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        try invoked.get()
        let outputs = try readOutputs()
        if profile != nil { profile?.outputs = Stopwatch.since(mark) }
        return outputs
    }

    /// Every output layer's value. Models with one or two outputs get them inline in ``Outputs``; others
    /// an array reserved at its final size. A model with outputs LiteRT sizes reads them at the shapes it
    /// reports after the run (``readOutputsAtRunShapes()``); the others' shapes cannot change between
    /// runs (LiteRT prepares them once, for inputs this runner never resizes).
    private func readOutputs() throws -> Outputs {
        if runner.sizedByRuntime { return try readOutputsAtRunShapes() }
        func output(_ index: Int) -> Output {
            let binding = outputBindings[index].binding
            return Output(name: binding.layer.name, value: binding.read(from: outputMemory[index]))
        }
        switch outputBindings.count {
        case 1: return Outputs(output(0))
        case 2: return Outputs(output(0), output(1))
        default:
            var outputs: [Output] = []
            outputs.reserveCapacity(outputBindings.count)
            for index in outputBindings.indices { outputs.append(output(index)) }
            return Outputs(outputs)
        }
    }

    /// Every output read at the shape LiteRT reports for it after the run, never past the memory that
    /// holds it, and checked against the shape `model.json` declares.
    private func readOutputsAtRunShapes() throws -> Outputs {
        let shapes = try runner.outputShapes()
        var outputs: [Output] = []
        outputs.reserveCapacity(outputBindings.count)
        for (index, (slotIndex, binding)) in outputBindings.enumerated() {
            let slot = runner.outputSlots[slotIndex]
            let current = try binding.atRunShape(
                shapes[slotIndex], capacity: slot.capacity, tensorName: slot.name, fileName: fileName
            )
            outputs.append(Output(name: binding.layer.name, value: current.read(from: outputMemory[index])))
        }
        return Outputs(outputs)
    }
}
