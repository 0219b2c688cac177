internal import CLiteRT
import Foundation

/// The LiteRT objects behind a loaded ``TFLiteModel``: the model, its compiled form, and one buffer per
/// signature tensor in memory we own, allocated once so a run only writes inputs, invokes and reads.
///
/// Not thread-safe: the core's pool lends it to one run at a time.
final class CompiledTFLiteModel: BackendInstance {
    private let runner: SignatureRunner
    /// For each layer in `model.json` order, its slot index and binding.
    private let inputBindings: [(slot: Int, binding: TensorBinding)]
    private let outputBindings: [(slot: Int, binding: TensorBinding)]

    /// The tensors as LiteRT reports them, for `tensorio inspect`.
    let tensors: ModelTensors

    /// Compiles the bundle's model and binds the prediction layers to its prediction signature.
    convenience init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        let instance = try LiteRTModelInstance(bundle: bundle, configuration: configuration)
        let signature = try instance.predictionSignature(trainingSignatures: TFLiteTrainingSession.signatureKeys(of: bundle))
        try self.init(runner: SignatureRunner(instance, signature: signature), bundle: bundle, configuration: configuration)
    }

    /// Binds the prediction layers to a signature already compiled.
    init(runner: SignatureRunner, bundle: ModelBundle, configuration: ModelConfiguration) throws {
        self.runner = runner
        let key = runner.signature.key
        let quantized = bundle.model.isQuantized
        let inputs = bundle.predictionInputs
        let outputs = bundle.predictionOutputs
        let inputOrder = try SignatureRunner.bind(inputs, to: runner.inputSlots, side: "input", signature: key)
        inputBindings = try zip(inputs, inputOrder).map { layer, slot in
            (slot, try runner.inputSlots[slot].binding(
                for: layer, quantizedModel: quantized, isInput: true, resizeMode: configuration.imageResizeMode
            ))
        }
        let outputOrder = try SignatureRunner.bind(outputs, to: runner.outputSlots, side: "output", signature: key)
        outputBindings = try zip(outputs, outputOrder).map { layer, slot in
            (slot, try runner.outputSlots[slot].binding(for: layer, quantizedModel: quantized, isInput: false))
        }
        tensors = ModelTensors(
            signature: key,
            inputs: inputBindings.map { runner.inputSlots[$0.slot].description(layer: $0.binding.layer.name) },
            outputs: outputBindings.map { runner.outputSlots[$0.slot].description(layer: $0.binding.layer.name) }
        )
    }

    /// Writes the inputs (one value per input layer, in layer order), runs, and reads every output,
    /// measuring each step into `profile` when it is not `nil`. Placeholders feed only training
    /// signatures, so a prediction leaves them out.
    func run(_ values: [InputValue], placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs {
        var mark = profile == nil ? 0 : Stopwatch.now()
        for (value, input) in zip(values, inputBindings) {
            try input.binding.write(value, to: runner.inputSlots[input.slot].memory)
        }
        if profile != nil {
            profile?.inputs = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        let result = Result { try runner.invoke() }
        if profile != nil {
            profile?.invoke = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        try result.get()
        let outputs = Outputs(pairs: outputBindings.map { output in
            (output.binding.layer.name, output.binding.read(from: runner.outputSlots[output.slot].memory))
        })
        if profile != nil { profile?.outputs = Stopwatch.since(mark) }
        return outputs
    }
}
