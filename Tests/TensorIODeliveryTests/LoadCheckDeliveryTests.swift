#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// Neither side trusts a model it has not loaded: the server acknowledges an upload only after its model
/// loaded in a child process (`tensorio-load-check`), and the client installs a version only after the
/// same check on the device. A crash or a hang there is the upload's problem, never the server's.
@Suite("Load checks in delivery")
struct LoadCheckDeliveryTests {
    static let id = Fixtures.numberModelId
    static let hostile = Fixtures.bundlesDirectory.deletingLastPathComponent().appendingPathComponent("Hostile")

    /// The hostile fixture that passes the schema but disagrees with its model (`quantized: true` on a
    /// float model), as version `version` of the test model, zipped.
    static func mismatchedArchive(version: String, in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("bad-\(UUID().uuidString)/\(Fixtures.numberBundleName)")
        try FileManager.default.createDirectory(at: bundle.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: hostile.appendingPathComponent("quantized-float-model.tiobundle"), to: bundle)
        let jsonURL = bundle.appendingPathComponent("model.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as! [String: Any]
        json["version"] = version
        json["id"] = id
        try JSONSerialization.data(withJSONObject: json).write(to: jsonURL)
        return try Fixtures.archive(of: bundle, in: folder)
    }

    /// A substitute `tensorio-load-check`: a shell script.
    static func helper(_ body: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("helper-\(UUID().uuidString)")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        chmod(url.path, 0o755)
        return url
    }

    @Test("an upload whose model disagrees with its layers is refused with 422 naming the layer; nothing is stored")
    func serverRefusesMismatch() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let archive = try Self.mismatchedArchive(version: "1", in: folder)
            let error = await expectTensorIOError(.layerMismatch) {
                try await client.upload(archiveAt: archive, modelId: Self.id, version: "1")
            }
            #expect(error?.message.contains("HTTP 422") == true, "\(String(describing: error))")
            #expect(error?.message.contains("layer \"input\": model.quantized is true") == true, "\(String(describing: error))")
            await expectTensorIOError(.notFound) { try await client.version("1", of: Self.id) }
            // The same version id is still free, for a bundle that loads.
            try await Fixtures.push(version: "1", to: client, in: folder)
            #expect(try await client.version("1", of: Self.id).version == "1")
        }
    }

    @Test("an upload that crashes or hangs the runtime in the server's check gets 422, and the server carries on")
    func serverSurvivesCrashAndHang() async throws {
        try await withTemporaryDirectory { folder in
            let crash = try Self.helper("echo '{\"phase\":\"loading\"}'; kill -SEGV $$", in: folder)
            let hang = try Self.helper("echo '{\"phase\":\"running\"}'; sleep 60", in: folder)
            for (helper, code, words) in [
                (crash, "runtime-crashed", "the runtime crashed loading model.tflite (SIGSEGV)"),
                (hang, "runtime-crashed", "the runtime did not finish running model.tflite within 1 s"),
            ] {
                let server = try await TestServer.start(
                    root: folder.appendingPathComponent("server-\(UUID().uuidString)"),
                    loadCheck: .isolated(IsolatedLoading(timeLimit: .seconds(1), helper: helper)))
                let client = server.client()
                let clock = ContinuousClock()
                let start = clock.now
                let error = await expectTensorIOError(.runtimeCrashed) {
                    try await Fixtures.push(version: "1", to: client, in: folder)
                }
                #expect(start.duration(to: clock.now) < .seconds(55))  // the hanging helper sleeps 60 s
                #expect(error?.message.contains("HTTP 422: \(words)") == true, "\(code): \(String(describing: error))")
                #expect(try await client.health().status == "SERVING")
                await expectTensorIOError(.notFound) { try await client.version("1", of: Self.id) }
                await server.stop()
            }
        }
    }

    @Test("the client refuses a version that does not load and keeps the current one")
    func clientRefusesWhatDoesNotLoad() async throws {
        try await withTemporaryDirectory { folder in
            // A server whose check passes everything, standing for a compromised or careless server.
            let yes = try Self.helper("echo '{\"succeeded\":true,\"loadSeconds\":0}'", in: folder)
            let server = try await TestServer.start(
                root: folder.appendingPathComponent("server"), loadCheck: .isolated(IsolatedLoading(helper: yes)))
            defer { Task { await server.stop() } }
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            try await Fixtures.push(version: "1", to: client, in: folder)
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "1")

            _ = try await client.upload(archiveAt: try Self.mismatchedArchive(version: "2", in: folder), modelId: Self.id, version: "2")
            let error = await expectTensorIOError(.layerMismatch) { try await client.install(modelId: Self.id, into: store) }
            #expect(error?.message.hasPrefix(
                "version 2 of \(Self.id) does not load, so it was not installed: layer \"input\": model.quantized is true") == true,
                "\(String(describing: error))")
            #expect(try store.current(Self.id)?.version == "1")
            #expect(try store.versions(Self.id).map(\.version) == ["1"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.appendingPathComponent(".tmp").path).isEmpty)
            // The events say the same.
            var failed: TensorIOError?
            for await event in client.download(modelId: Self.id, into: store) {
                if case .failed(let error) = event { failed = error }
            }
            #expect(failed?.code == .layerMismatch)
            #expect(try store.current(Self.id)?.version == "1")
        }
    }

    @Test("an install whose check crashes keeps the current version")
    func clientSurvivesCrash() async throws {
        try await withServer { server, folder in
            try await Fixtures.push(version: "1", to: server.client(), in: folder)
            try await Fixtures.push(version: "2", to: server.client(), in: folder, canonical: false)
            let good = try ModelStore(directory: folder.appendingPathComponent("store"))
            try await server.client().install(modelId: Self.id, into: good)
            let crash = try Self.helper("echo '{\"phase\":\"loading\"}'; kill -BUS $$", in: folder)
            let crashing = try ModelStore(
                directory: good.directory, loadCheck: .isolated(IsolatedLoading(helper: crash)))
            let error = await expectTensorIOError(.runtimeCrashed) {
                try await server.client().install(modelId: Self.id, version: "2", into: crashing)
            }
            #expect(error?.message == "version 2 of \(Self.id) does not load, so it was not installed: the runtime crashed loading model.tflite (SIGBUS)")
            #expect(try good.current(Self.id)?.version == "1")
        }
    }
}
#endif
