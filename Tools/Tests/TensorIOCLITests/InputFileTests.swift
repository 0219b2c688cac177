import Foundation
import Testing
import TensorIOTestSupport

/// `--input @FILE` beyond JSON: NumPy's .npy and .npz, standard input, pipes, and what is refused.
@Suite("tensorio run: NumPy files, standard input, pipes and devices")
struct InputFileTests {
    static let vectors = Fixtures.path("1_in_1_out_vectors_test.tiobundle")
    static let twoInputs = Fixtures.path("2_in_2_out_vectors_test.tiobundle")
    static let numpy = "Tests/Fixtures/NumPy"

    @Test(".npy in float64, big-endian float32, float16, int64, uint8 and big-endian int16 gives what the JSON numbers give", arguments: [
        "vector-f8.npy", "vector-f4-big-endian.npy", "vector-f2.npy", "vector-i8.npy", "vector-u1.npy", "vector-i2-big-endian.npy",
    ])
    func npy(file: String) async throws {
        let expected = try await CLI.run("run", Self.vectors, "--input", "[1,2,3,4]")
        expectSuccess(expected, stdout: #"{"output":[2,2,4,4]}"#)
        expectSuccess(try await CLI.run("run", Self.vectors, "--input", "@\(Self.numpy)/\(file)"), stdout: #"{"output":[2,2,4,4]}"#)
    }

    @Test(".npz (stored or compressed) feeds each layer its array by name; NAME=@FILE picks one array")
    func npz() async throws {
        let named = try await CLI.run("run", Self.twoInputs, "--input", "input1=[1,2,3,4]", "--input", "input2=[10,20,30,40]")
        #expect(named.status == 0, "\(named)")
        for file in ["two-inputs.npz", "two-inputs-compressed.npz"] {
            expectSuccess(try await CLI.run("run", Self.twoInputs, "--input", "@\(Self.numpy)/\(file)"), stdout: String(named.stdout.dropLast()))
        }
        let mixed = try await CLI.run("run", Self.twoInputs, "--input", "input1=@\(Self.numpy)/two-inputs.npz",
                                      "--input", "input2=[10,20,30,40]")
        expectSuccess(mixed, stdout: String(named.stdout.dropLast()))
        // numpy.savez(x) calls its one array arr_0: it feeds a one-input model, but names no layer of two.
        expectSuccess(try await CLI.run("run", Self.vectors, "--input", "@\(Self.numpy)/lone-array.npz"), stdout: #"{"output":[2,2,4,4]}"#)
        expectOneLineError(try await CLI.run("run", Self.twoInputs, "--input", "@\(Self.numpy)/lone-array.npz"),
                           containing: [#"array "arr_0" names no input layer"#, "input1, input2"])
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "input=@\(Self.numpy)/two-inputs.npz"),
                           containing: [#"no array named "input""#, "input1, input2"])
    }

    @Test("arrays that cannot be numbers in row-major order are refused in one sentence naming the file", arguments: [
        ("fortran-order.npy", "Fortran (column-major) order"),
        ("strings.npy", "'<U2' is not a number type"),
        ("truncated.npy", "needs 32 bytes of data, but the file holds 27"),
    ])
    func refusedArrays(file: String, fragment: String) async throws {
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(Self.numpy)/\(file)"),
                           containing: ["\(Self.numpy)/\(file)", fragment])
    }

    @Test("hostile .npy headers: overflowing shapes, huge header lengths, odd literals, not an archive")
    func hostileHeaders() async throws {
        try await withTemporaryDirectory { folder in
            func npy(_ header: String, major: UInt8 = 1, declaredLength: Int? = nil, data: Data = Data()) throws -> String {
                var bytes = Data([0x93] + Array("NUMPY".utf8) + [major, 0])
                let length = declaredLength ?? header.utf8.count
                bytes += major == 1 ? Data([UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF)])
                    : Data([UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24 & 0xFF)])
                bytes += Data(header.utf8) + data
                let url = folder.appendingPathComponent("\(UUID().uuidString).npy")
                try bytes.write(to: url)
                return url.path
            }
            let cases: [(String, String)] = [
                (try npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3037000500, 3037000500, 4), }"), "more elements than can be counted"),
                (try npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"), "not a tuple"),
                (try npy("{'descr': '<f4', 'fortran_order': False, 'shape': (\(Array(repeating: "1", count: 40).joined(separator: ","))), }"), "not a tuple"),
                (try npy("{'descr': '<f4'", major: 2, declaredLength: 0x7FFF_FFFF), "more than the limit"),
                (try npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}"), "unknown key"),
                (try npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }"), "structured type"),
                (try npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", major: 9), "version 9"),
                (try npy("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,), }"), "neither True nor False"),
                (try npy("{'descr': '<c8', 'fortran_order': False, 'shape': (4,), }"), "not a number type"),
                (try npy("[1, 2]"), "not a Python dictionary"),
            ]
            for (path, fragment) in cases {
                expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(path)"), containing: [path, fragment])
            }
            let notZip = folder.appendingPathComponent("inputs.npz")
            try Data("not a zip file".utf8).write(to: notZip)
            expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(notZip.path)"),
                               containing: [notZip.path, "is not a readable .npz file"])
        }
    }

    @Test("bounds: a file past 1 GiB, an .npz of more than 256 arrays, a zip bomb and an array named twice are refused")
    func bounds() async throws {
        try await withTemporaryDirectory { folder in
            // Sparse: a size on paper, no disk used; refused from its size, never read.
            let big = folder.appendingPathComponent("big.bin")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: UInt64(1 << 30) + 1)
            try handle.close()
            expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(big.path)"),
                               containing: ["\(big.path) is larger than the limit of 1073741824 bytes"])
        }
        let many = "\(Self.numpy)/many-arrays.npz"
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(many)"),
                           containing: ["\(many) is not a readable .npz file: it has 257 entries, more than the limit of 256"])
        // 17 KB that would unpack to 17 MiB: refused from its declared sizes, before anything is inflated.
        let bomb = "\(Self.numpy)/zip-bomb.npz"
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(bomb)"),
                           containing: ["\(bomb) is not a readable .npz file: zeros.npy unpacks", "more than 100 times"])
        let twice = "\(Self.numpy)/duplicate-arrays.npz"
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(twice)"),
                           containing: ["\(twice) holds the array input twice"])
        // A name with a vertical tab (a line break on a terminal) is written as \u{B}: still one line.
        let control = try await CLI.run("run", Self.twoInputs, "--input", "@\(Self.numpy)/control-character-name.npz")
        expectOneLineError(control, containing: [#"in\u{B}put"#])
        let breaks = control.stderr.dropLast().unicodeScalars.filter {
            [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
        #expect(breaks.isEmpty, "\(control)")
    }

    @Test("@- reads standard input: JSON or .npy; empty input is one line")
    func standardInput() async throws {
        expectSuccess(try await CLI.run(["run", Self.vectors, "--input", "@-"], standardInput: Data("[5, 6, 7, 8]\n".utf8)),
                      stdout: #"{"output":[6,6,8,8]}"#)
        let npy = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("\(Self.numpy)/vector-f8.npy"))
        expectSuccess(try await CLI.run(["run", Self.vectors, "--input", "@-"], standardInput: npy), stdout: #"{"output":[2,2,4,4]}"#)
        expectOneLineError(try await CLI.run(["run", Self.vectors, "--input", "@-"], standardInput: Data()),
                           containing: ["standard input is empty"])
    }

    @Test("a FIFO is read to its end, like standard input")
    func fifo() async throws {
        try await withTemporaryDirectory { folder in
            let fifo = folder.appendingPathComponent("values")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", "echo '[5,6,7,8]' > '\(fifo.path)'"]
            try writer.run()
            defer { if writer.isRunning { writer.terminate() } }
            expectSuccess(try await CLI.run("run", Self.vectors, "--input", "@\(fifo.path)"), stdout: #"{"output":[6,6,8,8]}"#)
        }
    }

    @Test("devices, folders and missing files are refused before anything is read", arguments: [
        ("/dev/null", "/dev/null is a character device, not a file"),
        ("/dev/zero", "/dev/zero is a character device, not a file"),
        ("Tests/Fixtures", "Tests/Fixtures is a folder"),
        ("no-such-file.bin", "no-such-file.bin does not exist"),
    ])
    func refusedFiles(path: String, fragment: String) async throws {
        expectOneLineError(try await CLI.run("run", Self.vectors, "--input", "@\(path)"), containing: [fragment])
    }
}
