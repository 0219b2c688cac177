/// Applies ``VideoSampling``'s rules to decoded frames one after another, by their timestamps.
struct FrameSampler {
    enum Decision: Equatable {
        /// Convert the frame and hand it over.
        case keep
        /// Decode on without converting it.
        case skip
        /// The end time is reached: stop decoding.
        case stop
    }

    let sampling: VideoSampling
    private let startMicroseconds: Int64?
    private let endMicroseconds: Int64?
    /// Frames at or after the start seen so far: the position for ``VideoSampling/every``.
    private var considered = 0
    /// The first kept frame's timestamp, from which the frames-per-second intervals are counted.
    private var origin: Int64?
    /// The interval of the last kept frame.
    private var lastInterval: Int64?

    init(_ sampling: VideoSampling) {
        self.sampling = sampling
        startMicroseconds = sampling.start.map(Self.microseconds)
        endMicroseconds = sampling.end.map(Self.microseconds)
    }

    /// What to do with the next frame, whose timestamp is `timestamp` microseconds.
    mutating func decide(timestamp: Int64) -> Decision {
        if let endMicroseconds, timestamp >= endMicroseconds { return .stop }
        if let startMicroseconds, timestamp < startMicroseconds { return .skip }
        defer { considered += 1 }
        guard considered % sampling.every == 0 else { return .skip }
        if let rate = sampling.maximumFramesPerSecond {
            let origin = self.origin ?? timestamp
            // Half a millisecond of slack: timestamps are rounded to microseconds, and a frame due exactly at
            // an interval's start (the third of a 15 fps video sampled at 5) must not fall just before it.
            // In doubles, and clamped: a file's timestamps may be anything, and Int64 arithmetic would trap.
            let position = ((Double(timestamp) - Double(origin) + 500) * rate / 1_000_000).rounded(.down)
            let interval = Self.clamped(position)
            if let lastInterval, interval <= lastInterval { return .skip }
            self.origin = origin
            lastInterval = interval
        }
        return .keep
    }

    /// `value` as an Int64, clamped to its range (NaN as 0).
    static func clamped(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value)
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (total, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        return overflow || sumOverflow ? (seconds < 0 ? .min : .max) : total
    }
}
