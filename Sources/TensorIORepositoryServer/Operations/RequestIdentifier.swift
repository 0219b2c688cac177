#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird

/// The id that ties a request's log line to its client: the client's `X-Request-Id` when it is a safe
/// token, otherwise one made here. Answered in the response's `X-Request-Id`.
enum RequestIdentifier {
    /// The header carrying the id, both ways.
    static let header = HTTPFields.Element.Name("X-Request-Id")!
    /// The longest incoming id kept; a longer one is replaced, as is one with other characters.
    static let maximumLength = 128

    /// The request's id: its own if acceptable, or a new random one (32 hex digits).
    ///
    /// - Parameter request: The incoming request.
    /// - Returns: An id of 1 to ``maximumLength`` characters from `A-Z a-z 0-9 . _ : -`.
    static func identifier(for request: Request) -> String {
        if let incoming = request.headers[header], isAcceptable(incoming) { return incoming }
        return make()
    }

    /// Whether a client's id can be logged and echoed as it is: short, and only characters that cannot
    /// forge a log line or a header.
    static func isAcceptable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumLength && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                 UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    private static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
#endif
