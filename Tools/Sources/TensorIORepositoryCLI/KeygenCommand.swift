#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import TensorIO
import TensorIODelivery
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio keygen --out NAME`
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.keygen.name,
        abstract: RepositoryCommand.keygen.abstract,
        discussion: """
            Writes NAME.private (the secret key, mode 0600) and NAME.public (give it to clients: \
            pull/update --trusted-key, verify --key). Refuses to overwrite either file. Prints the key id, \
            then the two paths.
            """
    )

    @Option(help: "The key files' path without extension: NAME.private and NAME.public are written.")
    var out: String

    func run() throws {
        let privatePath = out + ".private"
        let publicPath = out + ".public"
        for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) {
            throw CLIError("\(path) exists already; keygen never overwrites a key (choose another --out)")
        }
        let key = PublisherSigningKey()
        try Self.writeNew(key.fileContents, to: privatePath, mode: 0o600)
        do {
            try Self.writeNew(key.publicKey.fileContents, to: publicPath, mode: 0o644)
        } catch {
            unlink(privatePath)
            throw error
        }
        print("key id \(key.publicKey.id)")
        print(privatePath)
        print(publicPath)
    }

    /// Writes a new file with `mode`, failing if anything is at `path` (`O_EXCL`, never following a link).
    static func writeNew(_ data: Data, to path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw CLIError("cannot create \(path): \(SystemErrorText.reason(errno: errno))")
        }
        // The umask may have narrowed the mode; the private key's must be exactly 0600 anyway.
        _ = fchmod(descriptor, mode)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let flushed = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written == data.count, flushed, closed else {
            unlink(path)
            throw CLIError("cannot write \(path): \(SystemErrorText.reason(errno: errno))")
        }
    }
}
