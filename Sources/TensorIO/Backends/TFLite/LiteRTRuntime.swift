internal import CLiteRT
import Foundation
import Logging
internal import TensorIOSupport

/// Finds and loads the LiteRT runtime (`libLiteRt.so` from PyPI `ai-edge-litert==2.3.0`) the first time a
/// TensorFlow Lite model loads, and keeps one LiteRT environment for the process. Where it looks:
/// ``RuntimeLibrary``.
enum LiteRTRuntime: LoadableRuntime {
    /// A loaded runtime: its functions and the process's environment.
    struct Handle: LoadedRuntimeHandle, @unchecked Sendable {
        // The table and the environment live for the whole process (the library is never closed).
        let api: TIOLiteRtAPI
        let environment: LiteRtEnvironment
        let path: String
    }

    static let library = RuntimeLibrary.liteRT
    static let loaded = LockedValue<Handle?>(nil)

    /// Loads the library from the file given in code, else as ``RuntimeLibrary`` describes.
    static func load(configured: URL?) throws -> Handle {
        let (table, path) = try RuntimeLibrary.liteRT.open(configured: configured) { tio_litert_load($0, $1, $2) }
        let api = table.pointee
        return Handle(api: api, environment: try makeEnvironment(api), path: path)
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
