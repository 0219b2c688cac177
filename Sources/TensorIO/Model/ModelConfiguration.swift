/// How a model runs, chosen by the app rather than the bundle.
public struct ModelConfiguration: Sendable, Hashable {
    /// How many CPU threads the runtime may use for one run.
    public var threadCount: Int

    /// Creates a configuration.
    ///
    /// - Parameter threadCount: CPU threads per run; values below 1 count as 1.
    public init(threadCount: Int = 1) {
        self.threadCount = max(1, threadCount)
    }
}
