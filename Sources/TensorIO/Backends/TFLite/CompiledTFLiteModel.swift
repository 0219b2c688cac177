import CLiteRT
import Foundation

/// The LiteRT objects behind a loaded ``TFLiteModel``: the model, its compiled form, and one buffer per
/// signature tensor in memory we own, allocated once so a run only writes inputs, invokes and reads.
///
/// Not thread-safe; ``TFLiteModel`` serializes access.
final class CompiledTFLiteModel {
    private let runtime: LiteRTRuntime.Handle
    private var model: LiteRtModel?
    private var compiledModel: LiteRtCompiledModel?
    // Every stored property has a value once `runtime` is set, so a failing init still runs deinit and
    // frees what it had created.
    private var signatureIndex: LiteRtParamIndex = 0

    /// Input and output slots in the signature's order (the order `RunCompiledModel` wants).
    private var inputSlots: [TensorSlot] = []
    private var outputSlots: [TensorSlot] = []
    /// For each layer in `model.json` order, its slot index and binding.
    private var inputBindings: [(slot: Int, binding: TensorBinding)] = []
    private var outputBindings: [(slot: Int, binding: TensorBinding)] = []
    private var inputBuffers: [LiteRtTensorBuffer?] = []
    private var outputBuffers: [LiteRtTensorBuffer?] = []

    /// The tensors as LiteRT reports them, for `tensorio inspect`.
    private(set) var tensors = ModelTensors(signature: nil, inputs: [], outputs: [])

    init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        runtime = try LiteRTRuntime.handle()
        let api = runtime.api
        guard let fileURL = bundle.modelFileURL else {
            throw TensorIOError(.unsupported, "a placeholder bundle has no model to load")
        }

        var model: LiteRtModel?
        try runtime.check(api.CreateModelFromFile(runtime.environment, fileURL.path, &model),
                          "reading the model file \"\(bundle.model.file)\"")
        self.model = model
        guard let model else { throw TensorIOError(.runtimeFailure, "LiteRT returned no model") }

        let signature = try Self.chooseSignature(runtime, model)
        signatureIndex = signature.index

        // Compile for the CPU (XNNPack) with the configured thread count.
        var options: LiteRtOptions?
        try runtime.check(api.CreateOptions(&options), "creating compilation options")
        guard let options else { throw TensorIOError(.runtimeFailure, "LiteRT returned no options") }
        defer { api.DestroyOptions(options) }
        try runtime.check(api.SetOptionsHardwareAccelerators(options, kLiteRtHwAcceleratorCpu), "choosing the CPU")
        guard let payload = strdup("num_threads = \(configuration.threadCount)\n") else {
            throw TensorIOError(.runtimeFailure, "out of memory")
        }
        var xnnpack: LiteRtOpaqueOptions?
        try runtime.check(api.CreateOpaqueOptions("xnnpack", payload, { free($0) }, &xnnpack), "setting the thread count")
        if let xnnpack {
            try runtime.check(api.AddOpaqueOptions(options, xnnpack), "setting the thread count")
        }
        var compiledModel: LiteRtCompiledModel?
        try runtime.check(api.CreateCompiledModel(runtime.environment, model, options, &compiledModel),
                          "compiling the model")
        self.compiledModel = compiledModel
        guard let compiledModel else { throw TensorIOError(.runtimeFailure, "LiteRT returned no compiled model") }

        inputSlots = try (0..<signature.inputCount).map {
            try TensorSlot(runtime, signature: signature.handle, compiledModel: compiledModel,
                           signatureIndex: signatureIndex, index: $0, isInput: true)
        }
        var outputLayouts = [LiteRtLayout](repeating: LiteRtLayout(), count: signature.outputCount)
        try runtime.check(
            api.GetCompiledModelOutputTensorLayouts(compiledModel, signatureIndex, signature.outputCount, &outputLayouts, false),
            "reading the output shapes"
        )
        outputSlots = try (0..<signature.outputCount).map {
            try TensorSlot(runtime, signature: signature.handle, compiledModel: compiledModel,
                           signatureIndex: signatureIndex, index: $0, isInput: false, layout: outputLayouts[$0])
        }

        let quantized = bundle.model.isQuantized
        let inputOrder = try Self.bind(bundle.inputs, to: inputSlots, side: "input", signature: signature.key)
        inputBindings = try zip(bundle.inputs, inputOrder).map { layer, slot in
            var binding = try inputSlots[slot].binding(for: layer, quantizedModel: quantized, isInput: true)
            binding.resizeMode = configuration.imageResizeMode
            return (slot, binding)
        }
        let outputOrder = try Self.bind(bundle.outputs, to: outputSlots, side: "output", signature: signature.key)
        outputBindings = try zip(bundle.outputs, outputOrder).map { layer, slot in
            (slot, try outputSlots[slot].binding(for: layer, quantizedModel: quantized, isInput: false))
        }

        inputBuffers = inputSlots.map(\.buffer)
        outputBuffers = outputSlots.map(\.buffer)

        tensors = ModelTensors(
            signature: signature.key,
            inputs: inputBindings.map { inputSlots[$0.slot].description(layer: $0.binding.layer.name) },
            outputs: outputBindings.map { outputSlots[$0.slot].description(layer: $0.binding.layer.name) }
        )
    }

    deinit {
        let api = runtime.api
        // Slots own their tensor buffers: release them before the compiled model and the model.
        inputBuffers = []
        outputBuffers = []
        inputBindings = []
        outputBindings = []
        inputSlots = []
        outputSlots = []
        if let compiledModel { api.DestroyCompiledModel(compiledModel) }
        if let model { api.DestroyModel(model) }
    }

    /// Writes the inputs (one value per input layer, in layer order), runs, and reads every output,
    /// measuring each step into `profile` when it is not `nil`.
    func run(_ values: [InputValue], profile: inout RunProfile?) throws -> Outputs {
        var mark = profile == nil ? 0 : Stopwatch.now()
        for (value, input) in zip(values, inputBindings) {
            try input.binding.write(value, to: inputSlots[input.slot].memory)
        }
        guard let compiledModel else { throw TensorIOError(.runtimeFailure, "the model is not compiled") }
        if profile != nil {
            profile?.inputs = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        let status = inputBuffers.withUnsafeMutableBufferPointer { inputs in
            outputBuffers.withUnsafeMutableBufferPointer { outputs in
                runtime.api.RunCompiledModel(
                    compiledModel, signatureIndex, inputs.count, rebound(inputs), outputs.count, rebound(outputs)
                )
            }
        }
        if profile != nil {
            profile?.invoke = Stopwatch.since(mark)
            mark = Stopwatch.now()
        }
        try runtime.check(status, "running the model")
        let outputs = Outputs(outputBindings.map { output in
            (output.binding.layer.name, output.binding.read(from: outputSlots[output.slot].memory))
        })
        if profile != nil { profile?.outputs = Stopwatch.since(mark) }
        return outputs
    }

    // MARK: - Loading steps

    private struct SignatureInfo {
        let index: LiteRtParamIndex
        let handle: LiteRtSignature
        let key: String
        let inputCount: Int
        let outputCount: Int
    }

    /// The `serving_default` signature when the model has one, else the first.
    private static func chooseSignature(_ runtime: LiteRTRuntime.Handle, _ model: LiteRtModel) throws -> SignatureInfo {
        let api = runtime.api
        var count: LiteRtParamIndex = 0
        try runtime.check(api.GetNumModelSignatures(model, &count), "reading the model's signatures")
        guard count > 0 else { throw TensorIOError(.layerMismatch, "the model has no signature to run") }
        var signatures: [SignatureInfo] = []
        for index in 0..<count {
            var handle: LiteRtSignature?
            try runtime.check(api.GetModelSignature(model, index, &handle), "reading signature \(index)")
            guard let handle else { continue }
            var key: UnsafePointer<CChar>?
            try runtime.check(api.GetSignatureKey(handle, &key), "reading signature \(index)'s name")
            var inputs: LiteRtParamIndex = 0
            var outputs: LiteRtParamIndex = 0
            try runtime.check(api.GetNumSignatureInputs(handle, &inputs), "counting signature inputs")
            try runtime.check(api.GetNumSignatureOutputs(handle, &outputs), "counting signature outputs")
            signatures.append(SignatureInfo(
                index: index, handle: handle, key: key.map { String(cString: $0) } ?? "",
                inputCount: inputs, outputCount: outputs
            ))
        }
        guard let chosen = signatures.first(where: { $0.key == "serving_default" }) ?? signatures.first else {
            throw TensorIOError(.layerMismatch, "the model has no signature to run")
        }
        return chosen
    }

    /// For each layer, the slot it binds to: the slot whose signature or tensor name equals the layer's
    /// name, else the next unclaimed slot in order.
    private static func bind(_ layers: LayerList, to slots: [TensorSlot], side: String, signature: String) throws -> [Int] {
        guard layers.count == slots.count else {
            throw TensorIOError(
                .layerMismatch,
                "model.json lists \(layers.count) \(side)s but the model's signature \"\(signature)\" has \(slots.count): "
                    + slots.map { "\"\($0.name)\"" }.joined(separator: ", "),
                location: "\(side)s"
            )
        }
        var claimed = [Bool](repeating: false, count: slots.count)
        var order = [Int?](repeating: nil, count: layers.count)
        for (index, layer) in layers.enumerated() {
            if let slot = slots.indices.first(where: { !claimed[$0] && slots[$0].name == layer.name })
                ?? slots.indices.first(where: { !claimed[$0] && slots[$0].tensorName == layer.name })
            {
                claimed[slot] = true
                order[index] = slot
            }
        }
        var unclaimed = slots.indices.filter { !claimed[$0] }.makeIterator()
        return order.map { $0 ?? unclaimed.next() ?? 0 }
    }
}

/// Builds the `Optional<pointer>` array LiteRT's C signature takes from our optional handles.
private func rebound(_ buffer: UnsafeMutableBufferPointer<LiteRtTensorBuffer?>) -> UnsafeMutablePointer<LiteRtTensorBuffer>? {
    buffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: LiteRtTensorBuffer.self) }
}
