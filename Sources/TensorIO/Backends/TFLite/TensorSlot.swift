internal import CLiteRT
import Foundation

/// One input or output tensor of the running signature: what LiteRT says about it, and the buffer over
/// 64-byte-aligned memory we own, so a run writes inputs and reads outputs without locking anything.
/// An input bound when the model was compiled (``BoundInputMemory``) uses that memory and has no buffer:
/// the run passes `NULL` for it.
final class TensorSlot {
    /// The signature's name for the tensor.
    let name: String
    /// The tensor's name in the graph.
    let tensorName: String
    /// The element type, when TensorIO can read it.
    let dataType: DataType?
    /// The element type's name as LiteRT numbers it.
    let typeName: String
    /// The shape the compiled model uses (batch dimensions resolved; an output's as LiteRT sizes it when
    /// it prepares the model).
    let shape: [Int]
    /// The shape the model file gives the tensor: `-1` where it leaves a dimension to the runtime, and
    /// `[]` for outputs whose operator sizes them (such as `TFLite_Detection_PostProcess`'s four).
    let fileShape: [Int]
    /// Whether LiteRT, not the file, decides this output's shape: the file's shape differs from the one
    /// LiteRT prepared. Such an output is read at the shape LiteRT reports after each run. (An input's
    /// open sizes are the ones a run feeds, so no input is.)
    let isSizedByRuntime: Bool
    /// Bytes of ``memory``: the most an output may hold after a run.
    var capacity: Int { memory.byteCount }
    /// The tensor's quantization, if any.
    let quantization: TensorQuantization?
    /// The tensor's bytes.
    let memory: TensorMemory
    /// Where they start, for LiteRT's buffer and for freeing them.
    private let start: UnsafeMutableRawPointer
    /// LiteRT's buffer over ``memory``; `nil` for a bound input (and a type TensorIO cannot feed).
    private(set) var buffer: LiteRtTensorBuffer?
    /// Whether ``memory`` is ours to free: a bound input's belongs to the model instance.
    private let ownsMemory: Bool
    /// Whether this input uses memory bound when compiling (runs pass no buffer for it).
    var isBound: Bool { !ownsMemory }

    private let runtime: LiteRTRuntime.Handle
    private let side: String
    /// The compiled model whose tensor this is, kept alive as long as the buffer over the tensor's
    /// memory (and a bound input's memory, which the instance owns).
    private let owner: LiteRTModelInstance

    init(
        _ owner: LiteRTModelInstance, signature: LiteRtSignature, compiledModel: LiteRtCompiledModel,
        signatureIndex: LiteRtParamIndex, index: Int, isInput: Bool, layout: LiteRtLayout? = nil,
        bound: (memory: UnsafeMutableRawPointer, byteCount: Int)? = nil, limits: ModelLimits
    ) throws {
        let runtime = owner.runtime
        let api = runtime.api
        self.runtime = runtime
        self.owner = owner
        side = isInput ? "input" : "output"

        var namePointer: UnsafePointer<CChar>?
        var tensor: LiteRtTensor?
        if isInput {
            try runtime.check(api.GetSignatureInputName(signature, index, &namePointer), "reading input \(index)'s name")
            try runtime.check(api.GetSignatureInputTensorByIndex(signature, index, &tensor), "reading input \(index)")
        } else {
            try runtime.check(api.GetSignatureOutputName(signature, index, &namePointer), "reading output \(index)'s name")
            try runtime.check(api.GetSignatureOutputTensorByIndex(signature, index, &tensor), "reading output \(index)")
        }
        name = namePointer.map { String(cString: $0) } ?? "\(side) \(index)"
        guard let tensor else { throw TensorIOError(.runtimeFailure, "LiteRT returned no tensor for \(side) \"\(name)\"") }

        var tensorNamePointer: UnsafePointer<CChar>?
        try runtime.check(api.GetTensorName(tensor, &tensorNamePointer), "reading \(side) \"\(name)\"'s tensor name")
        tensorName = tensorNamePointer.map { String(cString: $0) } ?? name

        var typeId: LiteRtTensorTypeId = 0
        try runtime.check(api.GetTensorTypeId(tensor, &typeId), "reading \(side) \"\(name)\"'s type")
        guard typeId == kLiteRtRankedTensorType else {
            throw TensorIOError(.unsupported, "\(side) tensor \"\(name)\" has no fixed rank, which TensorIO cannot feed")
        }
        var rankedType = LiteRtRankedTensorType()
        try runtime.check(api.GetRankedTensorType(tensor, &rankedType), "reading \(side) \"\(name)\"'s type")
        dataType = Self.dataType(rankedType.element_type)
        typeName = dataType?.rawValue ?? Self.unsupportedTypeName(rankedType.element_type)

        fileShape = rankedType.layout.dimensionList
        // The model may store -1 for the batch, or nothing for an output its operator sizes; the compiled
        // model knows the real shape (an output's once LiteRT has prepared the model: see SignatureRunner).
        var realLayout = layout ?? LiteRtLayout()
        if isInput {
            try runtime.check(
                api.GetCompiledModelInputTensorLayout(compiledModel, signatureIndex, index, &realLayout),
                "reading input \"\(name)\"'s shape"
            )
        }
        rankedType.layout = realLayout
        shape = realLayout.dimensionList
        isSizedByRuntime = !isInput && fileShape != shape
        quantization = try Self.quantization(runtime, tensor)

        // Our own memory (``HostTensorMemory``), at least as large as the compiled model asks for. The
        // shape comes from LiteRT, which sizes some outputs from the operator's options in the file, so
        // it is bounded like every shape the file gives.
        let elementSize = dataType?.byteCount ?? 1
        var byteCount = try Self.byteCount(of: shape, elementSize: elementSize, limits: limits, what: "\(side) \"\(name)\"")
        var requirements: LiteRtTensorBufferRequirements?
        let requirementStatus = isInput
            ? api.GetCompiledModelInputBufferRequirements(compiledModel, signatureIndex, index, &requirements)
            : api.GetCompiledModelOutputBufferRequirements(compiledModel, signatureIndex, index, &requirements)
        if requirementStatus == kLiteRtStatusOk, let requirements {
            var required = 0
            // A CPU buffer needs the packed size; a requirement far past it would be LiteRT misreading a
            // crafted file, and allocating it is not ours to do (a run then fails on the smaller buffer).
            if api.GetTensorBufferRequirementsBufferSize(requirements, &required) == kLiteRtStatusOk,
               required <= byteCount + 4096 {
                byteCount = max(byteCount, required)
            }
        }
        // A bound input smaller than that (the compiled model asking for more than the shape needs) gets a
        // buffer of its own, which LiteRT then registers on each run in place of the binding.
        if let bound, isInput, dataType != nil, bound.byteCount >= byteCount {
            start = bound.memory
            memory = TensorMemory(unsafeBase: bound.memory, byteCount: bound.byteCount)
            ownsMemory = false
            return
        }
        let (allocated, capacity) = HostTensorMemory.allocate(byteCount: byteCount)
        start = allocated
        memory = TensorMemory(unsafeBase: allocated, byteCount: capacity)
        ownsMemory = true

        if dataType != nil {
            var created: LiteRtTensorBuffer?
            try runtime.check(
                api.CreateTensorBufferFromHostMemory(&rankedType, allocated, capacity, nil, &created),
                "creating the buffer of \(side) \"\(name)\""
            )
            buffer = created
        }
    }

    /// Bytes of `shape`'s elements (at least one element's), overflow-checked and within `limits`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/limitExceeded``) naming `what` when the shape has
    ///   more than ``ModelLimits/maximumElementsPerTensor`` elements or a negative size.
    static func byteCount(of shape: [Int], elementSize: Int, limits: ModelLimits, what: @autoclosure () -> String) throws -> Int {
        var elements = 1
        for dimension in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard dimension >= 0, !overflow, product <= limits.maximumElementsPerTensor else {
                throw TensorIOError(
                    .limitExceeded,
                    "LiteRT gives \(what()) the shape \(shape), more than \(limits.maximumElementsPerTensor) elements (ModelLimits.maximumElementsPerTensor)"
                )
            }
            elements = product
        }
        return max(1, elements) * elementSize
    }

    deinit {
        if let buffer { runtime.api.DestroyTensorBuffer(buffer) }
        if ownsMemory { start.deallocate() }
    }

    /// What the layer checks need to know of this tensor.
    var facts: TensorFacts {
        TensorFacts(name: name, dataType: dataType, typeName: typeName, shape: shape, quantization: quantization)
    }

    /// Joins a layer to this tensor after checking they agree (``LayerTensorCheck``).
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) naming the layer.
    func binding(
        for layer: LayerDescription, quantizedModel: Bool?, isInput: Bool
    ) throws -> TensorBinding {
        try LayerTensorCheck.binding(
            layer: layer, tensor: facts, shape: shape, quantizedModel: quantizedModel, isInput: isInput
        )
    }

    /// What `tensorio inspect` shows for this tensor.
    func description(layer: String) -> TensorDescription {
        TensorDescription(
            name: name, tensorName: tensorName == name ? nil : tensorName, layerName: layer, typeName: typeName,
            shape: shape, quantization: quantization, fileShape: isSizedByRuntime ? fileShape : nil
        )
    }

    // MARK: - LiteRT values

    /// The element type TensorIO reads and writes for LiteRT's, or `nil` for one it cannot.
    static func dataType(_ type: LiteRtElementType) -> DataType? {
        switch type {
        case kLiteRtElementTypeFloat32: return .float32
        case kLiteRtElementTypeInt32: return .int32
        case kLiteRtElementTypeUInt8: return .uint8
        case kLiteRtElementTypeInt64: return .int64
        case kLiteRtElementTypeBool: return .bool
        case kLiteRtElementTypeInt16: return .int16
        case kLiteRtElementTypeInt8: return .int8
        case kLiteRtElementTypeFloat16: return .float16
        case kLiteRtElementTypeFloat64: return .float64
        default: return nil
        }
    }

    private static func unsupportedTypeName(_ type: LiteRtElementType) -> String {
        switch type {
        case kLiteRtElementTypeTfString: return "string"
        case kLiteRtElementTypeComplex64: return "complex64"
        case kLiteRtElementTypeComplex128: return "complex128"
        case kLiteRtElementTypeUInt64: return "uint64"
        case kLiteRtElementTypeUInt32: return "uint32"
        case kLiteRtElementTypeUInt16: return "uint16"
        case kLiteRtElementTypeInt4: return "int4"
        case kLiteRtElementTypeBFloat16: return "bfloat16"
        default: return "type \(type)"
        }
    }

    private static func quantization(_ runtime: LiteRTRuntime.Handle, _ tensor: LiteRtTensor) throws -> TensorQuantization? {
        let api = runtime.api
        var kind: LiteRtQuantizationTypeId = kLiteRtQuantizationNone
        guard api.GetQuantizationTypeId(tensor, &kind) == kLiteRtStatusOk else { return nil }
        switch kind {
        case kLiteRtQuantizationPerTensor:
            var parameters = LiteRtQuantizationPerTensor()
            try runtime.check(api.GetPerTensorQuantization(tensor, &parameters), "reading quantization parameters")
            return .perTensor(scale: parameters.scale, zeroPoint: parameters.zero_point)
        case kLiteRtQuantizationPerChannel:
            var parameters = LiteRtQuantizationPerChannel()
            try runtime.check(api.GetPerChannelQuantization(tensor, &parameters), "reading quantization parameters")
            let count = Int(parameters.num_channels)
            let scales = parameters.scales.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            let zeroPoints = parameters.zero_points.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            return .perChannel(dimension: Int(parameters.quantized_dimension), scales: scales, zeroPoints: zeroPoints)
        default:
            return nil
        }
    }
}
