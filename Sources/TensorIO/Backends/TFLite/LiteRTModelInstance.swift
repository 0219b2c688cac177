internal import CLiteRT
import Foundation
import Logging
internal import TensorIOModelFile

/// A `.tflite` file read and compiled by LiteRT for the CPU, with its signatures listed. Everything that
/// runs a signature (``SignatureRunner``) keeps this alive, so it is destroyed last.
///
/// Not thread-safe: a compiled model runs one signature at a time.
final class LiteRTModelInstance {
    /// One signature of the model.
    struct Signature {
        let index: LiteRtParamIndex
        let handle: LiteRtSignature
        let key: String
        let inputCount: Int
        let outputCount: Int
    }

    let runtime: LiteRTRuntime.Handle
    /// The bounds on what LiteRT sizes from the file (prepared output shapes).
    let limits: ModelLimits
    /// Where LiteRT's messages go (``RuntimeOutput``).
    let logger: Logger
    /// The model file's name in the bundle, for errors.
    let fileName: String
    /// Names the model file on stderr if LiteRT crashes the process while loading or running it.
    let crashActivity: CrashActivity
    /// The verified bytes LiteRT parsed. LiteRT does not copy a buffer model, so this outlives `model`
    /// and `compiledModel`: stored properties are released after `deinit` has destroyed both.
    private let modelFile: MappedModelFile
    private(set) var model: LiteRtModel?
    private(set) var compiledModel: LiteRtCompiledModel?
    private(set) var signatures: [Signature] = []
    /// A weight cache LiteRT is writing: XNNPACK finishes the file during the first run, so it is put in
    /// place after the first successful invoke (``invoked()``).
    private var pendingWeightCache: XNNPackWeightCache?
    /// 1 while ``pendingWeightCache`` waits for its first invoke: what every invoke reads, an atomic
    /// word rather than the property (whose exclusivity check cost more than the rest of the read).
    let weightCachePending = AtomicCounter()
    /// What the compiled model's cancellation function shares (``buffersAreAccepted(by:)``); released
    /// after `deinit` has destroyed the compiled model that calls it.
    private let runProbe = LiteRTRunProbe()
    private var runProbeInstalled = false
    /// The prediction inputs' memory the compiled model was given (``BoundInputMemory``), released after
    /// `deinit` has destroyed the compiled model that reads it.
    private(set) var boundInputs: BoundInputMemory?
    /// Input shapes of a signature that LiteRT prepared after a resize without printing anything
    /// (``SignatureRunner``): preparing for them again is not captured. A few at most are kept.
    private(set) var preparedQuietly: Set<PreparedShapes> = []

    /// A signature's input shapes, as ``preparedQuietly`` keeps them.
    struct PreparedShapes: Hashable {
        let signature: LiteRtParamIndex
        let inputs: [[Int]]
    }

    /// Notes input shapes prepared without a word; batch sizes seldom vary, but a caller that sends every
    /// size keeps at most ``maximumPreparedQuietly`` of them.
    func notePreparedQuietly(_ shapes: PreparedShapes) {
        guard preparedQuietly.count < Self.maximumPreparedQuietly else { return }
        preparedQuietly.insert(shapes)
    }

    static let maximumPreparedQuietly = 16

    /// Reads, verifies and compiles the bundle's model with the configured thread count.
    ///
    /// With `chooseBoundSignature`, the inputs of the signature it picks from the model's are bound to
    /// memory of the instance when compiling (``BoundInputMemory``): for a runner that is never resized.
    ///
    /// The file is mapped and checked by ``TFLiteModelVerifier`` first, and LiteRT then parses that
    /// same mapping, so it never sees bytes that were not checked (LiteRT trusts its input: a crafted
    /// file can crash or hang it).
    ///
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidModelFile`` or
    ///   ``TensorIOError/Code/limitExceeded`` when the file fails verification, LiteRT's status when it
    ///   cannot be read or compiled.
    init(
        bundle: ModelBundle, configuration: ModelConfiguration,
        bindingInputsOf chooseBoundSignature: (([Signature]) -> Signature?)? = nil
    ) throws {
        guard !bundle.isPlaceholder, let fileURL = bundle.modelFileURL else {
            throw TensorIOError(.unsupported, "a placeholder bundle has no model to load")
        }
        limits = configuration.limits
        logger = configuration.logger
        fileName = bundle.modelFile.path
        runtime = try LiteRTRuntime.handle(logger: configuration.logger)
        modelFile = try MappedModelFile(
            bundleDirectory: bundle.url, fileName: bundle.modelFile.path, limits: configuration.limits
        )
        _ = try TFLiteModelVerifier.verify(modelFile.bytes, limits: configuration.limits, fileName: bundle.modelFile.path)
        guard let address = modelFile.bytes.baseAddress else {
            throw TensorIOError(.invalidModelFile, "\(bundle.modelFile.path) is empty", location: "model.file")
        }
        crashActivity = CrashActivity(modelFile: fileURL.path)
        // Reading and compiling print (the XNNPACK line once per process, a failing kernel's reason).
        try RuntimeOutput.capturing(.liteRT, logger: configuration.logger) {
            try crashActivity.loading {
                try load(address, bundle: bundle, configuration: configuration, chooseBoundSignature: chooseBoundSignature)
            }
        }
    }

    private func load(
        _ address: UnsafeRawPointer, bundle: ModelBundle, configuration: ModelConfiguration,
        chooseBoundSignature: (([Signature]) -> Signature?)?
    ) throws {
        let api = runtime.api
        var model: LiteRtModel?
        try runtime.check(api.CreateModelFromBuffer(runtime.environment, address, modelFile.bytes.count, &model),
                          "reading the model file \"\(bundle.modelFile.path)\"")
        self.model = model
        guard let model else { throw TensorIOError(.runtimeFailure, "LiteRT returned no model") }
        signatures = try Self.signatures(runtime, model)

        // A training bundle's weights change as it learns: only prediction bundles keep a weight cache.
        var weightCache = configuration.weightCacheDirectory.flatMap { directory in
            bundle.modelFile.modes.contains(.train) ? nil : XNNPackWeightCache.prepare(
                directory: directory, model: modelFile, runtimeLibraryPath: runtime.path, logger: configuration.logger
            )
        }
        let bindingSignature = chooseBoundSignature?(signatures)
        var (status, compiledModel, bound) = try compile(
            model, threadCount: configuration.threadCount, weightCache: weightCache, binding: bindingSignature
        )
        if status != kLiteRtStatusOk, bound != nil {
            // LiteRT refused a binding: compile as without them (each run then registers every input),
            // and without the weight cache, which the failed attempt may have started.
            configuration.logger.debug("LiteRT refused the input bindings; compiling without them")
            if let compiledModel { api.DestroyCompiledModel(compiledModel) }
            weightCache?.abandon()
            weightCache = nil
            (status, compiledModel, bound) = try compile(
                model, threadCount: configuration.threadCount, weightCache: nil, binding: nil
            )
        }
        if status == kLiteRtStatusOk, compiledModel != nil {
            pendingWeightCache = weightCache?.isBuilding == true ? weightCache : nil
            weightCachePending.store(pendingWeightCache == nil ? 0 : 1)
        } else {
            weightCache?.abandon()
        }
        try runtime.check(status, "compiling the model")
        self.compiledModel = compiledModel
        boundInputs = bound
    }

    /// Compiles the model for the CPU (XNNPack) with `threadCount` threads, the weight cache's option and,
    /// with `signature`, its inputs bound to new memory.
    ///
    /// - Returns: LiteRT's status, the compiled model, and the bound memory, which must outlive it.
    private func compile(
        _ model: LiteRtModel, threadCount: Int, weightCache: XNNPackWeightCache?, binding signature: Signature?
    ) throws -> (LiteRtStatus, LiteRtCompiledModel?, BoundInputMemory?) {
        let api = runtime.api
        var options: LiteRtOptions?
        try runtime.check(api.CreateOptions(&options), "creating compilation options")
        guard let options else { throw TensorIOError(.runtimeFailure, "LiteRT returned no options") }
        defer { api.DestroyOptions(options) }
        try runtime.check(api.SetOptionsHardwareAccelerators(options, kLiteRtHwAcceleratorCpu), "choosing the CPU")
        guard let payload = strdup("num_threads = \(threadCount)\n" + (weightCache?.optionLine ?? "")) else {
            throw TensorIOError(.runtimeFailure, "out of memory")
        }
        var xnnpack: LiteRtOpaqueOptions?
        try runtime.check(api.CreateOpaqueOptions("xnnpack", payload, { free($0) }, &xnnpack), "setting the thread count")
        if let xnnpack {
            try runtime.check(api.AddOpaqueOptions(options, xnnpack), "setting the thread count")
        }
        let bound = signature.flatMap { BoundInputMemory.bind($0, runtime: runtime, options: options) }
        var compiledModel: LiteRtCompiledModel?
        let status = api.CreateCompiledModel(runtime.environment, model, options, &compiledModel)
        return (status, compiledModel, bound)
    }

    /// Called after each successful invoke while a weight cache is pending: puts it in place.
    func invoked() {
        guard let cache = pendingWeightCache else { return }
        pendingWeightCache = nil
        weightCachePending.store(0)
        cache.publish()
    }

    /// Whether LiteRT accepts a run's buffers: `invoke` runs the model with the cancellation function
    /// stopping it before its first operator, so nothing is computed. LiteRT registers every buffer before
    /// the first operator and fails the run when it cannot (an output its operator sizes while running,
    /// which LiteRT keeps in memory of its own and cannot hand back); both failures report the same
    /// status, so the function's being called tells them apart.
    ///
    /// - Returns: `nil` when this LiteRT cannot stop a run (it lacks the function).
    func buffersAreAccepted(by invoke: () -> LiteRtStatus) -> Bool? {
        guard let setCancellation = runtime.api.SetCompiledModelCancellationFunction, let compiledModel else { return nil }
        if !runProbeInstalled {
            let installed = runProbe.install { data, function in setCancellation(compiledModel, data, function) }
            guard installed == kLiteRtStatusOk else { return nil }
            runProbeInstalled = true
        }
        return runProbe.stoppingRun { invoke() == kLiteRtStatusOk }
    }

    deinit {
        if let compiledModel { runtime.api.DestroyCompiledModel(compiledModel) }
        if let model { runtime.api.DestroyModel(model) }
        pendingWeightCache?.abandon()  // never run: the file may be incomplete
    }

    /// The signature called `key`.
    func signature(named key: String) -> Signature? {
        signatures.first { $0.key == key }
    }

    /// The signature predictions run: `serving_default`, else `infer` (TensorFlow's on-device training
    /// format), else the first that is not a training signature.
    func predictionSignature(trainingSignatures: Set<String>) throws -> Signature {
        try Self.predictionSignature(in: signatures, trainingSignatures: trainingSignatures)
    }

    /// ``predictionSignature(trainingSignatures:)`` among `signatures`, before the model is compiled.
    static func predictionSignature(in signatures: [Signature], trainingSignatures: Set<String>) throws -> Signature {
        func named(_ key: String) -> Signature? { signatures.first { $0.key == key } }
        guard let chosen = named("serving_default") ?? named("infer")
            ?? signatures.first(where: { !trainingSignatures.contains($0.key) })
        else {
            throw TensorIOError(.layerMismatch, "the model has no signature to run predictions with")
        }
        return chosen
    }

    private static func signatures(_ runtime: LiteRTRuntime.Handle, _ model: LiteRtModel) throws -> [Signature] {
        let api = runtime.api
        var count: LiteRtParamIndex = 0
        try runtime.check(api.GetNumModelSignatures(model, &count), "reading the model's signatures")
        guard count > 0 else { throw TensorIOError(.layerMismatch, "the model has no signature to run") }
        var signatures: [Signature] = []
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
            signatures.append(Signature(
                index: index, handle: handle, key: key.map { String(cString: $0) } ?? "",
                inputCount: inputs, outputCount: outputs
            ))
        }
        return signatures
    }
}
