import Foundation
import Testing
import TensorIOTestSupport

/// `--jobs`, declared once (JobsOptionGroup) for every command that runs a list of inputs.
@Suite("CLI: --jobs")
struct JobsOptionTests {
    static let bundle = "Examples/efficientnet-lite0-float32.tiobundle"

    @Test("each command that runs a list of inputs refuses --jobs 0 and 65 as a usage error naming --jobs; 1 and 64 are taken",
          arguments: ["classify", "detect", "segment", "embed", "similar", "eval"])
    func bounds(_ command: String) async throws {
        let inputs = command == "eval" ? ["Examples/photos"] : ["Examples/photos/cat.jpg", "Examples/photos"]
        for jobs in ["0", "65"] {
            let result = try await CLI.run([command, Self.bundle] + inputs + ["--jobs", jobs])
            expectUsageError(result, containing: ["--jobs must be between 1 and 64"])
        }
        for jobs in ["1", "64"] {
            let result = try await CLI.run([command, Self.bundle] + inputs + ["--jobs", jobs])
            #expect(result.exited && result.status != 64, "\(command) --jobs \(jobs) passes validation: \(result)")
        }
    }
}
