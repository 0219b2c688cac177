import Foundation
import Testing
import TensorIOTestSupport

/// Errors are sentences naming the file, folder, port or host, never Foundation's or NIO's raw text.
@Suite("Plain errors: system failures in words")
struct PlainErrorTests {
    /// Text that must never reach the user.
    static let rawSystemText = [
        "Error Domain", "NSCocoaErrorDomain", "UserInfo", "errno", "The operation could not be completed",
        "bind(descriptor", "SocketAddressError",
    ]

    static func expectPlain(_ result: ProcessResult, containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        expectOneLineError(result, containing: fragments, sourceLocation: sourceLocation)
        for raw in rawSystemText {
            #expect(!result.stderr.contains(raw), "raw system text \"\(raw)\": \(result)", sourceLocation: sourceLocation)
        }
    }

    @Test("serve: a port in use, a host that is not this machine's, a host name that does not resolve")
    func listening() async throws {
        try await withTemporaryDirectory { folder in
            let first = try await ServeProcess.start(root: folder.appendingPathComponent("first"))
            defer { first.stop() }
            let port = try #require(first.url.port)
            let root = folder.appendingPathComponent("second").path
            Self.expectPlain(try await CLI.run(["serve", "--root", root, "--port", "\(port)"]),
                             containing: ["port \(port) is already in use on 127.0.0.1", "choose another port"])
            Self.expectPlain(try await CLI.run(["serve", "--root", root, "--port", "0", "--host", "192.0.2.1"]),
                             containing: ["192.0.2.1 is not an address of this machine"])
            Self.expectPlain(try await CLI.run(["serve", "--root", root, "--port", "0", "--host", "no-such-host.invalid"]),
                             containing: ["no-such-host.invalid: no such host name"])
        }
    }

    @Test("folders that cannot be created say why: a file in the way")
    func folders() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("a-file")
            try Data("x".utf8).write(to: file)
            Self.expectPlain(try await CLI.run(["serve", "--root", "\(file.path)/root"]),
                             containing: ["cannot open the repository in \(file.path)/root", "\(file.path) is not a folder"])
            Self.expectPlain(try await CLI.run(["pull", "m", "--from", "http://127.0.0.1:1", "--into", "\(file.path)/store"]),
                             containing: ["cannot create the model store", "\(file.path) is not a folder"])
            Self.expectPlain(try await CLI.run(["run", Fixtures.path("pixelbuffer_identity_test.tiobundle"), "--image", "Examples/photos/cat.jpg",
                                                "--output-dir", "\(file.path)/out"]),
                             containing: ["--output-dir \(file.path)/out", "\(file.path) is not a folder"])
        }
    }

    @Test("bundles, images and data files named as given: missing, a file for a folder, a folder for a file")
    func paths() async throws {
        Self.expectPlain(try await CLI.run("inspect", "no-such.tiobundle"), containing: ["error: no-such.tiobundle does not exist"])
        Self.expectPlain(try await CLI.run("run", "Examples/photos/cat.jpg", "--input", "1"),
                         containing: ["error: Examples/photos/cat.jpg: the file does not have the TFLite identifier", "it is not a TFLite model"])
        Self.expectPlain(try await CLI.run("classify", "Examples/efficientnet-lite0-float32.tiobundle", "Examples/photos"),
                         containing: ["error: Examples/photos is a folder: give the image files in it"])
        Self.expectPlain(try await CLI.run("eval", "Examples/efficientnet-lite0-float32.tiobundle", "no-such-folder"),
                         containing: ["cannot read the folder no-such-folder: no such file or directory"])
        Self.expectPlain(try await CLI.run("run", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--input", "@/dev/zero"),
                         containing: ["/dev/zero is a character device, not a file"])
    }
}
