import Foundation
import Logging
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// A library keeps to itself: no process-wide registry, no logger of its own, nothing on the app's stderr,
/// runtime files that code can name, and errors that speak to whoever uses the library.
@Suite("Library manners")
struct LibraryMannersTests {
    // MARK: Runtime files

    @Test("a runtime file given in code wins over the environment variable, which wins over the default location")
    func precedence() {
        let library = RuntimeLibrary.liteRT
        let environment = ["TENSORIO_LITERT_LIBRARY": "/from/environment/libLiteRt.so"]
        let code = URL(fileURLWithPath: "/from/code/libLiteRt.so")
        #expect(library.candidates(configured: code, environment: environment).paths == [code.path])
        #expect(library.candidates(configured: nil, environment: environment).paths == ["/from/environment/libLiteRt.so"])
        #expect(library.candidates(configured: nil, environment: [:]).paths == [library.defaultURL.path, "libLiteRt.so"])
        #expect(library.defaultURL.path.hasSuffix("/tensorio/litert-2.3.0/libLiteRt.so"))
    }

    @Test("a missing runtime file given in code: the error names it, the wheel, the variable and the API, and no script of this repository",
          arguments: RuntimeLibrary.allCases)
    func missingRuntimeFile(library: RuntimeLibrary) throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(library.fileName)")
        let error = #expect(throws: TensorIOError.self) {
            switch library {
            case .liteRT: _ = try LiteRTRuntime.load(configured: missing)
            case .tensorFlow: _ = try TensorFlowRuntime.load(configured: missing)
            }
        }
        let found = try #require(error)
        #expect(found.code == .runtimeUnavailable)
        for words in [missing.path, library.pythonPackage, library.environmentVariable, "RuntimeLibrary.\(library.caseName).use(_:)"] {
            #expect(found.message.contains(words), "\(words) in \(found)")
        }
        #expect(!found.description.contains("make "), "\(found)")
        #expect(!found.description.contains("scripts/"), "\(found)")
        #expect(found.runtimeMessage == "\(missing.path): no such file")
    }

    @Test("once LiteRT is loaded, code may name the same file (or none) but not another")
    func fileAfterLoading() throws {
        try Fixtures.model("1_in_1_out_number_test.tiobundle").load()
        let loaded = try #require(RuntimeLibrary.liteRT.loadedURL)
        try RuntimeLibrary.liteRT.use(loaded)
        #expect(RuntimeLibrary.liteRT.configuredURL == loaded.standardizedFileURL)
        let error = #expect(throws: TensorIOError.self) {
            try RuntimeLibrary.liteRT.use(URL(fileURLWithPath: "/elsewhere/libLiteRt.so"))
        }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains(loaded.path) == true, "\(String(describing: error))")
        try RuntimeLibrary.liteRT.use(nil)
        #expect(RuntimeLibrary.liteRT.configuredURL == nil)
        #expect(RuntimeLibrary.liteRT.loadedURL == loaded)
    }

    @Test("an isolated check's child is told the runtime files given in code, over the environment's")
    func childGetsFilesFromCode() {
        let environment = IsolatedLoadCheck.environment(
            ["PATH": "/usr/bin", "TENSORIO_LITERT_LIBRARY": "/from/environment/libLiteRt.so"],
            libraries: [.liteRT: URL(fileURLWithPath: "/from/code/libLiteRt.so")]
        )
        #expect(environment == [
            "PATH": "/usr/bin", "TENSORIO_LITERT_LIBRARY": "/from/code/libLiteRt.so", "SWIFT_BACKTRACE": "enable=no",
        ])
    }

    // MARK: Runtime chatter

    @Test("a process that only uses the library prints nothing on stderr while loading and running a model",
          arguments: Fixtures.Backend.allCases, ["1_in_1_out_number_test.tiobundle", "1_in_1_out_tensors_test.tiobundle"])
    func quietProcess(backend: Fixtures.Backend, bundle: String) throws {
        // tensorio-load-check is such a process: it opens, loads and runs a model with the library's defaults
        // (logger included) and prints its report on stdout.
        let run = try ChildProcess.run(
            IsolatedLoading().helperURL(), [backend.url(bundle).standardizedFileURL.path],
            environment: ["TF_CPP_MIN_LOG_LEVEL": nil]
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test("what a runtime prints during a call reaches the logger at a level from its severity")
    func forwardedToLogger() throws {
        let (logger, records) = CollectingLogHandler.logger()
        try RuntimeOutput.capturing(.liteRT, logger: logger) {
            printToStandardError("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n")
            printToStandardError("W0000 00:00:1795450343.257899     977 port.cc:153] a warning\nover two lines\n")
            printToStandardError("ERROR: a kernel failed\n")
        }
        #expect(records.value == [
            .init(level: .debug, message: "Created TensorFlow Lite XNNPACK delegate for CPU.", runtime: "LiteRT"),
            .init(level: .info, message: "a warning over two lines", runtime: "LiteRT"),
            .init(level: .warning, message: "a kernel failed", runtime: "LiteRT"),
        ])
    }

    @Test("the runtime's warnings and errors during a failing call join the thrown error")
    func failureCarriesRuntimeWords() {
        let (logger, _) = CollectingLogHandler.logger()
        let error = #expect(throws: TensorIOError.self) {
            try RuntimeOutput.capturing(.liteRT, logger: logger) {
                printToStandardError("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\nERROR: Node number 3 failed to prepare.\n")
                throw TensorIOError(.runtimeFailure, "compiling the model failed", runtimeMessage: "kLiteRtStatusErrorRuntimeFailure")
            }
        }
        #expect(error?.runtimeMessage == "kLiteRtStatusErrorRuntimeFailure; Node number 3 failed to prepare.")
    }

    @Test("lines that are not the runtime's are told apart, to go back to stderr")
    func foreignLines() {
        let (messages, foreign) = RuntimeOutput.parse("the app's own line\nINFO: the runtime's\nanother app line\n")
        #expect(messages == [.init(level: .debug, text: "the runtime's")])
        #expect(foreign == ["the app's own line", "another app line"])
    }

    @Test("a model's logger is the configuration's: TensorIO's notes reach it, and no logger of the library's own")
    func notesReachTheConfiguredLogger() throws {
        let (logger, records) = CollectingLogHandler.logger()
        let bundle = try Fixtures.bundle("1_in_1_out_number_test_no_backend.tiobundle")
        _ = try bundle.makeModel(configuration: ModelConfiguration(logger: logger))
        #expect(records.value.map(\.message) == ["1_in_1_out_number_test_no_backend.tiobundle: model.backend is not given; using tflite"])
        #expect(ModelConfiguration(logger: logger) == ModelConfiguration(), "loggers are not compared")
    }
}

/// Writes straight to file descriptor 2, as a runtime does.
func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// Keeps what is logged, for tests.
struct CollectingLogHandler: LogHandler {
    struct Record: Equatable {
        var level: Logger.Level
        var message: String
        var runtime: String?
    }

    let records: LockedBox<[Record]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let runtime = event.metadata?["runtime"].map { "\($0)" }
        records.withLock { $0.append(Record(level: event.level, message: "\(event.message)", runtime: runtime)) }
    }

    /// A logger at `trace` and what it collects.
    static func logger() -> (Logger, LockedBox<[Record]>) {
        let records = LockedBox<[Record]>([])
        return (Logger(label: "test") { _ in CollectingLogHandler(records: records) }, records)
    }
}
