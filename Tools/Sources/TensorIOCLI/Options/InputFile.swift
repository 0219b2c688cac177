#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport
import TensorIOSupport

/// Reads the files named by `--input @FILE` and standard input (`@-`), at most
/// ``InputArgument/maximumFileBytes`` each.
///
/// Regular files are read as the library reads untrusted files; pipes and FIFOs (`@<(python gen.py)`)
/// are read to their end, bounded; devices such as `/dev/zero` and folders are refused with a sentence,
/// never read.
enum InputFile {
    /// What was read, and whether it came through a pipe (which has no file name to say what it holds).
    struct Contents {
        var data: Data
        var isPipe: Bool
    }

    /// The bytes of the file at `path`.
    ///
    /// - Throws: ``CLIError`` naming the argument and the path.
    static func read(_ path: String, argument: String) throws -> Contents {
        let url = URL(fileURLWithPath: path)
        switch UntrustedFile.kind(of: url) {
        case .missing:
            throw CLIError("--input \(argument): \(path) does not exist")
        case .directory:
            throw CLIError("--input \(argument): \(path) is a folder; give a file")
        case .fifo:
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIError("--input \(argument): cannot open \(path): \(SystemErrorText.reason(errno: errno))")
            }
            defer { close(descriptor) }
            return Contents(data: try readToEnd(descriptor, source: path, argument: argument), isPipe: true)
        case .other(let what):
            throw CLIError("--input \(argument): \(path) is \(what), not a file; give a file, or @- to read standard input")
        case .regularFile:
            do {
                let data = try UntrustedFile.read(url, limit: InputArgument.maximumFileBytes, name: path, limitName: "")
                return Contents(data: data, isPipe: false)
            } catch let error as TensorIOError where error.code == .limitExceeded {
                throw CLIError("--input \(argument): \(path) is larger than the limit of \(InputArgument.maximumFileBytes) bytes")
            } catch let error as TensorIOError {
                throw CLIError("--input \(argument): \(error.message)")
            }
        }
    }

    /// Everything on standard input.
    ///
    /// - Throws: ``CLIError`` when it cannot be read, is a terminal, or is too large.
    static func readStandardInput(argument: String) throws -> Data {
        guard isatty(STDIN_FILENO) == 0 else {
            throw CLIError("--input \(argument) reads standard input, which is a terminal: pipe the value in (echo '[1,2]' | tensorio run …)")
        }
        return try readToEnd(STDIN_FILENO, source: "standard input", argument: argument)
    }

    /// Reads `descriptor` until its end; each read advances or ends the loop, and the total is bounded.
    private static func readToEnd(_ descriptor: Int32, source: String, argument: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw CLIError("--input \(argument): cannot read \(source): \(SystemErrorText.reason(errno: errno))")
            }
            if count == 0 { return data }
            guard data.count + count <= InputArgument.maximumFileBytes else {
                throw CLIError("--input \(argument): \(source) holds more than the limit of \(InputArgument.maximumFileBytes) bytes")
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}

/// The C library's `read`, which the enum's own `read` hides inside it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
