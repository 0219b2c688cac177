import ArgumentParser
import Foundation
import TensorIO

/// `tensorio validate BUNDLE...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check bundles against the model.json schema and their files.",
        discussion: """
            Exits 0 when every bundle is valid; otherwise prints one line per problem on stderr \
            (BUNDLE: PATH: MESSAGE) and exits 1.
            """
    )

    @Argument(help: "Bundle folders to check.")
    var bundles: [String]

    @Flag(help: "Also load each model and compare its layers with the real tensors.")
    var load = false

    func run() throws {
        var problems: [String] = []
        for path in bundles {
            let url = URL(fileURLWithPath: path)
            let issues = ModelBundleValidator(bundleAt: url).issues()
            problems += issues.map { "\(path): \($0)" }
            if issues.isEmpty, load {
                do {
                    let model = try ModelBundle(at: url).makeModel()
                    try RuntimeLog.capturing { try model.load() }
                } catch {
                    problems.append("\(path): \(error)")
                }
            }
            if issues.isEmpty, problems.allSatisfy({ !$0.hasPrefix("\(path): ") }) {
                print("\(path): valid")
            }
        }
        guard problems.isEmpty else {
            FileHandle.standardError.write(Data(problems.map { $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined().utf8))
            throw ExitCode(1)
        }
    }
}
