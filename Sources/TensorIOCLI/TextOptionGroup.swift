#if Tools  // built with the Tools trait only (Package.swift)
import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport

/// `--text` and `--text-file`: the texts `classify` and `embed` take instead of files, for a model with a
/// `text` entry.
struct TextOptionGroup: ParsableArguments {
    @Option(name: .customLong("text"), help: ArgumentHelp("A text for a text model (repeatable).", valueName: "text"))
    var texts: [String] = []

    @Option(name: .customLong("text-file"), help: ArgumentHelp("A UTF-8 file of texts for a text model, one a line (empty lines skipped).", valueName: "file"))
    var textFile: String?

    /// The largest `--text-file` read.
    static let maximumFileBytes = 256 << 20

    var isEmpty: Bool { texts.isEmpty && textFile == nil }

    /// The `--text` values, then the lines of `--text-file`.
    func all() throws -> [String] {
        guard let textFile else { return texts }
        let data = try UntrustedFile.read(
            URL(fileURLWithPath: textFile), limit: Self.maximumFileBytes, name: textFile, limitName: "--text-file's limit of 256 MiB"
        )
        guard let contents = String(data: data, encoding: .utf8) else { throw CLIError("\(textFile) is not UTF-8 text") }
        return texts + contents.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
    }

    /// The texts, each with the model's answer, in order: a text that fails (too long, say) fails alone.
    static func results<Value: Sendable>(
        _ texts: [String], model: any Model, jobs: Int, _ work: @escaping @Sendable (String) throws -> Value
    ) -> AsyncStream<Result<Value, any Error>> {
        model.results(for: texts, concurrency: jobs, perform: work)
    }
}
#endif
