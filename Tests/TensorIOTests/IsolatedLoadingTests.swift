import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// `ModelBundle.checkLoading()`: the real `tensorio-load-check` (built next to the tests) on real
/// bundles, and substitute helpers — small shell scripts — that crash, hang, flood or say nothing, so that
/// every way a child can end is seen by the caller as one clear error and never as the caller's end.
@Suite("Isolated loading")
struct IsolatedLoadingTests {
    static let hostileDirectory = Fixtures.bundlesDirectory.deletingLastPathComponent().appendingPathComponent("Hostile")
    static let exampleBundle = Fixtures.bundlesDirectory
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/efficientnet-lite0-float32.tiobundle")

    /// A substitute helper: a shell script in a fresh temporary folder, which ``verifyError(_:_:sourceLocation:)``
    /// removes once the check has run it.
    static func helper(_ body: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("load-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("fake-load-check")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        chmod(url.path, 0o755)
        return url
    }

    static func verifyError(
        _ bundle: ModelBundle, _ options: IsolatedLoading, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TensorIOError {
        defer {
            if let folder = options.helper?.deletingLastPathComponent(), folder.lastPathComponent.hasPrefix("load-check-") {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        do {
            try bundle.checkLoading(.isolated(options))
        } catch let error as TensorIOError {
            return error
        }
        Issue.record("the check passed", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    @Test("a real model loads and runs once in the child, which reports its costs")
    func realModelLoads() throws {
        let bundle = try ModelBundle(at: Self.exampleBundle)
        let report = try bundle.checkLoading(.isolated)
        #expect(report.isIsolated)
        #expect(report.runDuration != nil)
        #expect(report.loadDuration > .zero)
        #expect((report.peakMemoryBytes ?? 0) > 1 << 20)
        #expect(report.processDuration.map { $0 >= report.loadDuration } == true)
    }

    @Test("every valid fixture bundle passes the isolated check", arguments: Fixtures.validBundles)
    func fixturesLoad(_ name: String) throws {
        try Fixtures.bundle(name).checkLoading(.isolated)
    }

    @Test("in-process and isolated checks give the same error for a bundle that disagrees with its model")
    func mismatchIsTheSameError() throws {
        let bundle = try ModelBundle(at: Self.hostileDirectory.appendingPathComponent("quantized-float-model.tiobundle"))
        let isolated = try Self.verifyError(bundle, IsolatedLoading())
        #expect(isolated.code == .layerMismatch)
        #expect(isolated.location == "layer \"input\"")
        #expect(throws: isolated) { try bundle.checkLoading(.inProcess) }
    }

    @Test("a crashing child is an error naming the signal, the phase and the model file, with the runtime's last words")
    func crashIsAnError() throws {
        let helper = try Self.helper("""
            echo '{"phase":"opening"}'; echo '{"phase":"loading"}'
            echo 'INFO: something harmless' >&2; echo 'ERROR: the kernel gave up' >&2
            kill -SEGV $$
            """)
        let error = try Self.verifyError(try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(helper: helper))
        #expect(error.code == .runtimeCrashed)
        #expect(error.message == "the runtime crashed loading model.tflite (SIGSEGV)")
        #expect(error.runtimeMessage == "ERROR: the kernel gave up")
    }

    @Test("a crash during the run says so", arguments: [("ABRT", "SIGABRT"), ("BUS", "SIGBUS"), ("ILL", "SIGILL")])
    func crashWhileRunning(_ signal: String, _ name: String) throws {
        let helper = try Self.helper("echo '{\"phase\":\"loading\"}'; echo '{\"phase\":\"running\"}'; kill -\(signal) $$")
        let error = try Self.verifyError(try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(helper: helper))
        #expect(error.message == "the runtime crashed running model.tflite (\(name))")
    }

    @Test("an allocation failure is reported as running out of memory")
    func outOfMemory() throws {
        let helper = try Self.helper("""
            echo '{"phase":"loading"}'
            echo "terminate called after throwing an instance of 'std::bad_alloc'" >&2
            kill -ABRT $$
            """)
        let error = try Self.verifyError(
            try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(memoryLimit: 256 << 20, helper: helper))
        #expect(error.code == .runtimeCrashed)
        #expect(error.message == "the runtime ran out of memory loading model.tflite (limit 256 MiB; SIGABRT)")
    }

    @Test("a child that hangs is killed at the time limit", arguments: [
        "echo '{\"phase\":\"loading\"}'; sleep 30",
        // Closing its pipes does not let a child escape the deadline.
        "echo '{\"phase\":\"loading\"}'; exec >&- 2>&-; sleep 30",
        // Nor does an answer printed before hanging.
        "echo '{\"succeeded\":true,\"loadSeconds\":0.1}'; sleep 30",
    ])
    func hangIsKilled(_ body: String) throws {
        let helper = try Self.helper(body)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try Self.verifyError(
            try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(timeLimit: .milliseconds(700), helper: helper))
        #expect(start.duration(to: clock.now) < .seconds(10))
        #expect(error.code == .runtimeCrashed)
        #expect(error.message.hasPrefix("the runtime did not finish "), "\(error)")
        #expect(error.message.contains(" model.tflite within 0.7 s"), "\(error)")
    }

    @Test("a child that floods its output is read to the end without keeping it all")
    func floodIsBounded() throws {
        let helper = try Self.helper("""
            head -c 20000000 /dev/zero | tr '\\0' 'x'; head -c 20000000 /dev/zero | tr '\\0' 'y' >&2
            echo; echo '{"succeeded":true,"loadSeconds":0.5}'
            """)
        // The answer is past the part of stdout kept, so there is none: a clear error, not a hang or 40 MB.
        let error = try Self.verifyError(
            try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(timeLimit: .seconds(30), helper: helper))
        #expect(error.message.contains("ended with status 0 without an answer"), "\(error)")
        #expect((error.runtimeMessage?.count ?? 0) <= 301)
    }

    @Test("a child that answers nonsense or nothing is an error, not a pass", arguments: [
        "echo 'not json at all'", "exit 0", "echo '{\"phase\":\"loading\"}'; exit 7",
    ])
    func nonsenseIsAnError(_ body: String) throws {
        let error = try Self.verifyError(
            try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(helper: try Self.helper(body)))
        #expect(error.code == .runtimeCrashed)
        #expect(error.message.contains("without an answer"), "\(error)")
    }

    @Test("the real child dies or fails cleanly under a memory limit the model cannot meet")
    func realMemoryLimit() throws {
        let bundle = try ModelBundle(at: Self.exampleBundle)
        #expect(throws: TensorIOError.self) {
            try bundle.checkLoading(.isolated(IsolatedLoading(memoryLimit: 8 << 20)))
        }
    }

    @Test("a missing helper is a clear error")
    func missingHelper() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(IsolatedLoading.helperName)")
        let error = try Self.verifyError(try Fixtures.bundle("1_in_1_out_number_test.tiobundle"), IsolatedLoading(helper: missing))
        #expect(error.code == .runtimeUnavailable)
        #expect(error.message == "/nonexistent/tensorio-load-check (from IsolatedLoading.helper) is not an executable file")
    }

    @Test("the child gets only the variables it needs, and no backtracer")
    func childEnvironment() {
        let environment = IsolatedLoadCheck.environment([
            "PATH": "/usr/bin", "HOME": "/root", "TENSORIO_LITERT_LIBRARY": "/x/libLiteRt.so",
            "AWS_SECRET_ACCESS_KEY": "secret", "TENSORIO_TOKEN_FILE": "t", "SWIFT_BACKTRACE": "enable=yes",
        ], libraries: [:])
        #expect(environment == [
            "PATH": "/usr/bin", "HOME": "/root", "TENSORIO_LITERT_LIBRARY": "/x/libLiteRt.so",
            "SWIFT_BACKTRACE": "enable=no",
        ])
    }

    @Test("the child receives the caller's limits")
    func limitsReachTheChild() throws {
        var configuration = ModelConfiguration()
        configuration.limits.maximumElementsPerTensor = 2
        let bundle = try Fixtures.bundle("1_in_1_out_vectors_test.tiobundle")
        do {
            try bundle.checkLoading(.isolated, configuration: configuration)
            Issue.record("a limit of 2 elements passed a 4-element layer")
        } catch let error as TensorIOError {
            #expect(error.code == .invalidBundle, "\(error)")
            #expect(error.description.contains("inputs[0].shape"), "\(error)")
            #expect(error.description.contains("more than 2 elements"), "\(error)")
        }
    }
}
