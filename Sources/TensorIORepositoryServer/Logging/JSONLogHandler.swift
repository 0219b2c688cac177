#if Server  // built with the Server trait only (Package.swift)
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
public import Logging
@_spi(Internal) import TensorIO

/// A swift-log handler that writes one JSON object per line to standard error, for log collectors.
///
/// Each line holds `time` (ISO 8601, UTC, milliseconds), `level`, `label`, `message`, and every metadata
/// key at the top level (a key named like one of those four is written with a `metadata.` prefix).
/// Whole numbers and fractions in metadata are written as JSON numbers, nested metadata as objects and
/// arrays. A line is written with one `write(2)` call, so lines from concurrent requests do not interleave.
///
/// ```swift
/// let logger = Logger(label: "tensorio.serve") { JSONLogHandler(label: $0) }
/// ```
public struct JSONLogHandler: LogHandler {
    /// The logger's label, written as `label`.
    public let label: String
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    /// Metadata written with every line.
    public var metadata: Logger.Metadata = [:]
    /// Adds metadata to every line (task-local request context, for example).
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler writing to standard error.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - metadataProvider: Adds metadata to every line.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    /// Gets or sets one metadata value written with every line.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event as one line of JSON to standard error.
    ///
    /// - Parameter event: The event to write.
    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        let line = Self.line(
            time: Date(), level: event.level, label: label, message: event.message.description, metadata: fields)
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            // write(2) may write less than asked (a pipe near full); a failed write ends the loop.
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// The JSON object for one event, without the newline.
    static func line(
        time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        let reserved: Set<String> = ["time", "level", "label", "message"]
        var output = "{"
        output += "\"time\":" + JSONStringLiteral.quoted(timestamp(time))
        output += ",\"level\":" + JSONStringLiteral.quoted(level.rawValue)
        output += ",\"label\":" + JSONStringLiteral.quoted(label)
        output += ",\"message\":" + JSONStringLiteral.quoted(message)
        for key in metadata.keys.sorted() {
            let name = reserved.contains(key) ? "metadata." + key : key
            output += "," + JSONStringLiteral.quoted(name) + ":" + json(metadata[key]!)
        }
        return output + "}"
    }

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return JSONStringLiteral.quoted(text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as any BinaryInteger: return String(describing: number)
            case let number as Double where number.isFinite: return String(number)
            case let flag as Bool: return flag ? "true" : "false"
            default: return JSONStringLiteral.quoted(convertible.description)
            }
        case .dictionary(let dictionary):
            return "{" + dictionary.keys.sorted().map { JSONStringLiteral.quoted($0) + ":" + json(dictionary[$0]!) }.joined(separator: ",") + "}"
        case .array(let array):
            return "[" + array.map(json).joined(separator: ",") + "]"
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
#endif
