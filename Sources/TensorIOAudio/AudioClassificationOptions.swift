/// How `Model.classify(_:options:)` splits and reads a recording.
public struct AudioClassificationOptions: Sendable, Hashable {
    /// The time between the starts of consecutive windows; `nil` for the window's own length (windows
    /// back to back, as MediaPipe's `AudioClassifier` takes a clip). Shorter hops overlap the windows.
    public var hop: Duration?
    /// Windows classified at once by the async call; `nil` for the model's
    /// `ModelConfiguration.maximumConcurrentRuns`. The synchronous call takes them one by one.
    public var concurrency: Int?
    /// The most samples the recording may hold once resampled.
    public var limits: AudioLimits

    /// Creates options.
    ///
    /// - Parameters:
    ///   - hop: The time between window starts; `nil` for the window's length.
    ///   - concurrency: Windows classified at once by the async call; `nil` for the model's concurrent runs.
    ///   - limits: The most samples the recording may hold once resampled.
    public init(hop: Duration? = nil, concurrency: Int? = nil, limits: AudioLimits = AudioLimits()) {
        self.hop = hop
        self.concurrency = concurrency
        self.limits = limits
    }
}
