internal import CLiteRT
import Foundation
import Logging

/// Runs one signature of a compiled model: a buffer per input and output tensor in memory we own, made
/// once, so a run only writes inputs, invokes and reads. Immutable: a batch of another size makes a new
/// runner (``resizingInputs(_:)``).
///
/// Not thread-safe: LiteRT's compiled model runs one invoke at a time.
final class SignatureRunner {
    let instance: LiteRTModelInstance
    let signature: LiteRTModelInstance.Signature
    /// Input and output slots in the signature's order (the order `RunCompiledModel` wants). Each keeps
    /// `instance`, and so the compiled model, alive as long as its LiteRT buffer exists.
    let inputSlots: [TensorSlot]
    let outputSlots: [TensorSlot]
    /// The slots' LiteRT buffers, in the arrays `RunCompiledModel` takes (`nil` for an input bound when
    /// compiling).
    private let inputBuffers: LiteRTBufferList
    private let outputBuffers: LiteRTBufferList
    /// Whether any output's shape is LiteRT's rather than the file's (``TensorSlot/isSizedByRuntime``):
    /// a run then reads the output shapes back (``outputShapes()``).
    let sizedByRuntime: Bool
    /// Read once: an invoke should not copy the runtime's table of functions (hundreds of bytes) each time.
    private let runCompiledModel: TIOLiteRtAPI
    private let compiledModel: LiteRtCompiledModel
    /// What a failing invoke says it was doing.
    private let invokeAction: String
    /// Marks the invoking thread for the crash reporter; its text belongs to `instance`'s
    /// ``CrashActivity``, which lives as long as this runner holds `instance`.
    private let runningMark: CrashActivity.Mark

    /// Makes the signature's slots and buffers.
    ///
    /// - Parameters:
    ///   - instance: The compiled model.
    ///   - signature: One of its signatures.
    ///   - afterResize: Whether inputs were resized since compiling: inputs bound when compiling keep
    ///     that memory only until then, since their size has changed.
    /// - Throws: ``TensorIOError`` with LiteRT's status; ``TensorIOError/Code/unsupported`` for outputs
    ///   LiteRT sizes only while running (``checkOutputsAreAccepted()``).
    init(_ instance: LiteRTModelInstance, signature: LiteRTModelInstance.Signature, afterResize: Bool = false) throws {
        guard let compiledModel = instance.compiledModel else { throw TensorIOError(.runtimeFailure, "the model is not compiled") }
        self.instance = instance
        self.signature = signature
        self.compiledModel = compiledModel
        let runtime = instance.runtime
        runCompiledModel = runtime.api
        runningMark = instance.crashActivity.runningMark
        invokeAction = signature.key == "serving_default" ? "running the model" : "running signature \"\(signature.key)\""

        let bound = afterResize ? nil : instance.boundInputs.flatMap { $0.signatureIndex == signature.index ? $0 : nil }
        let limits = instance.limits
        inputSlots = try (0..<signature.inputCount).map { index in
            try TensorSlot(instance, signature: signature.handle, compiledModel: compiledModel,
                           signatureIndex: signature.index, index: index, isInput: true,
                           bound: bound.flatMap { index < $0.inputs.count ? $0.inputs[index] : nil }, limits: limits)
        }
        // Output shapes as LiteRT prepares them (it allocates the signature's tensors first): the file
        // leaves some to their operator (TFLite_Detection_PostProcess's are `[]` there, [1, 10, 4] and
        // so on once prepared), and after a resize they follow the new input shapes. Memory sized from
        // the file would be written past by the first run.
        //
        // Preparing can print (a kernel refusing a shape), so it is captured — except after a resize to
        // input shapes this signature was already prepared for without a word: the same preparation again
        // prints nothing, and a training run whose last batch is smaller resizes twice an epoch, where the
        // capture's system calls (several dup2/fflush/lseek) cost as much as a few of its steps.
        var outputLayouts = [LiteRtLayout](repeating: LiteRtLayout(), count: signature.outputCount)
        if signature.outputCount > 0 {
            let prepare = {
                try runtime.check(
                    runtime.api.GetCompiledModelOutputTensorLayouts(
                        compiledModel, signature.index, signature.outputCount, &outputLayouts, true
                    ),
                    "preparing the outputs of signature \"\(signature.key)\""
                )
            }
            let shapes = LiteRTModelInstance.PreparedShapes(signature: signature.index, inputs: inputSlots.map(\.shape))
            if afterResize, instance.preparedQuietly.contains(shapes) {
                try prepare()
            } else {
                var printed = false
                try RuntimeOutput.capturing(.liteRT, logger: instance.logger, printedAnything: &printed, prepare)
                if afterResize, !printed { instance.notePreparedQuietly(shapes) }
            }
        }
        outputSlots = try (0..<signature.outputCount).map {
            try TensorSlot(instance, signature: signature.handle, compiledModel: compiledModel,
                           signatureIndex: signature.index, index: $0, isInput: false, layout: outputLayouts[$0],
                           limits: limits)
        }
        inputBuffers = LiteRTBufferList(inputSlots.map(\.buffer))
        outputBuffers = LiteRTBufferList(outputSlots.map(\.buffer))
        sizedByRuntime = outputSlots.contains(where: \.isSizedByRuntime)
        if sizedByRuntime { try checkOutputsAreAccepted() }
    }

    /// How many inputs use memory bound when compiling (``BoundInputMemory``).
    var boundInputCount: Int { inputSlots.filter(\.isBound).count }

    /// Gives inputs new shapes (a batch of another size) and makes the runner that fits them; this one
    /// must not run again.
    ///
    /// - Parameter shapes: New shapes by input index.
    /// - Returns: A runner of the same signature whose buffers fit the new shapes.
    /// - Throws: ``TensorIOError`` with LiteRT's status when the model cannot take the shape.
    func resizingInputs(_ shapes: [Int: [Int]]) throws -> SignatureRunner {
        let runtime = instance.runtime
        for (index, shape) in shapes.sorted(by: { $0.key < $1.key }) where inputSlots[index].shape != shape {
            let dims = shape.map { Int32($0) }
            try runtime.check(
                runtime.api.CompiledModelResizeInputTensor(compiledModel, signature.index, index, dims, dims.count),
                "resizing input \"\(inputSlots[index].name)\" of signature \"\(signature.key)\" to \(shape)"
            )
        }
        return try SignatureRunner(instance, signature: signature, afterResize: true)
    }

    /// Invokes the signature on what the input buffers hold.
    ///
    /// - Throws: ``TensorIOError`` with LiteRT's status.
    func invoke() throws {
        let status = runningMark.during { run() }
        if status != kLiteRtStatusOk { try instance.runtime.check(status, invokeAction) }
        if instance.weightCachePending.load() != 0 { instance.invoked() }
    }

    /// One `RunCompiledModel` call on this runner's buffers.
    private func run() -> LiteRtStatus {
        inputBuffers.withHandles { inputs, inputCount in
            outputBuffers.withHandles { outputs, outputCount in
                runCompiledModel.RunCompiledModel(compiledModel, signature.index, inputCount, inputs, outputCount, outputs)
            }
        }
    }

    /// Refuses a signature with an output LiteRT sizes only while the model runs (`Where`, `Unique`, a
    /// reshape to a computed shape…): LiteRT keeps such an output in memory of its own, refuses the
    /// run's buffer for it and fails every run; its compiled-model API has no way to hand that memory
    /// back. Checked once, by a run stopped before its first operator, so the model fails to load with
    /// the outputs named instead of failing each run with a bare status.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) naming the outputs the file
    ///   leaves to the runtime.
    private func checkOutputsAreAccepted() throws {
        // LiteRT prints why the run stopped; the error below says it better.
        var quiet = instance.logger
        quiet.logLevel = .error
        let accepted = try RuntimeOutput.capturing(.liteRT, logger: quiet) {
            instance.buffersAreAccepted { run() }
        }
        guard accepted == false else { return }
        let suspects = outputSlots.filter(\.isSizedByRuntime)
            .map { "\"\($0.name)\" (\($0.fileShape == [] ? "no shape" : "shape \($0.fileShape)") in the file)" }
        throw TensorIOError(
            .unsupported,
            "\(instance.fileName): LiteRT refuses the output buffers of signature \"\(signature.key)\": an output "
                + "whose operator sizes it only while the model runs (Where, Unique, a reshape to a computed shape…) "
                + "stays in LiteRT's own memory, which its compiled-model API cannot hand back; outputs the file "
                + "leaves to the runtime: \(suspects.joined(separator: ", "))",
            location: "model.file"
        )
    }

    /// Each output's shape as LiteRT reports it now (after a run, the shape the run wrote).
    ///
    /// - Throws: ``TensorIOError`` with LiteRT's status.
    func outputShapes() throws -> [[Int]] {
        var layouts = [LiteRtLayout](repeating: LiteRtLayout(), count: signature.outputCount)
        if signature.outputCount > 0 {
            try instance.runtime.check(
                runCompiledModel.GetCompiledModelOutputTensorLayouts(
                    compiledModel, signature.index, signature.outputCount, &layouts, false
                ),
                "reading the output shapes of signature \"\(signature.key)\""
            )
        }
        return layouts.map(\.dimensionList)
    }

    /// For each layer, the slot it binds to: the slot whose signature or tensor name equals the layer's
    /// name, else the next unclaimed slot in order.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) when the counts differ.
    static func bind(_ layers: LayerList, to slots: [TensorSlot], side: String, signature: String) throws -> [Int] {
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
