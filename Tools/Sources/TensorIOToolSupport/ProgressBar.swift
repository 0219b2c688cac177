import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (so logs and pipes stay clean).
/// Both are the tool's own stderr (``ToolStandardError``), whatever descriptor 2 is while a runtime's output
/// is captured.
package struct ProgressBar {
    package let total: Int
    package let label: String
    /// How counts are written: plain numbers, or sizes for byte counts.
    package let format: (Int) -> String
    private let enabled = ToolStandardError.isTerminal
    private var lastDrawn = -1

    package init(total: Int, label: String = "", format: @escaping (Int) -> String = { String($0) }) {
        self.total = total
        self.label = label
        self.format = format
    }

    /// Writes a byte count in MB with one decimal.
    package static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    package mutating func update(_ done: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        guard filled != lastDrawn || done == total else { return }
        lastDrawn = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        ToolStandardError.write("\r\(label.isEmpty ? "" : label + " ")[\(bar)] \(format(done))/\(format(total))")
    }

    package func finish() {
        guard enabled, total > 0 else { return }
        ToolStandardError.write("\n")
    }

    /// Erases the bar's line, so that a result printed to the same terminal starts on a clean one; the next
    /// ``update(_:)`` draws it again.
    package mutating func clear() {
        guard enabled, total > 0, lastDrawn >= 0 else { return }
        lastDrawn = -1
        ToolStandardError.write("\r\u{1B}[K")
    }
}

/// A ``ProgressBar`` that callbacks on other threads (an upload's delegate queue) may update.
package final class SharedProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var bar: ProgressBar  // guarded by `lock`

    package init(_ bar: ProgressBar) { self.bar = bar }

    package func update(_ done: Int) { lock.withLock { bar.update(done) } }

    package func finish() { lock.withLock { bar.finish() } }
}
