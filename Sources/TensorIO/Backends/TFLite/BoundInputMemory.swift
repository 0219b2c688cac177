internal import CLiteRT
import Foundation
internal import TensorIOModelFile

/// Memory for the prediction signature's inputs that LiteRT is handed when it compiles the model (its
/// "external tensor bindings"), so that a run passes no buffer for them.
///
/// Why: LiteRT's run registers every buffer it is passed — it compares the buffer's shape with the
/// tensor's, looks up the backend's buffer requirements, locks the buffer and sets it as the tensor's
/// memory — about 1,800 instructions a tensor, more than the rest of TensorIO's own work on a small
/// model. A bound input is set up once, when compiling, and a run that passes `NULL` for it skips all of
/// that (LiteRT's `CompiledModel::Run` documents a `NULL` input buffer as "bound to an external buffer").
///
/// Only inputs whose size is known before compiling are bound: a fixed shape (no dimension of -1, which
/// only the compiled model resolves), a type TensorIO feeds, at most `Int32.max` bytes (the C headers
/// declare the size as `int`). The others keep a buffer of their own. The shapes come from a file
/// ``TFLiteModelVerifier`` has checked, so no input exceeds ``ModelLimits/maximumElementsPerTensor``. Models without signatures are left
/// alone: LiteRT finds the runner of its placeholder signature by another path than the binding's, and
/// an input the binding cannot find is ignored silently, which a run passing `NULL` would not survive.
///
/// Owned by the ``LiteRTModelInstance`` whose compiled model reads it, so it is freed after that model
/// is destroyed; the input slots (``TensorSlot``) write into it without owning it.
final class BoundInputMemory {
    /// The signature whose inputs are bound.
    let signatureIndex: LiteRtParamIndex
    /// Per input index, the bound memory (zeroed, 64-byte aligned) and its size in bytes; `nil` for an
    /// input left unbound.
    let inputs: [(memory: UnsafeMutableRawPointer, byteCount: Int)?]

    private init(signatureIndex: LiteRtParamIndex, inputs: [(memory: UnsafeMutableRawPointer, byteCount: Int)?]) {
        self.signatureIndex = signatureIndex
        self.inputs = inputs
    }

    deinit {
        for input in inputs { input?.memory.deallocate() }
    }

    /// The key LiteRT gives a model that has no signatures (`LiteRtSignatureT::kDefaultSignatureKey`).
    static let placeholderSignatureKey = "<placeholder signature>"

    /// Allocates memory for each input of `signature` that can be bound and adds the bindings to
    /// `options`, before the model is compiled with them.
    ///
    /// - Returns: The memory, or `nil` when nothing was bound (the library lacks the function, the model
    ///   has no signatures, or no input has a size known before compiling).
    static func bind(
        _ signature: LiteRTModelInstance.Signature, runtime: LiteRTRuntime.Handle, options: LiteRtOptions
    ) -> BoundInputMemory? {
        let api = runtime.api
        guard let addBinding = api.AddExternalTensorBinding, signature.key != placeholderSignatureKey else {
            return nil
        }
        var inputs: [(memory: UnsafeMutableRawPointer, byteCount: Int)?] = []
        for index in 0..<signature.inputCount {
            guard let byteCount = fixedByteCount(of: signature.handle, input: index, api: api) else {
                inputs.append(nil)
                continue
            }
            var name: UnsafePointer<CChar>?
            guard api.GetSignatureInputName(signature.handle, index, &name) == kLiteRtStatusOk, let name else {
                inputs.append(nil)
                continue
            }
            let (memory, capacity) = HostTensorMemory.allocate(byteCount: byteCount)
            let status = signature.key.withCString { addBinding(options, $0, name, memory, capacity) }
            if status == kLiteRtStatusOk {
                inputs.append((memory, capacity))
            } else {
                memory.deallocate()
                inputs.append(nil)
            }
        }
        guard inputs.contains(where: { $0 != nil }) else { return nil }
        return BoundInputMemory(signatureIndex: signature.index, inputs: inputs)
    }

    /// The input's size in bytes from the model's own shape and type, when every dimension is fixed, the
    /// type is one TensorIO feeds, and the size fits an `Int32`; else `nil`.
    private static func fixedByteCount(of signature: LiteRtSignature, input index: Int, api: TIOLiteRtAPI) -> Int? {
        var tensor: LiteRtTensor?
        var typeId: LiteRtTensorTypeId = 0
        var type = LiteRtRankedTensorType()
        guard api.GetSignatureInputTensorByIndex(signature, index, &tensor) == kLiteRtStatusOk, let tensor,
              api.GetTensorTypeId(tensor, &typeId) == kLiteRtStatusOk, typeId == kLiteRtRankedTensorType,
              api.GetRankedTensorType(tensor, &type) == kLiteRtStatusOk,
              let elementSize = TensorSlot.dataType(type.element_type)?.byteCount
        else { return nil }
        let dimensions = type.layout.dimensionList
        guard dimensions.count == Int(type.layout.rank) else { return nil }
        var byteCount = elementSize
        for dimension in dimensions {
            guard dimension > 0 else { return nil }
            let (product, overflow) = byteCount.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= Int(Int32.max) - HostTensorMemory.alignment else { return nil }
            byteCount = product
        }
        return byteCount
    }
}
