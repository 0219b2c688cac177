/// Bytes handed to the C face of RE2 and SentencePiece, which wants a pointer even for no bytes.
enum CBytes {
    /// Calls `body` with `buffer` as C characters and their count (a pointer to one NUL when empty).
    static func withPointer<Result>(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (UnsafePointer<CChar>, Int) -> Result) -> Result {
        if let base = buffer.baseAddress, !buffer.isEmpty {
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0, buffer.count) }
        }
        let nothing: CChar = 0
        return withUnsafePointer(to: nothing) { body($0, 0) }
    }

    /// The NUL-terminated message a C function wrote into `buffer`.
    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
