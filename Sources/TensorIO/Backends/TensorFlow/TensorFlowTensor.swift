internal import CTensorFlow
import Foundation

/// A TensorFlow tensor we own (deleted with this object): an input we allocated and filled, or an output
/// a run handed back.
final class TensorFlowTensor: @unchecked Sendable {
    let pointer: OpaquePointer
    private let runtime: TensorFlowRuntime.Handle
    /// String tensors hold TF_TString elements whose heap parts TensorFlow does not free for us.
    private var stringCount = 0

    init(runtime: TensorFlowRuntime.Handle, adopting pointer: OpaquePointer) {
        self.runtime = runtime
        self.pointer = pointer
    }

    /// Allocates a zeroed tensor of `type` and `shape`, `byteCount` bytes long.
    convenience init(runtime: TensorFlowRuntime.Handle, type: TF_DataType, shape: [Int], byteCount: Int) throws {
        let dims = shape.map { Int64($0) }
        guard let pointer = runtime.api.AllocateTensor(type, dims, Int32(dims.count), max(0, byteCount)) else {
            throw TensorIOError(.runtimeFailure, "TensorFlow could not allocate a tensor of shape \(shape)")
        }
        self.init(runtime: runtime, adopting: pointer)
        if byteCount > 0, let data = runtime.api.TensorData(pointer) { memset(data, 0, byteCount) }
    }

    /// A scalar string tensor holding `text` (how a checkpoint path is fed to the saver).
    convenience init(runtime: TensorFlowRuntime.Handle, string text: String) throws {
        try self.init(runtime: runtime, type: TF_STRING, shape: [], byteCount: MemoryLayout<TF_TString>.size)
        guard let data = runtime.api.TensorData(pointer) else {
            throw TensorIOError(.runtimeFailure, "TensorFlow returned a string tensor without storage")
        }
        var bytes = Array(text.utf8CString.dropLast()).map { CChar($0) }
        if bytes.isEmpty { bytes = [0] }
        TensorFlowStrings.withElements(of: data, byteCount: byteCount, count: 1) { element in
            runtime.api.StringInit(element)
            runtime.api.StringCopy(element, bytes, text.utf8.count)
        }
        stringCount = 1
    }

    deinit {
        if stringCount > 0, let data = runtime.api.TensorData(pointer) {
            TensorFlowStrings.withElements(of: data, byteCount: byteCount, count: stringCount) { elements in
                for index in 0..<stringCount { runtime.api.StringDealloc(elements + index) }
            }
        }
        runtime.api.DeleteTensor(pointer)
    }

    /// The tensor's element type.
    var type: TF_DataType { runtime.api.TensorType(pointer) }

    /// The tensor's shape.
    var shape: [Int] {
        (0..<Int(runtime.api.NumDims(pointer))).map { Int(runtime.api.Dim(pointer, Int32($0))) }
    }

    /// The tensor's size in bytes.
    var byteCount: Int { runtime.api.TensorByteSize(pointer) }

    /// The tensor's bytes (nil for an empty tensor).
    var data: UnsafeMutableRawPointer? { runtime.api.TensorData(pointer) }

    /// The tensor's bytes, for a ``TensorBinding`` to write or read; `nil` without storage. Valid while
    /// this tensor lives.
    var memory: TensorMemory? {
        data.map { TensorMemory(unsafeBase: $0, byteCount: byteCount) }
    }
}

extension DataType {
    /// The TensorFlow type for this element type.
    var tensorFlowType: TF_DataType {
        switch self {
        case .float32: TF_FLOAT
        case .float64: TF_DOUBLE
        case .float16: TF_HALF
        case .int32: TF_INT32
        case .int64: TF_INT64
        case .int16: TF_INT16
        case .int8: TF_INT8
        case .uint8: TF_UINT8
        case .bool: TF_BOOL
        }
    }

    /// The element type for a TensorFlow type, when TensorIO can read and write it.
    init?(tensorFlowType type: TF_DataType) {
        switch type {
        case TF_FLOAT: self = .float32
        case TF_DOUBLE: self = .float64
        case TF_HALF: self = .float16
        case TF_INT32: self = .int32
        case TF_INT64: self = .int64
        case TF_INT16: self = .int16
        case TF_INT8: self = .int8
        case TF_UINT8: self = .uint8
        case TF_BOOL: self = .bool
        default: return nil
        }
    }

    /// A readable name for any TensorFlow type, for error messages.
    static func tensorFlowTypeName(_ type: TF_DataType) -> String {
        if let known = DataType(tensorFlowType: type) { return known.rawValue }
        switch type {
        case TF_STRING: return "string"
        case TF_RESOURCE: return "resource"
        case TF_UINT16: return "uint16"
        case TF_UINT32: return "uint32"
        case TF_UINT64: return "uint64"
        default: return "TensorFlow type \(type)"
        }
    }
}
