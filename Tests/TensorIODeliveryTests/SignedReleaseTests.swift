#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// Signed releases: publisher keys, signing, and clients that install only what a trusted key signed.
@Suite("Signed releases")
struct SignedReleaseTests {
    /// A copy of the number fixture for `version`, signed with `key` (unsigned when `key` is nil).
    static func signedBundle(version: String, key: PublisherSigningKey?, in folder: URL, modelId: String = Fixtures.numberModelId) throws -> URL {
        let bundle = try Fixtures.bundle(version: version, in: folder)
        if let key { try ReleaseSigner.sign(bundleAt: bundle, modelId: modelId, version: version, with: key) }
        return bundle
    }

    /// A store that trusts `keys` (none: unsigned versions install too).
    static func store(in folder: URL, trusting keys: [PublisherKey]?) throws -> ModelStore {
        try ModelStore(
            directory: folder.appendingPathComponent("store-\(UUID().uuidString)"), loadCheck: .inProcess,
            trustedKeys: keys.map { TrustedKeys($0) })
    }

    @Test("a version signed by a trusted key goes through the server into the store; the installed bundle still verifies")
    func roundTrip() async throws {
        try await withServer { server, folder in
            let key = PublisherSigningKey()
            let client = server.client()
            let bundle = try Self.signedBundle(version: "1", key: key, in: folder)
            _ = try await client.upload(archiveAt: try Fixtures.archive(of: bundle, in: folder), modelId: Fixtures.numberModelId, version: "1")
            let store = try Self.store(in: folder, trusting: [key.publicKey])
            let installed = try #require(try await client.install(modelId: Fixtures.numberModelId, into: store))
            #expect(installed.version == "1")
            let verified = try ReleaseVerifier.verify(
                bundleAt: installed.bundleURL, modelId: Fixtures.numberModelId, version: "1", trustedKeys: TrustedKeys([key.publicKey]))
            #expect(verified.key == key.publicKey && verified.modelId == Fixtures.numberModelId && verified.version == "1")
            #expect(verified.fileCount == 2, "model.json and model.tflite")
            #expect(try ModelBundle(at: installed.bundleURL).version == "1")
        }
    }

    @Test("with trusted keys an unsigned version is refused and the current one kept; without keys it installs")
    func unsigned() async throws {
        try await withServer { server, folder in
            let key = PublisherSigningKey()
            let client = server.client()
            _ = try await client.upload(
                archiveAt: try Fixtures.archive(of: try Self.signedBundle(version: "1", key: key, in: folder), in: folder),
                modelId: Fixtures.numberModelId, version: "1")
            try await Fixtures.push(version: "2", to: client, in: folder)  // unsigned
            let store = try Self.store(in: folder, trusting: [key.publicKey])
            try await client.install(modelId: Fixtures.numberModelId, version: "1", into: store)
            let error = await expectTensorIOError(.untrustedRelease) {
                try await client.install(modelId: Fixtures.numberModelId, into: store)
            }
            #expect(error?.message.contains("not signed") == true, "\(String(describing: error))")
            #expect(error?.message.contains("version 2 of \(Fixtures.numberModelId) was not installed") == true)
            #expect(try store.current(Fixtures.numberModelId)?.version == "1")
            #expect(try store.versions(Fixtures.numberModelId).map(\.version) == ["1"], "nothing of version 2 stays")

            let open = try Self.store(in: folder, trusting: nil)
            #expect(try await client.install(modelId: Fixtures.numberModelId, into: open)?.version == "2")
        }
    }

    @Test("a signature by an untrusted key is refused, naming the key; two trusted keys (rotation) both install")
    func keysAndRotation() async throws {
        try await withServer { server, folder in
            let old = PublisherSigningKey()
            let new = PublisherSigningKey()
            let stranger = PublisherSigningKey()
            let client = server.client()
            for (version, key) in [("1", old), ("2", new), ("3", stranger)] {
                _ = try await client.upload(
                    archiveAt: try Fixtures.archive(of: try Self.signedBundle(version: version, key: key, in: folder), in: folder),
                    modelId: Fixtures.numberModelId, version: version, canonical: false)
            }
            let store = try Self.store(in: folder, trusting: [old.publicKey, new.publicKey])
            #expect(try await client.install(modelId: Fixtures.numberModelId, version: "1", into: store)?.version == "1")
            #expect(try await client.install(modelId: Fixtures.numberModelId, version: "2", into: store)?.version == "2")
            let error = await expectTensorIOError(.untrustedRelease) {
                try await client.install(modelId: Fixtures.numberModelId, version: "3", into: store)
            }
            #expect(error?.message.contains("key \(stranger.publicKey.id), which is not trusted") == true, "\(String(describing: error))")
            #expect(try store.current(Fixtures.numberModelId)?.version == "2")

            // After rotation, clients that dropped the old key refuse what it signed.
            let rotated = try Self.store(in: folder, trusting: [new.publicKey])
            await expectTensorIOError(.untrustedRelease) {
                try await client.install(modelId: Fixtures.numberModelId, version: "1", into: rotated)
            }
            #expect(try rotated.current(Fixtures.numberModelId) == nil)
        }
    }

    @Test("latestModel keeps using the installed version when the update is refused, and says why")
    func latestModelKeepsTheInstalledVersion() async throws {
        try await withServer { server, folder in
            let key = PublisherSigningKey()
            let client = server.client()
            _ = try await client.upload(
                archiveAt: try Fixtures.archive(of: try Self.signedBundle(version: "1", key: key, in: folder), in: folder),
                modelId: Fixtures.numberModelId, version: "1")
            let store = try Self.store(in: folder, trusting: [key.publicKey])
            let first = try await client.latestModel(id: Fixtures.numberModelId, store: store, fallback: nil)
            #expect(first.updateError == nil && first.bundle.version == "1", "\(String(describing: first.updateError))")
            // Version 2 signed by a key the device does not trust (a compromised upload path).
            _ = try await client.upload(
                archiveAt: try Fixtures.archive(of: try Self.signedBundle(version: "2", key: PublisherSigningKey(), in: folder), in: folder),
                modelId: Fixtures.numberModelId, version: "2")
            let second = try await client.latestModel(id: Fixtures.numberModelId, store: store, fallback: nil)
            #expect(second.updateError?.code == .untrustedRelease, "\(String(describing: second.updateError))")
            #expect(second.bundle.version == "1")
            #expect(try store.current(Fixtures.numberModelId)?.version == "1")
        }
    }

    /// Installs signed v1 into a store trusting `key`, then offers `archive` as v2: it must be refused with
    /// a message containing `reason`, and v1 must stay current and usable.
    func expectRefused(
        _ archive: URL, version: String = "2", reason: String, key: PublisherSigningKey, folder: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let store = try Self.store(in: folder, trusting: [key.publicKey])
        let v1 = try Fixtures.archive(of: try Self.signedBundle(version: "1", key: key, in: folder), in: folder)
        try store.install(archiveAt: v1, modelId: Fixtures.numberModelId, version: "1")
        let error = expectTensorIOError(.untrustedRelease, sourceLocation: sourceLocation) {
            try store.install(archiveAt: archive, modelId: Fixtures.numberModelId, version: version)
        }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.message.contains("the current version is kept") == true, sourceLocation: sourceLocation)
        let current = try #require(try store.current(Fixtures.numberModelId), sourceLocation: sourceLocation)
        #expect(current.version == "1", sourceLocation: sourceLocation)
        #expect(try ModelBundle(at: current.bundleURL).version == "1", sourceLocation: sourceLocation)
        _ = try ModelBundle(at: current.bundleURL).makeModel()  // opening it is enough: the files are whole
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.appendingPathComponent(".tmp").path)
        #expect(leftovers.isEmpty, "\(leftovers)", sourceLocation: sourceLocation)
    }

    @Test("a changed, an extra or a missing file after signing is refused by the store before installing")
    func tamperedFiles() async throws {
        try await withTemporaryDirectory { folder in
            let key = PublisherSigningKey()

            let changed = try Self.signedBundle(version: "2", key: key, in: folder)
            let json = changed.appendingPathComponent("model.json")
            // Same size, other bytes: only the digest can tell.
            var bytes = try Data(contentsOf: json)
            let index = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
            bytes[index - 1] = bytes[index - 1] == UInt8(ascii: " ") ? UInt8(ascii: "\n") : UInt8(ascii: " ")
            try bytes.write(to: json)
            try await expectRefused(
                try Fixtures.archive(of: changed, in: folder), reason: "model.json differs from the signed one", key: key, folder: folder)

            let resized = try Self.signedBundle(version: "2", key: key, in: folder)
            try Data("\n".utf8).append(toFile: resized.appendingPathComponent("model.json"))
            try await expectRefused(
                try Fixtures.archive(of: resized, in: folder), reason: "model.json has", key: key, folder: folder)

            let extra = try Self.signedBundle(version: "2", key: key, in: folder)
            try FileManager.default.createDirectory(at: extra.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: extra.appendingPathComponent("assets/extra.txt"))
            try await expectRefused(
                try Fixtures.archive(of: extra, in: folder), reason: "assets/extra.txt is not in the signed manifest", key: key, folder: folder)

            let missing = try Self.signedBundle(version: "2", key: key, in: folder)
            try FileManager.default.createDirectory(at: missing.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try Data("label".utf8).write(to: missing.appendingPathComponent("assets/notes.txt"))
            try ReleaseSigner.sign(bundleAt: missing, modelId: Fixtures.numberModelId, version: "2", with: key)
            try FileManager.default.removeItem(at: missing.appendingPathComponent("assets/notes.txt"))
            try await expectRefused(
                try Fixtures.archive(of: missing, in: folder), reason: "the signed file assets/notes.txt is missing", key: key, folder: folder)
        }
    }

    @Test("v1's signature replayed as v2 (or under another model id) is refused, from an archive and as a local copy")
    func replay() async throws {
        try await withTemporaryDirectory { folder in
            let key = PublisherSigningKey()
            let v1 = try Fixtures.archive(of: try Self.signedBundle(version: "1", key: key, in: folder), in: folder)
            try await expectRefused(v1, version: "2", reason: "signed for version 1, not 2", key: key, folder: folder)

            let otherModel = try Fixtures.archive(
                of: try Self.signedBundle(version: "2", key: key, in: folder, modelId: "another_model"), in: folder)
            try await expectRefused(otherModel, reason: "signed for model another_model, not \(Fixtures.numberModelId)", key: key, folder: folder)

            // The store's shortcut for a new version number over the same archive re-checks the signature.
            let store = try Self.store(in: folder, trusting: [key.publicKey])
            let installed = try store.install(archiveAt: v1, modelId: Fixtures.numberModelId, version: "1")
            let error = expectTensorIOError(.untrustedRelease) { try store.installCopy(version: "3", of: installed) }
            #expect(error?.message.contains("signed for version 1, not 3") == true, "\(String(describing: error))")
            #expect(try store.current(Fixtures.numberModelId)?.version == "1")
        }
    }

    @Test("a signature or manifest changed after signing fails the Ed25519 check")
    func forgedSignatures() async throws {
        try await withTemporaryDirectory { folder in
            let key = PublisherSigningKey()

            // A file changed and its digest in the manifest "fixed" without the private key.
            let edited = try Self.signedBundle(version: "2", key: key, in: folder)
            let json = edited.appendingPathComponent("model.json")
            try Data("\n".utf8).append(toFile: json)
            let signature = try #require(try ReleaseSignature.read(bundleAt: edited))
            let files = try signature.manifest.files.map { file in
                file.path == "model.json"
                    ? ReleaseManifest.File(path: file.path, size: file.size + 1, sha256: try FileDigest.sha256(of: json))
                    : file
            }
            try ReleaseSignature(
                manifest: try ReleaseManifest(modelId: Fixtures.numberModelId, version: "2", files: files),
                keyId: signature.keyId, signature: signature.signature
            ).write(intoBundleAt: edited)
            try await expectRefused(try Fixtures.archive(of: edited, in: folder), reason: "is not valid", key: key, folder: folder)

            // One bit of the signature flipped.
            let flipped = try Self.signedBundle(version: "2", key: key, in: folder)
            var original = try #require(try ReleaseSignature.read(bundleAt: flipped))
            original.signature[10] ^= 1
            try original.write(intoBundleAt: flipped)
            try await expectRefused(try Fixtures.archive(of: flipped, in: folder), reason: "is not valid", key: key, folder: folder)

            // An attacker's own key, announced under the trusted key's id.
            let attacker = PublisherSigningKey()
            let impostor = try Self.signedBundle(version: "2", key: attacker, in: folder)
            var forged = try #require(try ReleaseSignature.read(bundleAt: impostor))
            forged.keyId = key.publicKey.id
            try forged.write(intoBundleAt: impostor)
            try await expectRefused(try Fixtures.archive(of: impostor, in: folder), reason: "is not valid", key: key, folder: folder)
        }
    }

    @Test("the server refuses, with 422 invalid-signature, a signature naming another version or listing other files; it stores a good one as uploaded")
    func serverUploadCheck() async throws {
        try await withServer { server, folder in
            let key = PublisherSigningKey()
            let client = server.client()
            let v1 = try Fixtures.archive(of: try Self.signedBundle(version: "1", key: key, in: folder), in: folder)
            _ = try await client.upload(archiveAt: v1, modelId: Fixtures.numberModelId, version: "1")
            let replayed = await expectTensorIOError(.invalidSignature) {
                _ = try await client.upload(archiveAt: v1, modelId: Fixtures.numberModelId, version: "2")
            }
            #expect(replayed?.message.contains("HTTP 422") == true && replayed?.message.contains("signed for version 1, not 2") == true,
                    "\(String(describing: replayed))")

            let changed = try Self.signedBundle(version: "2", key: key, in: folder)
            try Data("\n".utf8).append(toFile: changed.appendingPathComponent("model.json"))
            let mismatch = await expectTensorIOError(.invalidSignature) {
                _ = try await client.upload(archiveAt: try Fixtures.archive(of: changed, in: folder), modelId: Fixtures.numberModelId, version: "2")
            }
            #expect(mismatch?.message.contains("model.json has") == true, "\(String(describing: mismatch))")

            let garbage = try Fixtures.bundle(version: "2", in: folder)
            try Data("{\"format\": 1}".utf8).write(to: garbage.appendingPathComponent(ReleaseSignature.fileName))
            let malformed = await expectTensorIOError(.invalidSignature) {
                _ = try await client.upload(archiveAt: try Fixtures.archive(of: garbage, in: folder), modelId: Fixtures.numberModelId, version: "2")
            }
            #expect(malformed?.message.contains("field \"format\"") == true, "\(String(describing: malformed))")
            let versions = try await client.versions(of: Fixtures.numberModelId)
            #expect(versions.versions.map(\.version) == ["1"])
        }
    }

    @Test("key files: round trip; a wrong key id, bad base64, a wrong length, another format or an oversized file are refused")
    func keyFiles() throws {
        let key = PublisherSigningKey()
        let privateCopy = try PublisherSigningKey(fileContents: key.fileContents)
        #expect(privateCopy.publicKey == key.publicKey)
        #expect(try PublisherKey(fileContents: key.publicKey.fileContents) == key.publicKey)
        #expect(key.publicKey.id.count == 16)
        let other = PublisherSigningKey().publicKey
        let raw = key.publicKey.rawRepresentation.base64EncodedString()
        let cases: [(String, String)] = [
            ("not json", "not a JSON object"),
            ("[]", "not a JSON object"),
            ("{\"key_id\":\"\(key.publicKey.id)\",\"public_key\":\"\(raw)\"}", "field \"format\" is missing"),
            ("{\"format\":\"\(PublisherSigningKey.format)\",\"key_id\":\"\(key.publicKey.id)\",\"public_key\":\"\(raw)\"}", "field \"format\""),
            ("{\"format\":\"\(PublisherKey.format)\",\"key_id\":\"\(other.id)\",\"public_key\":\"\(raw)\"}", "field \"key_id\""),
            ("{\"format\":\"\(PublisherKey.format)\",\"key_id\":\"\(key.publicKey.id)\",\"public_key\":\"!!!\"}", "field \"public_key\""),
            ("{\"format\":\"\(PublisherKey.format)\",\"key_id\":\"\(key.publicKey.id)\",\"public_key\":\"AAAA\"}", "32 bytes"),
            ("{\"format\":\"\(PublisherKey.format)\",\"key_id\":\"\(key.publicKey.id)\",\"public_key\":\"\(String(repeating: "A", count: 4000))\"}", "field \"public_key\""),
            ("{\"format\":\"\(PublisherKey.format)\",\"key_id\":\"\(key.publicKey.id)\",\"public_key\":7}", "field \"public_key\""),
            (String(repeating: " ", count: PublisherKey.maximumFileBytes + 1), "limit"),
        ]
        for (text, expected) in cases {
            do {
                let parsed = try PublisherKey(fileContents: Data(text.utf8))
                Issue.record("accepted \(text.prefix(60)): \(parsed)")
            } catch let error as TensorIOError {
                #expect(error.code == .invalidKey && error.message.contains(expected), "\(text.prefix(60)): \(error)")
            }
        }
        // A public key file is not a private key file.
        #expect(throws: TensorIOError.self) { try PublisherSigningKey(fileContents: key.publicKey.fileContents) }
    }

    @Test("crafted signature files are refused with one error naming the field, never a crash")
    func craftedSignatureFiles() throws {
        let key = PublisherSigningKey()
        let digest = String(repeating: "a", count: 64)
        let signature = Data(count: 64).base64EncodedString()
        func file(
            format: String = "\"tensorio-release-signature-v1\"", modelId: String = "\"m\"", version: String = "\"1\"",
            files: String? = nil, keyId: String? = nil, signature sig: String? = nil
        ) -> String {
            "{\"format\":\(format),\"model_id\":\(modelId),\"version\":\(version),"
                + "\"files\":\(files ?? "[{\"path\":\"model.json\",\"size\":1,\"sha256\":\"\(digest)\"}]"),"
                + "\"key_id\":\(keyId ?? "\"\(key.publicKey.id)\""),\"signature\":\(sig ?? "\"\(signature)\"")}"
        }
        func entry(_ path: String, size: String = "1", sha256: String? = nil) -> String {
            "{\"path\":\(path),\"size\":\(size),\"sha256\":\"\(sha256 ?? digest)\"}"
        }
        let many = "[" + (0...ReleaseManifest.maximumFiles).map { entry("\"f\($0)\"") }.joined(separator: ",") + "]"
        let cases: [(String, TensorIOError.Code, String)] = [
            ("", .invalidSignature, "not valid JSON"),
            ("[1,2]", .invalidSignature, "not a JSON object"),
            ("{", .invalidSignature, "not valid JSON"),
            (file(format: "\"v0\""), .invalidSignature, "field \"format\""),
            (file(modelId: "\"../m\""), .invalidSignature, "field \"model_id\""),
            (file(version: "\"a b\""), .invalidSignature, "field \"version\""),
            (file(version: "1"), .invalidSignature, "field \"version\" has the wrong type"),
            (file(keyId: "\"XYZ\""), .invalidSignature, "field \"key_id\""),
            (file(signature: "\"not base64!\""), .invalidSignature, "field \"signature\""),
            (file(signature: "\"AAAA\""), .invalidSignature, "64-byte"),
            (file(signature: "\"\(String(repeating: "A", count: 100_000))\""), .invalidSignature, "field \"signature\""),
            (file(files: "{}"), .invalidSignature, "field \"files\" has the wrong type"),
            (file(files: "[\(entry("\"/etc/passwd\""))]"), .invalidSignature, "absolute path"),
            (file(files: "[\(entry("\"../model.json\""))]"), .invalidSignature, "\"..\" component"),
            (file(files: "[\(entry("\"a//b\""))]"), .invalidSignature, "empty"),
            (file(files: "[\(entry("\"a\\\\b\""))]"), .invalidSignature, "backslash"),
            (file(files: "[\(entry("\"a\\nfile x\""))]"), .invalidSignature, "control character"),
            (file(files: "[\(entry("\"\""))]"), .invalidSignature, "empty"),
            (file(files: "[\(entry("\"\(String(repeating: "a", count: 2000))\""))]"), .invalidSignature, "more than 1024 bytes"),
            (file(files: "[\(entry("\"tensorio-signature.json\""))]"), .invalidSignature, "cannot sign itself"),
            (file(files: "[\(entry("\"a\"")),\(entry("\"a\""))]"), .invalidSignature, "listed twice"),
            (file(files: "[\(entry("\"a\"", size: "-1"))]"), .invalidSignature, "files[0].size"),
            (file(files: "[\(entry("\"a\"", size: "1e30"))]"), .invalidSignature, "files[0].size"),
            (file(files: "[\(entry("\"a\"", sha256: "ABC"))]"), .invalidSignature, "files[0].sha256"),
            (file(files: many), .invalidSignature, "more than the limit of \(ReleaseManifest.maximumFiles)"),
            (String(repeating: "[", count: 100_000), .invalidSignature, "not valid JSON"),
            (String(repeating: " ", count: ReleaseSignature.maximumFileBytes + 1), .limitExceeded, "ReleaseSignature.maximumFileBytes"),
        ]
        for (text, code, expected) in cases {
            do {
                let parsed = try ReleaseSignature(fileContents: Data(text.utf8))
                Issue.record("accepted \(text.prefix(80)): \(parsed)")
            } catch let error as TensorIOError {
                #expect(error.code == code && error.message.contains(expected), "\(text.prefix(80))…\(text.suffix(150)): \(error)")
            }
        }
        // The well-formed one parses, and the canonical bytes are the documented text.
        let good = try ReleaseSignature(fileContents: Data(file().utf8))
        #expect(String(decoding: good.manifest.canonicalBytes, as: UTF8.self)
            == "tensorio-release-signature-v1\nmodel m\nversion 1\nfile \(digest) 1 model.json\n")
    }

    @Test("a folder with more files than a manifest may list is refused when signing and when verifying; a link is refused")
    func boundedFolders() async throws {
        try withTemporaryDirectory { folder in
            let key = PublisherSigningKey()
            let bundle = try Self.signedBundle(version: "1", key: key, in: folder)
            let many = bundle.appendingPathComponent("many")
            try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
            for index in 0..<ReleaseManifest.maximumFiles {
                try Data().write(to: many.appendingPathComponent("\(index)"))
            }
            let signing = expectTensorIOError(.limitExceeded) {
                try ReleaseSigner.sign(bundleAt: bundle, modelId: Fixtures.numberModelId, version: "1", with: key)
            }
            #expect(signing?.message.contains("more than \(ReleaseManifest.maximumFiles) files") == true, "\(String(describing: signing))")
            let verifying = expectTensorIOError(.untrustedRelease) {
                try ReleaseVerifier.verify(bundleAt: bundle, trustedKeys: TrustedKeys([key.publicKey]))
            }
            #expect(verifying?.message.contains("more than \(ReleaseManifest.maximumFiles) files") == true, "\(String(describing: verifying))")

            let linked = try Self.signedBundle(version: "1", key: key, in: folder)
            try FileManager.default.createSymbolicLink(
                at: linked.appendingPathComponent("link.json"), withDestinationURL: linked.appendingPathComponent("model.json"))
            let link = expectTensorIOError(.untrustedRelease) {
                try ReleaseVerifier.verify(bundleAt: linked, trustedKeys: TrustedKeys([key.publicKey]))
            }
            #expect(link?.message.contains("link.json") == true && link?.message.contains("not a plain file") == true,
                    "\(String(describing: link))")
        }
    }

    @Test("a crafted signature file inside a bundle is refused by the store: never installed, nothing crashes")
    func craftedFileInStore() async throws {
        try await withTemporaryDirectory { folder in
            let key = PublisherSigningKey()
            let contents: [(Data, String)] = [
                (Data("{\"format\":\"tensorio-release-signature-v1\"}".utf8), "field \"model_id\" is missing"),
                (Data(repeating: 0xff, count: 1000), "not valid JSON"),
                (Data(repeating: 0x20, count: ReleaseSignature.maximumFileBytes + 10), "larger than the limit"),
            ]
            for (data, reason) in contents {
                let bundle = try Fixtures.bundle(version: "2", in: folder)
                try data.write(to: bundle.appendingPathComponent(ReleaseSignature.fileName))
                try await expectRefused(try Fixtures.archive(of: bundle, in: folder), reason: reason, key: key, folder: folder)
            }
            // A folder where the signature file should be.
            let bundle = try Fixtures.bundle(version: "2", in: folder)
            try FileManager.default.createDirectory(
                at: bundle.appendingPathComponent(ReleaseSignature.fileName), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: bundle.appendingPathComponent(ReleaseSignature.fileName).appendingPathComponent("x"))
            try await expectRefused(try Fixtures.archive(of: bundle, in: folder), reason: "not a plain file", key: key, folder: folder)
        }
    }
}

extension Data {
    /// Appends these bytes to the file at `url`.
    func append(toFile url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
#endif
