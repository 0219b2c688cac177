import Foundation
import TensorIO
import Testing
import TensorIOSupport

@Suite("System errors in plain words")
struct SystemErrorTextTests {
    @Test("errno values: lower case, acronyms kept")
    func errnoValues() {
        #expect(SystemErrorText.reason(errno: ENOENT) == "no such file or directory")
        #expect(SystemErrorText.reason(errno: EACCES) == "permission denied")
        #expect(SystemErrorText.reason(errno: EIO) == "input/output error")  // glibc: "Input/output error"
    }

    @Test("Foundation errors: the POSIX reason inside, or words for the Cocoa code, never a dump")
    func foundationErrors() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file")
        let readError = #expect(throws: (any Error).self) { _ = try Data(contentsOf: missing) }
        let reason = SystemErrorText.reason(of: try #require(readError))
        #expect(reason == "no such file or directory", "\(reason)")
        let bare = NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.fileWriteOutOfSpace.rawValue)
        #expect(SystemErrorText.reason(of: bare) == "no space left on device")
        for text in [reason, SystemErrorText.reason(of: bare)] {
            #expect(!text.contains("Domain") && !text.contains("UserInfo") && !text.contains("operation could not"))
        }
    }

    @Test("a folder that cannot be created: the file in the way is named")
    func folderBlockedByAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("blocker-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let target = file.appendingPathComponent("a/b")
        let error = #expect(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        }
        #expect(SystemErrorText.reason(creatingFolder: target, error: try #require(error)) == "\(file.path) is not a folder")
    }
}
