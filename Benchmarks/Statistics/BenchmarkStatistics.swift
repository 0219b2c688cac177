import Dispatch

// What every benchmark program measures with and sums up by: one clock, one rank rule. Each program had its
// own copies of these; the figures they print are unchanged (the median is the upper middle of an even count,
// which is also the nearest rank at 0.5 below).

/// The value at `fraction` (0…1) of `values` in ascending order, by nearest rank; 0 when there are none.
public func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * fraction).rounded())))]
}

/// The median: ``percentile(_:_:)`` at 0.5, the upper middle of an even count; 0 when there are no values.
public func median(_ values: [Double]) -> Double {
    percentile(values, 0.5)
}

/// The monotonic clock, in nanoseconds.
public func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The microseconds between two readings of ``now()``.
public func microseconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end - start) / 1000
}

/// A duration (a profile's part), in microseconds.
public func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

/// How long `body` takes, in microseconds.
public func microseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return microseconds(from: start, to: now())
}

/// How long `body` takes, in milliseconds.
public func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    try microseconds(body) / 1000
}
