import Foundation
import Testing
import TensorIOTestSupport

/// How the tool behaves at the end of a pipe: results flushed one by one, and a reader that goes away
/// ends the command at once and quietly with status 141 (128 + SIGPIPE), as Unix tools do.
@Suite("Output manners")
struct OutputMannersTests {
    @Test("classify over many photos: the first result arrives while the rest run; closing the pipe then stops it quietly")
    func firstResultThenClose() async throws {
        let photos = Array(repeating: "Examples/photos/cat.jpg", count: 200)
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("manners-\(UUID().uuidString).err")
        try Data().write(to: errors)
        defer { try? FileManager.default.removeItem(at: errors) }
        let process = Process()
        process.executableURL = try CLI.executableURL()
        process.arguments = ["classify", "Examples/efficientnet-lite0-uint8.tiobundle"] + photos
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try output.fileHandleForWriting.close()
        // Blocking reads and waits happen on a Dispatch thread: Swift's small cooperative pool is shared with
        // every other suite running meanwhile.
        let (received, status, reason) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var received = Data()
                while !received.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    received.append(chunk)
                }
                try? output.fileHandleForReading.close()  // the reader goes away after one result
                process.waitUntilExit()
                continuation.resume(returning: (received, process.terminationStatus, process.terminationReason))
            }
        }
        let stderr = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        #expect(String(decoding: received, as: UTF8.self).contains("cat.jpg"))
        #expect(reason == .exit && status == 141, "status \(status), stderr: \(stderr)")
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await CLI.run("--version")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+(-\w+)?\n$"#, options: .regularExpression) != nil, "\(result)")
    }
}
