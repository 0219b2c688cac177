/// Bytes as a C function takes them: a pointer to its byte type (`const unsigned char *`, which Swift
/// imports as `UInt8`; `const char *`, as `CChar`) and a count. What TurboJPEG, zlib's CRC-32, RE2 and
/// SentencePiece read.
///
/// Unsafe because Swift hands out bytes untyped (`Data`, a raw buffer) or typed as `UInt8`, and a C
/// function's byte type may differ: the memory is bound to it for the call. The contract: `Byte` is a
/// one-byte type (checked in every build, once per call), so every byte pattern is a valid `Byte` and the
/// binding is layout-compatible; the C function only reads the bytes, and only during the call.
package enum CByteBuffer {
    /// Calls `body` with `bytes` as `Byte`s and their count; the pointer is `nil` for no bytes.
    ///
    /// - Parameters:
    ///   - bytes: The bytes, alive for the call (the caller's `withUnsafeBytes`).
    ///   - type: The C function's byte type: `UInt8` or `CChar`.
    ///   - body: The C call; the pointer must not escape it.
    /// - Returns: What `body` returns.
    @inlinable
    package static func with<Byte, Result>(
        _ bytes: UnsafeRawBufferPointer, as type: Byte.Type, _ body: (UnsafePointer<Byte>?, Int) throws -> Result
    ) rethrows -> Result {
        precondition(MemoryLayout<Byte>.size == 1 && MemoryLayout<Byte>.stride == 1, "\(Byte.self) is not a byte")
        return try bytes.withMemoryRebound(to: Byte.self) { typed in try body(typed.baseAddress, typed.count) }
    }
}
