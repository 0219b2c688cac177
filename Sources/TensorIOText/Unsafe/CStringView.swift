/// UTF-8 bytes as RE2's and SentencePiece's C face takes a text: a `const char *`, never `NULL` (even for no
/// bytes), and a length (the C++ side's `string_view`, not NUL-terminated).
///
/// Unsafe because Swift's bytes are `UInt8`s and C's `char` is `CChar`: the memory is bound to `CChar`
/// for the call. The contract: the bytes are alive for the call (the caller's `withUnsafe…`), the C side
/// only reads them and only during the call; `UInt8` and `CChar` have one layout, so the binding is
/// always valid.
enum CStringView {
    /// Calls `body` with `bytes` as C characters and their count (a pointer to one NUL when empty).
    static func with<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<CChar>, Int) -> Result) -> Result {
        if let base = bytes.baseAddress, !bytes.isEmpty {
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body($0, bytes.count) }
        }
        let nothing: CChar = 0
        return withUnsafePointer(to: nothing) { body($0, 0) }
    }

    /// Calls `body` with untyped `bytes` (a file's, in `Data`) as C characters and their count.
    static func with<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>, Int) -> Result) -> Result {
        bytes.withMemoryRebound(to: UInt8.self) { with($0, body) }
    }
}
