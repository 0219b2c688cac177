import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport

/// `tensorio validate BUNDLE...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check bundles against the model.json schema and their files.",
        discussion: """
            Exits 0 when every bundle is valid; otherwise prints one line per problem on stderr \
            (BUNDLE: PATH: MESSAGE) and exits 1. With --load, each model is loaded and run once on zeros in \
            a separate process (tensorio-load-check, next to tensorio) with a time and a memory limit, so \
            that a model which crashes the runtime is reported, not fatal.
            """
    )

    @Argument(help: "Bundle folders to check.")
    var bundles: [String]

    @Flag(help: "Also load each model (in a separate process) and compare its layers with the real tensors.")
    var load = false

    @Flag(name: .customLong("in-process"), help: "With --load, load in this process: faster, for trusted models only.")
    var inProcess = false

    @Option(name: .customLong("time-limit"), help: "With --load, the seconds one isolated load may take.")
    var timeLimit: Double = 60

    @Option(name: .customLong("memory-limit"), help: "With --load, the MiB of private memory one isolated load may use.")
    var memoryLimit: Int = 4096

    func validate() throws {
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw ValidationError("--time-limit must be between 0 and 86400 seconds, not \(timeLimit)")
        }
        guard memoryLimit >= 16, memoryLimit <= 1 << 30 else {
            throw ValidationError("--memory-limit must be at least 16 MiB, not \(memoryLimit)")
        }
        if !load, inProcess || timeLimit != 60 || memoryLimit != 4096 {
            throw ValidationError("--in-process, --time-limit and --memory-limit only apply with --load")
        }
    }

    var loadCheck: LoadCheck {
        inProcess
            ? .inProcess
            : .isolated(IsolatedLoading(timeLimit: .milliseconds(Int64(timeLimit * 1000)), memoryLimit: memoryLimit << 20))
    }

    func run() throws {
        var problems: [String] = []
        for path in bundles {
            let url = URL(fileURLWithPath: path)
            var issues: [BundleIssue]
            var opened: ModelBundle?
            if ModelBundle.isBareModel(url) {
                // A bare model: inferring its bundle checks the file (and its metadata) as loading would.
                do {
                    opened = try ModelBundle(modelAt: url, registry: .tool)
                    issues = []
                } catch {
                    // The message names the file already; each problem line starts with it once.
                    let message = (error as? TensorIOError)?.message ?? "\(error)"
                    issues = [BundleIssue(path: "", message: message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message)]
                }
            } else {
                issues = ModelBundleValidator(bundleAt: url, registry: .tool, logger: ToolLog.logger).issues()
            }
            problems += issues.map { "\(path): \($0)" }
            if issues.isEmpty, load {
                do {
                    let bundle = try opened ?? ModelBundle(at: url, registry: .tool, logger: ToolLog.logger)
                    if inProcess {
                        _ = try RuntimeLog.capturing {
                            try bundle.checkLoading(.inProcess, configuration: ModelConfiguration(logger: ToolLog.logger))
                        }
                    } else {
                        try bundle.checkLoading(loadCheck, configuration: ModelConfiguration(logger: ToolLog.logger))
                    }
                } catch {
                    problems.append("\(path): \(RuntimeHint.describe(error))")
                }
            }
            if issues.isEmpty, problems.allSatisfy({ !$0.hasPrefix("\(path): ") }) {
                print("\(path): valid")
                // Sizes the runtime decides are read back after each run (docs/model-json.md).
                let bundle = opened ?? (try? ModelBundle(at: url, registry: .tool, logger: ToolLog.logger))
                for output in bundle?.outputs ?? LayerList([]) where output.shape.contains(-1) {
                    let sizes = output.shape == [-1] ? "any shape" : "shape \(output.shape)"
                    print("\(path): output \"\(output.name)\" is sized at run time (\(sizes))")
                }
            }
        }
        guard problems.isEmpty else {
            ToolStandardError.write(problems.map { OneLine.text($0) + "\n" }.joined())
            throw ExitCode(1)
        }
    }
}
