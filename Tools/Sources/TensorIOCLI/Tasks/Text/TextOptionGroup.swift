import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOText
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

    /// Runs `work` on every text with the bundle's model, `jobs` at once, and prints each text's result in
    /// order as it is ready: with `jsonKey`, one JSON document `{"KEY":[…]}` streamed element by element,
    /// else `block` for each (its last argument says whether it is the first printed). A text that fails
    /// (too long, say) is one line at the end, and the exit status 1.
    ///
    /// - Throws: ``CLIError`` when the bundle takes no text; what building the model and reading its tokenizer throw.
    func run<Value: Sendable>(
        model options: ModelOptionGroup, bundle: ModelBundle, jobs jobOptions: JobsOptionGroup, jsonKey: String?,
        work: @escaping @Sendable (TextModel, String) throws -> Value,
        element: (String, Value) -> JSONText.Value, block: (String, Value, Bool) -> Void
    ) async throws {
        guard try bundle.text != nil else {
            throw CLIError("\(options.bundle) takes no text: give a bundle whose model.json has a \"text\" entry (tensorio init writes it from a model's tokenizer metadata)")
        }
        let texts = try all()
        let jobs = jobOptions.count(for: texts.count)
        let model = try options.makeModel(of: bundle, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs))
        try RuntimeLog.capturing { try model.load() }
        let textModel = try TextModel(model: model)
        var failures = InputFailures()
        var printed = 0
        if let jsonKey { print("{\"\(jsonKey)\":[", terminator: "") }
        var index = 0
        for await result in model.results(for: texts, concurrency: jobs, perform: { try work(textModel, $0) }) {
            let text = texts[index]
            index += 1
            do {
                let value = try result.get()
                if jsonKey != nil {
                    print((printed > 0 ? "," : "") + JSONText.render(element(text, value)), terminator: "")
                } else {
                    block(text, value, printed == 0)
                }
                printed += 1
            } catch {
                failures.record(error, label: "text \(index)")
            }
        }
        if jsonKey != nil { print("]}") }
        if !failures.isEmpty { throw failures }
    }
}
