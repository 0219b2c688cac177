import Foundation
import Logging
internal import TensorIOSupport

/// What ``LiteRTRuntime`` and ``TensorFlowRuntime`` share: a runtime library loaded the first time a
/// model needs it and kept for the whole process (the library is never closed).
protocol LoadableRuntime {
    /// What a loaded runtime gives its models.
    associatedtype Handle: LoadedRuntimeHandle

    /// The library this runtime loads.
    static var library: RuntimeLibrary { get }
    /// The loaded runtime; `nil` until it loads.
    static var loaded: LockedValue<Handle?> { get }
    /// Loads the library from the file given in code, else as ``RuntimeLibrary`` describes.
    static func load(configured: URL?) throws -> Handle
}

/// A loaded runtime's handle.
protocol LoadedRuntimeHandle: Sendable {
    /// The library file it was loaded from.
    var path: String { get }
}

extension LoadableRuntime {
    /// The loaded runtime, loading it on first use.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) saying where it looked and
    ///   how to install the runtime.
    static func handle(logger: Logger) throws -> Handle {
        if let cached = loaded.withLock({ $0 }) { return cached }
        // Loading prints (TensorFlow's start-up lines; nothing yet from LiteRT, but its environment may).
        return try RuntimeOutput.capturing(library, logger: logger) { try handle() }
    }

    /// The loaded runtime, loading it on first use, without capturing what it prints.
    static func handle() throws -> Handle {
        try loaded.withLock { cached in
            if let cached { return cached }
            let handle = try RuntimeLibraryState.shared.withLock { state in
                let handle = try load(configured: state.configured[library])
                state.loaded[library] = URL(fileURLWithPath: handle.path)
                return handle
            }
            cached = handle
            return handle
        }
    }
}
