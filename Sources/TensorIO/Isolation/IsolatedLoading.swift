public import Foundation
internal import TensorIOIsolation

/// How an isolated load check runs: the limits of the child process that loads the model, and where
/// its program (`tensorio-load-check`) is.
///
/// The child loads the bundle with the caller's ``ModelConfiguration``, runs the model once on zeros
/// (when every input can be made without data), and answers on one line. It runs with core dumps off,
/// its private memory bounded by `setrlimit(RLIMIT_DATA)`, a CPU-time backstop, and on Linux it dies
/// with its parent. The caller kills it with `SIGKILL` at ``timeLimit``.
public struct IsolatedLoading: Sendable, Hashable {
    /// The program's file name.
    public static let helperName = "tensorio-load-check"
    /// The environment variable that names the program's path.
    public static let helperVariable = "TENSORIO_LOAD_CHECK"

    /// How long the child may take, start to answer.
    public var timeLimit: Duration
    /// The most private memory (heap, anonymous mappings) the child may use, in bytes. Mapped model
    /// files and shared libraries do not count.
    public var memoryLimit: Int
    /// Whether the child also runs the model once on zeros after loading it, so that kernels run too.
    public var runsModel: Bool
    /// The `tensorio-load-check` program; `nil` to look for it (see ``helperURL()``).
    public var helper: URL?

    /// Creates settings; every argument has a default.
    ///
    /// - Parameters:
    ///   - timeLimit: Start to answer; default 60 s.
    ///   - memoryLimit: Private memory in bytes; default 4 GiB.
    ///   - runsModel: Whether to run the model once on zeros; default `true`.
    ///   - helper: The program; by default the one ``helperURL()`` finds.
    public init(
        timeLimit: Duration = .seconds(60), memoryLimit: Int = 4 << 30, runsModel: Bool = true, helper: URL? = nil
    ) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
        self.runsModel = runsModel
        self.helper = helper
    }

    /// Stops every isolated load check this process is running, for a process shutting down: each child
    /// is killed at once, and each ``ModelBundle/checkLoading(_:configuration:registry:)`` waiting on one throws
    /// ``TensorIOError/Code/runtimeUnavailable`` saying the check was stopped.
    ///
    /// - Parameter refusingNew: Whether checks started afterwards fail the same way at once, for the rest
    ///   of the process's life (so that a shutdown is not held up by a check that starts late).
    public static func stopRunningChecks(refusingNew: Bool = false) {
        ChildProcess.stopAll(refusingNew: refusingNew)
    }

    /// The program the child runs: ``helper`` when set; else the path in `TENSORIO_LOAD_CHECK`; else
    /// `tensorio-load-check` next to the running executable (where `swift build` puts both); else the
    /// first one on `PATH`.
    ///
    /// - Returns: The program's location.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) when none is found or the
    ///   named one is not an executable file.
    public func helperURL() throws -> URL {
        if let helper { return try Self.executable(helper, from: "IsolatedLoading.helper") }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[Self.helperVariable], !path.isEmpty {
            return try Self.executable(URL(fileURLWithPath: path), from: Self.helperVariable)
        }
        if let found = CompanionProgram.find(named: Self.helperName) { return found }
        throw TensorIOError(
            .runtimeUnavailable,
            "cannot find \(Self.helperName), which loads models in a separate process: build it with "
                + "`swift build --product \(Self.helperName)` (`make build-load-check` in TensorIO's repository) and "
                + "keep it next to the program, or name it in \(Self.helperVariable)")
    }

    private static func executable(_ url: URL, from source: String) throws -> URL {
        guard CompanionProgram.isExecutableFile(url) else {
            throw TensorIOError(
                .runtimeUnavailable, "\(url.path) (from \(source)) is not an executable file", location: source)
        }
        return url
    }
}
