import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (so logs and pipes stay clean).
struct ProgressBar {
    let total: Int
    let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastDrawn = -1

    init(total: Int, label: String = "") {
        self.total = total
        self.label = label
    }

    mutating func update(_ done: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        guard filled != lastDrawn || done == total else { return }
        lastDrawn = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label.isEmpty ? "" : label + " ")[\(bar)] \(done)/\(total)".utf8))
    }

    func finish() {
        guard enabled, total > 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
