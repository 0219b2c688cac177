public import Foundation
public import Logging

/// How a model runs, chosen by the app rather than the bundle.
///
/// Two configurations are equal when they run models the same way: the ``logger`` is not compared.
public struct ModelConfiguration: Sendable, Hashable {
    /// How many CPU threads the runtime may use for one run.
    public var threadCount: Int
    /// How images are fitted to image layers whose size differs; `nil` (the default) to take each layer's
    /// `resize` from `model.json`, and the centre crop (``ImageResizeMode/aspectFill``) where it has none.
    public var imageResizeMode: ImageResizeMode?
    /// How images are resampled to image layers' sizes; `nil` (the default) to take each layer's
    /// `scaling` from `model.json`, and the box filter (``ImageScalingFilter/box``) where it has none.
    public var imageScalingFilter: ImageScalingFilter?
    /// How many runs of one model may execute at the same time. Each needs its own compiled model (and
    /// its memory); with 1, concurrent callers take turns. Above 1,024 counts as 1,024.
    public var maximumConcurrentRuns: Int
    /// Bounds on sizes read from the model file and from images given to runs.
    public var limits: ModelLimits
    /// A folder where LiteRT keeps the weights it prepares for the CPU, so that later processes loading
    /// the same TensorFlow Lite model skip that work (for EfficientNet-Lite0, compiling takes about 8 ms
    /// instead of 19). `nil` (the default) keeps no cache.
    ///
    /// One file per model and LiteRT version, written under a name of its own and renamed into place,
    /// so processes may share the folder; each file is checked before LiteRT maps it. The folder is
    /// made if missing and must belong to the user and not be writable by others. Training bundles
    /// never use it (their weights change). ``defaultWeightCacheDirectory`` is the usual place.
    public var weightCacheDirectory: URL?
    /// Where the model and its runtime report what they do: TensorIO's notes at `info` and below, the
    /// runtime's own messages (LiteRT's, TensorFlow's) at `debug` for their informational lines and
    /// `info`, `warning` or `error` for theirs. By default swift-log's task-local `Logger.current`
    /// when the configuration is made: the logger bound with `withLogger`, else one from the app's
    /// `LoggingSystem.bootstrap` (whose default prints `info` and above on stderr).
    public var logger: Logger

    /// The most threads a model may ask for. More is never useful, and LiteRT crashes while destroying a
    /// model when it could not create the threads it was asked for.
    public static let maximumThreadCount = 1024

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - threadCount: CPU threads per run, clamped to 1…``maximumThreadCount``.
    ///   - imageResizeMode: How images are fitted to image layers; `nil` for each layer's own (see
    ///     ``imageResizeMode``).
    ///   - imageScalingFilter: How images are resampled to image layers; `nil` for each layer's own (see
    ///     ``imageScalingFilter``).
    ///   - maximumConcurrentRuns: Runs that may execute at once on separate compiled models, at least 1.
    ///   - limits: Bounds on sizes read from the model file and images (see ``ModelLimits``).
    ///   - weightCacheDirectory: Where LiteRT may keep prepared weights between processes (see
    ///     ``weightCacheDirectory``); `nil` for none.
    ///   - logger: Where the model and its runtime report what they do (see ``logger``).
    public init(
        threadCount: Int = 1, imageResizeMode: ImageResizeMode? = nil, imageScalingFilter: ImageScalingFilter? = nil,
        maximumConcurrentRuns: Int = 1,
        limits: ModelLimits = ModelLimits(), weightCacheDirectory: URL? = nil, logger: Logger = Logger.current
    ) {
        self.limits = limits
        self.weightCacheDirectory = weightCacheDirectory
        self.logger = logger
        self.threadCount = min(max(1, threadCount), Self.maximumThreadCount)
        self.imageResizeMode = imageResizeMode
        self.imageScalingFilter = imageScalingFilter
        self.maximumConcurrentRuns = max(1, maximumConcurrentRuns)
    }
}

extension ModelConfiguration {
    /// Compares how models run; the loggers are not compared.
    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.threadCount == rhs.threadCount && lhs.imageResizeMode == rhs.imageResizeMode
            && lhs.imageScalingFilter == rhs.imageScalingFilter
            && lhs.maximumConcurrentRuns == rhs.maximumConcurrentRuns && lhs.limits == rhs.limits
            && lhs.weightCacheDirectory == rhs.weightCacheDirectory
    }

    /// Hashes what `==` compares (everything but the logger).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(threadCount)
        hasher.combine(imageResizeMode)
        hasher.combine(imageScalingFilter)
        hasher.combine(maximumConcurrentRuns)
        hasher.combine(limits)
        hasher.combine(weightCacheDirectory)
    }
}

extension ModelConfiguration {
    /// The per-user cache folder for ``weightCacheDirectory``: `tensorio/weights` in the caches folder
    /// (on Linux `$XDG_CACHE_HOME`, else `~/.cache`). `nil` when there is no such folder.
    public static var defaultWeightCacheDirectory: URL? {
        #if os(Linux)
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = URL(fileURLWithPath: cache, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        } else {
            return nil
        }
        #else
        guard let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else { return nil }
        #endif
        return base.appendingPathComponent("tensorio", isDirectory: true).appendingPathComponent("weights", isDirectory: true)
    }
}
