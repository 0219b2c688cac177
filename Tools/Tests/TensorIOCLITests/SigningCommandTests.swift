import Foundation
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// `tensorio keygen`, `push --sign`, `pull`/`update --trusted-key` and `verify`, with a real server process.
@Suite("tensorio keygen, push --sign, pull/update --trusted-key, verify")
struct SigningCommandTests {
    static let id = Fixtures.numberModelId

    /// Runs `keygen --out folder/name`; returns the private and public key paths.
    static func keygen(_ name: String, in folder: URL) async throws -> (privateKey: String, publicKey: String) {
        let out = folder.appendingPathComponent(name).path
        let result = try await CLI.run(["keygen", "--out", out])
        #expect(result.status == 0, "\(result)")
        return (out + ".private", out + ".public")
    }

    @Test("keygen writes a 0600 private key and a public key with the same id, and never overwrites")
    func keygen() async throws {
        try await withTemporaryDirectory { folder in
            let out = folder.appendingPathComponent("publisher").path
            var result = try await CLI.run(["keygen", "--out", out])
            let key = try PublisherSigningKey(contentsOf: URL(fileURLWithPath: out + ".private"))
            expectSuccess(result, stdout: "key id \(key.publicKey.id)\n\(out).private\n\(out).public")
            #expect(try PublisherKey(contentsOf: URL(fileURLWithPath: out + ".public")) == key.publicKey)
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: out + ".private")[.posixPermissions] as? NSNumber)
            #expect(mode.intValue & 0o777 == 0o600)
            let before = try Data(contentsOf: URL(fileURLWithPath: out + ".private"))
            result = try await CLI.run(["keygen", "--out", out])
            expectOneLineError(result, containing: ["exists already", "never overwrites"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + ".private")) == before)
            // Only the public file there: still refused, and no private key written beside it.
            let lone = folder.appendingPathComponent("lone").path
            try Data().write(to: URL(fileURLWithPath: lone + ".public"))
            expectOneLineError(try await CLI.run(["keygen", "--out", lone]), containing: ["lone.public exists already"])
            #expect(!FileManager.default.fileExists(atPath: lone + ".private"))
        }
    }

    @Test("push --sign to a server; pull with the right key installs, with another key it is refused; update keeps the installed version on a bad signature")
    func pushSignPullUpdate() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            let publisher = try await Self.keygen("publisher", in: folder)
            let stranger = try await Self.keygen("stranger", in: folder)
            let publisherId = try PublisherKey(contentsOf: URL(fileURLWithPath: publisher.publicKey)).id
            let strangerId = try PublisherKey(contentsOf: URL(fileURLWithPath: stranger.publicKey)).id

            let v1 = try Fixtures.bundle(version: "1", in: folder)
            var result = try await CLI.run(["push", v1.path, "--to", url, "--token-file", tokenFile, "--sign", publisher.privateKey])
            #expect(result.status == 0, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: v1.appendingPathComponent(ReleaseSignature.fileName).path),
                    "the bundle folder itself is not changed")

            let store = folder.appendingPathComponent("device").path
            let v1Path = "\(store)/\(Self.id)/versions/1/\(Self.id).tiobundle"
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", store, "--trusted-key", publisher.publicKey])
            expectSuccess(result, stdout: v1Path)
            #expect(FileManager.default.fileExists(atPath: "\(v1Path)/\(ReleaseSignature.fileName)"))

            // An installed, signed bundle pushed again as another version keeps v1's signature: the server
            // refuses it (422) rather than store a signature naming another version.
            result = try await CLI.run(["push", v1Path, "--to", url, "--token-file", tokenFile, "--version", "6"])
            expectOneLineError(result, containing: ["HTTP 422", "signed for version 1, not 6"])

            let other = folder.appendingPathComponent("other-device").path
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", other, "--trusted-key", stranger.publicKey])
            expectOneLineError(result, containing: [
                "version 1 of \(Self.id) was not installed", "signed by key \(publisherId), which is not trusted", strangerId,
            ])
            #expect(!FileManager.default.fileExists(atPath: "\(other)/\(Self.id)/current.json"))

            // Version 2 signed by the stranger: the device trusting the publisher refuses it and keeps 1.
            let v2 = try Fixtures.bundle(version: "2", in: folder)
            result = try await CLI.run(["push", v2.path, "--to", url, "--token-file", tokenFile, "--sign", stranger.privateKey])
            #expect(result.status == 0, "\(result)")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store, "--trusted-key", publisher.publicKey])
            expectOneLineError(result, containing: ["version 2 of \(Self.id) was not installed", "current version is kept", strangerId])
            let pointer = try String(contentsOfFile: "\(store)/\(Self.id)/current.json", encoding: .utf8)
            #expect(pointer.contains("\"current\":\"1\""), "\(pointer)")
            result = try await CLI.run(["run", v1Path, "--input", "2"])
            expectSuccess(result, stdout: "{\"output\":25}")

            // Rotation: a device trusting both keys takes version 2.
            result = try await CLI.run([
                "update", Self.id, "--from", url, "--into", store,
                "--trusted-key", publisher.publicKey, "--trusted-key", stranger.publicKey,
            ])
            expectSuccess(result, stdout: "\(Self.id): updated 1 -> 2\n\(store)/\(Self.id)/versions/2/\(Self.id).tiobundle")

            // An unsigned version 3 is refused by a device with keys and taken by one without.
            let v3 = try Fixtures.bundle(version: "3", in: folder)
            #expect(try await CLI.run(["push", v3.path, "--to", url, "--token-file", tokenFile]).status == 0)
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store, "--trusted-key", publisher.publicKey])
            expectOneLineError(result, containing: ["version 3 of \(Self.id) was not installed", "not signed"])
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            #expect(result.status == 0 && result.stdout.hasPrefix("\(Self.id): updated 2 -> 3"), "\(result)")

            // --sign signs for the version pushed (here --version, not model.json's).
            let signedAs5 = try Fixtures.bundle(version: "4", in: folder)
            result = try await CLI.run([
                "push", signedAs5.path, "--to", url, "--token-file", tokenFile, "--sign", publisher.privateKey, "--version", "5",
            ])
            #expect(result.status == 0, "\(result)")
            result = try await CLI.run(["pull", Self.id, "--version", "5", "--from", url, "--into", other, "--trusted-key", publisher.publicKey])
            expectSuccess(result, stdout: "\(other)/\(Self.id)/versions/5/\(Self.id).tiobundle")

            // Bad key files are one line too.
            expectOneLineError(
                try await CLI.run(["pull", Self.id, "--from", url, "--into", other, "--trusted-key", publisher.privateKey]),
                containing: ["field \"format\""])
            expectOneLineError(
                try await CLI.run(["push", v3.path, "--to", url, "--token-file", tokenFile, "--sign", publisher.publicKey, "--version", "9"]),
                containing: ["field \"format\""])
        }
    }

    @Test("verify checks a bundle folder and an archive offline: valid with the right key, one line otherwise")
    func verify() async throws {
        try await withTemporaryDirectory { folder in
            let publisher = try await Self.keygen("publisher", in: folder)
            let stranger = try await Self.keygen("stranger", in: folder)
            let key = try PublisherSigningKey(contentsOf: URL(fileURLWithPath: publisher.privateKey))
            let unsigned = try Fixtures.bundle(version: "1", in: folder)
            let signed = folder.appendingPathComponent("signed").appendingPathComponent(unsigned.lastPathComponent)
            try FileManager.default.createDirectory(at: signed.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: unsigned, to: signed)
            try ReleaseSigner.sign(bundleAt: signed, modelId: Self.id, version: "1", with: key)
            let archive = folder.appendingPathComponent("signed.zip").path
            try BundleArchive.create(fromBundleAt: signed, to: URL(fileURLWithPath: archive))
            let valid = "valid: \(Self.id) version 1, signed by key \(key.publicKey.id) (2 files)"

            expectSuccess(try await CLI.run(["verify", archive, "--key", publisher.publicKey]), stdout: valid)
            expectSuccess(try await CLI.run(["verify", signed.path, "--key", publisher.publicKey]), stdout: valid)
            expectSuccess(
                try await CLI.run(["verify", archive, "--key", stranger.publicKey, "--key", publisher.publicKey, "--id", Self.id, "--version", "1"]),
                stdout: valid)
            expectOneLineError(
                try await CLI.run(["verify", archive, "--key", stranger.publicKey]), containing: [key.publicKey.id, "not trusted"])
            expectOneLineError(
                try await CLI.run(["verify", archive, "--key", publisher.publicKey, "--version", "2"]),
                containing: ["signed for version 1, not 2"])
            expectOneLineError(
                try await CLI.run(["verify", unsigned.path, "--key", publisher.publicKey]), containing: ["not signed"])

            // One byte of the signed folder changed, then a file added.
            let json = signed.appendingPathComponent("model.json")
            var bytes = try Data(contentsOf: json)
            bytes[bytes.count / 2] ^= 0x01
            try bytes.write(to: json)
            expectOneLineError(
                try await CLI.run(["verify", signed.path, "--key", publisher.publicKey]),
                containing: ["model.json differs from the signed one"])
            expectSuccess(try await CLI.run(["verify", archive, "--key", publisher.publicKey]), stdout: valid)
            try Data("x".utf8).write(to: signed.appendingPathComponent("extra.txt"))
            bytes[bytes.count / 2] ^= 0x01
            try bytes.write(to: json)
            expectOneLineError(
                try await CLI.run(["verify", signed.path, "--key", publisher.publicKey]),
                containing: ["extra.txt is not in the signed manifest"])

            expectUsageError(try await CLI.run(["verify", archive]), containing: ["--key"])
            expectOneLineError(
                try await CLI.run(["verify", folder.appendingPathComponent("nothing").path, "--key", publisher.publicKey]),
                containing: ["does not exist"])
            // Not a zip, and a key file that is not a key.
            expectOneLineError(try await CLI.run(["verify", publisher.publicKey, "--key", publisher.publicKey]))
            expectOneLineError(try await CLI.run(["verify", archive, "--key", archive]), containing: ["not a JSON object"])
        }
    }
}
