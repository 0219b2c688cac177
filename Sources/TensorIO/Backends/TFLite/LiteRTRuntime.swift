internal import CLiteRT
import Foundation

/// Finds and loads the LiteRT runtime (`libLiteRt.so` from PyPI `ai-edge-litert==2.3.0`) the first time a
/// TensorFlow Lite model loads, and keeps one LiteRT environment for the process.
///
/// Where it looks, in order: the file named by `TENSORIO_LITERT_LIBRARY` (and nowhere else when that is
/// set); the per-user install the set-up script makes, `$XDG_DATA_HOME/tensorio/litert-2.3.0/libLiteRt.so`
/// (by default under `~/.local/share`); then the system's library search path.
enum LiteRTRuntime {
    /// The environment variable that overrides where the runtime is found.
    static let libraryVariable = "TENSORIO_LITERT_LIBRARY"
    /// The runtime version the set-up script installs and this code was checked against.
    static let version = "2.3.0"

    /// A loaded runtime: its functions and the process's environment.
    struct Handle: @unchecked Sendable {
        // The table and the environment live for the whole process (the library is never closed).
        let api: TIOLiteRtAPI
        let environment: LiteRtEnvironment
        let path: String
    }

    private static let loaded = LockedValue<Handle?>(nil)

    /// Where the library is looked for.
    static let locator = RuntimeLibraryLocator(
        variable: libraryVariable, installFolder: "litert-\(version)", fileName: "libLiteRt.so"
    )

    /// The loaded runtime, loading it on first use.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) saying where it looked and
    ///   how to install the runtime.
    static func handle() throws -> Handle {
        try loaded.withLock { cached in
            if let cached { return cached }
            let handle = try load()
            cached = handle
            return handle
        }
    }

    private static func load() throws -> Handle {
        var failures: [String] = []
        if let (table, path) = locator.open(collectingFailuresInto: &failures, { tio_litert_load($0, $1, $2) }) {
            let api = table.pointee
            return Handle(api: api, environment: try makeEnvironment(api), path: path)
        }
        throw TensorIOError(
            .runtimeUnavailable,
            "the LiteRT runtime (libLiteRt.so from ai-edge-litert \(version)) could not be loaded; "
                + "install it with `make setup` (or `scripts/install-litert.sh`), "
                + "or set \(libraryVariable) to the library's path",
            runtimeMessage: failures.joined(separator: "; ")
        )
    }

    private static func makeEnvironment(_ api: TIOLiteRtAPI) throws -> LiteRtEnvironment {
        // Quiet LiteRT's own logging: errors reach the caller as thrown errors instead. Only the CPU
        // accelerator is registered, so LiteRT does not probe for GPU libraries.
        var options = [
            LiteRtEnvOption(
                tag: kLiteRtEnvOptionTagMinLoggerSeverity,
                value: LiteRtAny(type: kLiteRtAnyTypeInt, .init(int_value: Int64(kLiteRtLogSeveritySilent)))
            ),
            LiteRtEnvOption(
                tag: kLiteRtEnvOptionTagAutoRegisterAccelerators,
                value: LiteRtAny(type: kLiteRtAnyTypeInt, .init(int_value: Int64(kLiteRtHwAcceleratorCpu)))
            ),
        ]
        var environment: LiteRtEnvironment?
        let status = api.CreateEnvironment(Int32(options.count), &options, &environment)
        guard status == kLiteRtStatusOk, let environment else {
            throw TensorIOError(
                .runtimeFailure, "creating the LiteRT environment failed",
                runtimeMessage: String(cString: api.GetStatusString(status))
            )
        }
        return environment
    }
}

extension LiteRTRuntime.Handle {
    /// Throws a runtime error unless `status` is OK.
    func check(_ status: LiteRtStatus, _ action: @autoclosure () -> String, layer: String? = nil) throws {
        guard status != kLiteRtStatusOk else { return }
        throw TensorIOError(
            .runtimeFailure, "\(action()) failed", location: layer.map { "layer \"\($0)\"" },
            runtimeMessage: String(cString: api.GetStatusString(status))
        )
    }
}
