internal import CTensorFlow

/// The elements of a `TF_STRING` tensor's storage, as the `TF_TString`s that TensorFlow's string functions
/// (`TF_StringInit`, `TF_StringCopy`, `TF_StringDealloc`) take.
///
/// Unsafe because TensorFlow hands a tensor's storage out untyped (`TF_TensorData`), and a string
/// tensor's holds 24-byte `TF_TString`s. The contract: `data` is the storage of a `TF_STRING` tensor, alive
/// for the call, of `byteCount` bytes (`TF_TensorByteSize`); `count` elements fit in it (checked in every
/// build, once per call) and it is aligned for them (TensorFlow aligns tensors to 64 bytes; checked in
/// debug builds).
enum TensorFlowStrings {
    /// Calls `body` with the first `count` elements.
    static func withElements<Result>(
        of data: UnsafeMutableRawPointer, byteCount: Int, count: Int, _ body: (UnsafeMutablePointer<TF_TString>) -> Result
    ) -> Result {
        precondition(count >= 0 && count <= byteCount / MemoryLayout<TF_TString>.stride,
                     "\(count) strings out of a tensor of \(byteCount) bytes")
        assert(Int(bitPattern: data) % MemoryLayout<TF_TString>.alignment == 0, "misaligned string tensor")
        return body(data.bindMemory(to: TF_TString.self, capacity: count))
    }
}
