/// What ``ModelBundle/checkLoading(_:configuration:registry:)`` measured while the model loaded.
public struct LoadReport: Sendable, Hashable {
    /// Whether the model was loaded in a child process.
    public var isIsolated: Bool
    /// Creating the model and loading it into the runtime (the model file verified and compiled).
    public var loadDuration: Duration
    /// One run on zeros; `nil` when the model was not run (a model that only trains, one with
    /// placeholders or dynamic shapes, or when ``IsolatedLoading/runsModel`` is off).
    public var runDuration: Duration?
    /// For an isolated check, the child's whole life: start, runtime library, load, run, exit.
    public var processDuration: Duration?
    /// For an isolated check, the child's peak resident memory in bytes.
    public var peakMemoryBytes: Int?

    /// Creates a report.
    public init(
        isIsolated: Bool, loadDuration: Duration, runDuration: Duration? = nil, processDuration: Duration? = nil,
        peakMemoryBytes: Int? = nil
    ) {
        self.isIsolated = isIsolated
        self.loadDuration = loadDuration
        self.runDuration = runDuration
        self.processDuration = processDuration
        self.peakMemoryBytes = peakMemoryBytes
    }
}
