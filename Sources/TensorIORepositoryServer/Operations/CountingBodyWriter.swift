#if Server  // built with the Server trait only (Package.swift)
import Hummingbird
import Synchronization

/// Counts the bytes a response body writes, and says when it finished (or failed), so that the request's
/// log line and metrics carry the bytes actually sent and the time until the last of them.
struct CountingBodyWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let tally: BodyTally

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await base.write(buffer)
        tally.add(buffer.readableBytes)
    }

    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        for buffer in buffers { try await write(buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await base.finish(trailingHeaders)
    }
}

/// The bytes one response body has written so far.
final class BodyTally: Sendable {
    private let bytes = Atomic<Int>(0)

    func add(_ count: Int) { _ = bytes.wrappingAdd(count, ordering: .relaxed) }

    var count: Int { bytes.load(ordering: .relaxed) }
}

extension ResponseBody {
    /// This body, counting what it writes into `tally` and calling `finished` once after its last byte, or
    /// when writing it failed (the client went away, the file could not be read).
    func counting(into tally: BodyTally, finished: @escaping @Sendable () -> Void) -> ResponseBody {
        let body = self
        return ResponseBody(contentLength: contentLength) { writer in
            defer { finished() }
            try await body.write(CountingBodyWriter(base: writer, tally: tally))
        }
    }
}
#endif
