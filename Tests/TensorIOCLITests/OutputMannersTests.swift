import Foundation
import Testing

/// How the tool behaves at the end of a pipe: results flushed one by one, and a reader that goes away
/// ends the command at once and quietly with status 141 (128 + SIGPIPE), as Unix tools do.
@Suite("Output manners")
struct OutputMannersTests {
    @Test("a closed pipe ends run quietly with status 141")
    func closedPipe() async throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try await CLI.run(
            ["run", CLI.bundle("1_in_1_out_number_test.tiobundle"), "--input", "2"],
            standardOutput: .handle(pipe.fileHandleForWriting))
        #expect(result.exited && result.status == 141, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("classify over many photos: the first result arrives while the rest run; closing the pipe then stops it quietly")
    func firstResultThenClose() async throws {
        let photos = Array(repeating: "Examples/photos/cat.jpg", count: 200)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let command = Task {
            try await CLI.run(
                ["classify", "Examples/efficientnet-lite0-uint8.tiobundle"] + photos, standardOutput: .handle(writer))
        }
        // One result, read while the command is still working on the others.
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        try pipe.fileHandleForReading.close()
        let result = try await command.value
        #expect(String(decoding: received, as: UTF8.self).contains("cat.jpg"), "\(result)")
        #expect(result.exited && result.status == 141, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await CLI.run("--version")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+(-\w+)?\n$"#, options: .regularExpression) != nil, "\(result)")
    }
}
