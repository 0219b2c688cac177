import Foundation
import Testing
import TensorIOTestSupport

/// Long work shows a progress bar on a terminal and stays quiet when stderr is a file or a pipe.
@Suite("Progress on a terminal, quiet when piped")
struct ProgressTests {
    /// A bar as ProgressBar draws it: a carriage return, an optional label, then `[###`.
    static func expectBar(_ result: ProcessResult, label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.exited && result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("\r\(label) [#"), "no progress bar on the terminal: \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("#]"), "the bar never filled: \(result)", sourceLocation: sourceLocation)
    }

    @Test("bench: a bar over the warm-up and timed runs on a terminal; nothing on a piped stderr")
    func bench() async throws {
        let arguments = ["bench", Fixtures.path("2_in_2_out_vectors_test.tiobundle"), "--runs", "200", "--callers", "1"]
        Self.expectBar(try await CLI.run(arguments, standardErrorOnTerminal: true), label: "bench")
        let piped = try await CLI.run(arguments)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
    }

    @Test("eval: a bar over the images on a terminal; nothing on a piped stderr")
    func eval() async throws {
        let arguments = ["eval", "Examples/digits/digits-uint8.tiobundle", "Examples/digits/test-images"]
        Self.expectBar(try await CLI.run(arguments, standardErrorOnTerminal: true), label: "eval")
        let piped = try await CLI.run(arguments)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
    }

    @Test("train: a bar per epoch over its batches on a terminal; piped, only the epoch lines")
    func train() async throws {
        try await withTemporaryDirectory { folder in
            let items = [-2.0, -1, 0, 0.5, 1, 1.5, 2, 3].map { x in #"{"x": [\#(x)], "y": [\#(2 * x + 1)]}"# }
            let data = folder.appendingPathComponent("line.json")
            try Data(("[" + items.joined(separator: ",") + "]").utf8).write(to: data)
            let arguments = ["train", "Tests/Fixtures/TensorFlowBundles/tf_trainable_linear_test.tiobundle", "--data", data.path,
                             "--placeholder", "learning_rate=0.1", "--epochs", "2", "--batch-size", "2"]
            Self.expectBar(try await CLI.run(arguments, standardErrorOnTerminal: true), label: "epoch 1/2")
            let piped = try await CLI.run(arguments)
            #expect(piped.status == 0 && !piped.stderr.contains("["), "\(piped)")
        }
    }

    @Test("push shows the upload and pull the download on a terminal; piped, both are quiet")
    func pushAndPull() async throws {
        try await withTemporaryDirectory { folder in
            let token = folder.appendingPathComponent("token")
            try Data("progress-token\n".utf8).write(to: token)
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--token-file", token.path])
            defer { server.stop() }
            let url = server.url.absoluteString
            let bundle = "Examples/efficientnet-lite0-float32.tiobundle"
            Self.expectBar(try await CLI.run(["push", bundle, "--to", url, "--token-file", token.path, "--version", "1"],
                                             standardErrorOnTerminal: true), label: "upload")
            let pushed = try await CLI.run(["push", bundle, "--to", url, "--token-file", token.path, "--version", "2"])
            #expect(pushed.status == 0 && pushed.stderr.isEmpty, "\(pushed)")

            let id = try #require(try jsonObject(pushed)["model_id"] as? String)
            Self.expectBar(try await CLI.run(["pull", id, "--from", url, "--into", folder.appendingPathComponent("a").path],
                                             standardErrorOnTerminal: true), label: "download")
            let pulled = try await CLI.run(["pull", id, "--from", url, "--into", folder.appendingPathComponent("b").path])
            #expect(pulled.status == 0 && pulled.stderr.isEmpty, "\(pulled)")
        }
    }
}
