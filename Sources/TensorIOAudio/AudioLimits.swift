/// Bounds on the audio TensorIO reads: a crafted file cannot make it allocate or loop without end.
///
/// Every size a file claims is checked against these before memory is reserved for it, and decoding stops
/// with `TensorIOError.Code.limitExceeded` when the samples actually decoded pass them, whatever the
/// header said.
public struct AudioLimits: Sendable, Hashable {
    /// The largest audio file read, in bytes (default 1 GiB: more than an hour of CD-quality WAV).
    public var maximumFileBytes: Int
    /// The most samples (frames × channels) a recording may hold once decoded or resampled (default
    /// 2^27: 512 MiB of floats, 70 minutes of 16 kHz stereo, 23 minutes of 48 kHz stereo).
    public var maximumSamples: Int
    /// The most windows one classification may run the model on (default 2^20: a 10-minute recording
    /// classified every millisecond is 600,000).
    public var maximumWindows: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumFileBytes: The largest audio file read, in bytes.
    ///   - maximumSamples: The most samples a recording may hold.
    ///   - maximumWindows: The most windows one classification may run the model on.
    public init(maximumFileBytes: Int = 1 << 30, maximumSamples: Int = 1 << 27, maximumWindows: Int = 1 << 20) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumSamples = maximumSamples
        self.maximumWindows = maximumWindows
    }
}
