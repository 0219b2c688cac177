/// How a model runs, chosen by the app rather than the bundle.
public struct ModelConfiguration: Sendable, Hashable {
    /// How many CPU threads the runtime may use for one run.
    public var threadCount: Int
    /// How images are fitted to image layers whose size differs.
    public var imageResizeMode: ImageResizeMode
    /// How many runs of one model may execute at the same time. Each needs its own compiled model (and
    /// its memory); with 1, concurrent callers take turns.
    public var maximumConcurrentRuns: Int
    /// Bounds on sizes read from the model file and from images given to runs.
    public var limits: ModelLimits

    /// The most threads a model may ask for. More is never useful, and LiteRT crashes while destroying a
    /// model when it could not create the threads it was asked for.
    public static let maximumThreadCount = 1024

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - threadCount: CPU threads per run, clamped to 1…``maximumThreadCount``.
    ///   - imageResizeMode: How images are fitted to image layers (centre crop by default).
    ///   - maximumConcurrentRuns: Runs that may execute at once on separate compiled models, at least 1.
    ///   - limits: Bounds on sizes read from the model file and images (see ``ModelLimits``).
    public init(
        threadCount: Int = 1, imageResizeMode: ImageResizeMode = .aspectFill, maximumConcurrentRuns: Int = 1,
        limits: ModelLimits = ModelLimits()
    ) {
        self.limits = limits
        self.threadCount = min(max(1, threadCount), Self.maximumThreadCount)
        self.imageResizeMode = imageResizeMode
        self.maximumConcurrentRuns = max(1, maximumConcurrentRuns)
    }
}
