import ArgumentParser
import Foundation
import TensorIO
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio verify BUNDLE_OR_ARCHIVE --key PUBLIC`
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.verify.name,
        abstract: RepositoryCommand.verify.abstract,
        discussion: """
            Checks that the signature file is by one of the --key public keys, that it is valid, and that the \
            bundle holds exactly the signed files. An archive is unpacked into a temporary folder with the \
            same checks as an install. Prints "valid: MODEL version VERSION, signed by key KEYID (N files)"; \
            exits 1 with one line saying why otherwise.
            """
    )

    @Argument(help: "A bundle folder or a bundle archive (.zip).")
    var path: String

    @Option(help: "A trusted public key file (from keygen); repeat for several.")
    var key: [String] = []

    @Option(help: "Also require the signature to name this model id.")
    var id: String?

    @Option(help: "Also require the signature to name this version.")
    var version: String?

    func run() throws {
        guard !key.isEmpty else { throw CLIError.usage("give at least one --key PUBLIC") }
        let trusted = TrustedKeys(try key.map { try PublisherKey(contentsOf: URL(fileURLWithPath: $0)) })
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CLIError("\(path) does not exist")
        }
        let verified: ReleaseVerifier.VerifiedRelease
        do {
            if isDirectory.boolValue {
                verified = try ReleaseVerifier.verify(bundleAt: url, modelId: id, version: version, trustedKeys: trusted)
            } else {
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tensorio-verify-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: scratch) }
                let bundle = try BundleArchive.extract(url, into: scratch)
                verified = try ReleaseVerifier.verify(bundleAt: bundle, modelId: id, version: version, trustedKeys: trusted)
            }
        } catch let error as TensorIOError {
            throw CLIError("\(path): \(error.message)")
        }
        print("valid: \(verified.modelId) version \(verified.version), signed by key \(verified.key.id) (\(verified.fileCount) files)")
    }
}
