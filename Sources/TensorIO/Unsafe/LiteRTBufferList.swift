internal import CLiteRT

/// The array of LiteRT buffer handles one side of a `RunCompiledModel` call takes, made once per runner.
///
/// Unsafe only in how it is passed: the C function takes a `LiteRtTensorBuffer*` whose elements may be
/// `NULL` (an input bound when compiling), which Swift imports as a pointer to non-optional handles. An
/// optional opaque pointer has the same layout as the pointer, `nil` as `NULL` (checked in debug builds),
/// so the array's storage is handed over as that type. The contract: LiteRT only reads it, and only
/// during the call.
struct LiteRTBufferList {
    private let handles: [LiteRtTensorBuffer?]

    init(_ handles: [LiteRtTensorBuffer?]) {
        self.handles = handles
    }

    /// Calls `body` with the handles as `RunCompiledModel` takes them, and their count.
    @inline(__always)
    func withHandles<Result>(_ body: (UnsafeMutablePointer<LiteRtTensorBuffer>?, Int) -> Result) -> Result {
        assert(MemoryLayout<LiteRtTensorBuffer?>.size == MemoryLayout<LiteRtTensorBuffer>.size)
        return handles.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map {
                UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: LiteRtTensorBuffer.self)
            }
            return body(base, buffer.count)
        }
    }
}
