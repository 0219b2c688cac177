import ArgumentParser
import Foundation
import TensorIO
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio push BUNDLE --to URL [--token …]`
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.push.name,
        abstract: RepositoryCommand.push.abstract,
        discussion: """
            Validates the bundle, zips it and uploads it. The model id and version default to model.json's \
            "id" and "version". With --sign KEY, a copy of the bundle is signed for that model id and \
            version (tensorio-signature.json, listing every file's SHA-256) and the copy is uploaded; the \
            bundle folder itself is not changed. Prints the stored version as one JSON object.
            """
    )

    @Argument(help: "The bundle folder.")
    var bundle: String

    @OptionGroup var server: TargetServerOptions

    @Option(help: "The model id (default: model.json's id).")
    var id: String?

    @Option(help: "The version (default: model.json's version).")
    var version: String?

    @Option(help: "Notes stored with the version.")
    var notes: String?

    @Option(name: .customLong("upgrade-to"), help: "The version that devices on this version should move to.")
    var upgradeTo: String?

    @Option(help: "A publisher's private key file (from keygen): sign the version before uploading it.")
    var sign: String?

    @Flag(name: .customLong("not-canonical"), help: "Do not make this version the canonical one (the first version always is).")
    var notCanonical = false

    func run() async throws {
        // The address and token are checked before the bundle is packed.
        let client = try server.client()
        let bundleURL = URL(fileURLWithPath: bundle)
        let opened = try ModelBundle(at: bundleURL, logger: ToolLog.logger)
        let modelId = id ?? opened.identifier
        let versionId = version ?? opened.version
        guard !modelId.isEmpty else { throw CLIError("\(bundle): model.json has no id; give --id") }
        guard !versionId.isEmpty else { throw CLIError("\(bundle): model.json has no version; give --version") }
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(versionId, kind: "version")

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tensorio-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let archive = scratch.appendingPathComponent("bundle.zip")
        if let sign {
            let key = try PublisherSigningKey(contentsOf: URL(fileURLWithPath: sign))
            // Sign a copy under the same folder name, so the user's bundle is left as it is.
            let copy = scratch.appendingPathComponent("signed").appendingPathComponent(bundleURL.standardizedFileURL.lastPathComponent)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                try FileManager.default.copyItem(at: bundleURL, to: copy)
            } catch {
                throw CLIError("cannot copy \(bundle) to sign it: \(error.localizedDescription)")
            }
            try ReleaseSigner.sign(bundleAt: copy, modelId: modelId, version: versionId, with: key)
            try BundleArchive.create(fromBundleAt: copy, to: archive)
        } else {
            try BundleArchive.create(fromBundleAt: bundleURL, to: archive)
        }

        // A bar on a terminal while the archive goes up; the server then checks it before answering.
        let size = ((try? FileManager.default.attributesOfItem(atPath: archive.path))?[.size] as? NSNumber)?.intValue ?? 0
        let bar = SharedProgressBar(ProgressBar(total: size, label: "upload", format: ProgressBar.megabytes))
        let stored: VersionDetails
        do {
            stored = try await client.upload(
                archiveAt: archive, modelId: modelId, version: versionId, canonical: !notCanonical, notes: notes,
                upgradeTo: upgradeTo, progress: { sent, _ in bar.update(Int(sent)) })
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        print(try JSONText.encode(stored))
    }
}
