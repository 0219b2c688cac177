import Foundation
package import Logging
import Synchronization

/// Holds the library's log messages (warnings such as "the .tfbundle extension is deprecated") until the
/// command ends: printed on stderr after a success, dropped after a failure, whose report must stay one line.
package struct DeferredLogHandler: LogHandler {
    private static let pending = Mutex<[String]>([])

    package var logLevel: Logger.Level = Self.configuredLevel

    /// The environment variable that lowers (or raises) the level shown: `debug` shows what the runtimes
    /// print, such as LiteRT's "Created TensorFlow Lite XNNPACK delegate for CPU.", `trace` everything.
    package static let levelVariable = "TENSORIO_LOG_LEVEL"

    /// `warning`, unless ``levelVariable`` names a swift-log level.
    package static let configuredLevel = ProcessInfo.processInfo.environment[levelVariable]
        .flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
    package var metadata: Logger.Metadata = [:]

    package init(label: String) {}

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        Self.hold("\(event.level): \(event.message)")
    }

    /// Holds one line of the tool's own (a warning) with the library's.
    package static func hold(_ line: String) {
        pending.withLock { $0.append(line) }
    }

    /// Prints what was held, once.
    package static func flush() {
        let lines = pending.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
        guard !lines.isEmpty else { return }
        ToolStandardError.write(lines.map { OneLine.text($0) + "\n" }.joined())
    }
}

/// The logger the tool hands to the libraries (TensorIO, TensorIODelivery): the libraries never make
/// their own, so this is where their notes and the runtimes' forwarded messages reach the tool, to be
/// held by ``DeferredLogHandler`` (which ``ToolMain`` bootstraps).
package enum ToolLog {
    package static var logger: Logger { Logger(label: "tensorio") }
}
