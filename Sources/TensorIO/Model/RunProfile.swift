import Dispatch

/// Where the time of one run went: TensorIO's own work around the runtime, and the runtime's invoke.
public struct RunProfile: Sendable, Hashable {
    /// Matching the value to the layers and preparing images (orienting, scaling), before the lock.
    public var preparation: Duration = .zero
    /// Waiting for other callers' runs on the same model.
    public var waiting: Duration = .zero
    /// Converting and writing the inputs into the tensors.
    public var inputs: Duration = .zero
    /// The runtime's own work: the model's invoke.
    public var invoke: Duration = .zero
    /// Reading the outputs into Swift values.
    public var outputs: Duration = .zero

    public init() {}

    /// The whole run.
    public var total: Duration { preparation + waiting + inputs + invoke + outputs }

    /// Everything but the invoke and the waiting: what TensorIO itself added to the run.
    public var overhead: Duration { preparation + inputs + outputs }
}

/// A monotonic nanosecond clock cheap enough to read around every step of a run (the tasks' profiles
/// read it too).
@_spi(Internal) public enum Stopwatch {
    @inline(__always)
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    @inline(__always)
    public static func since(_ start: UInt64) -> Duration { .nanoseconds(Int64(now() &- start)) }
}
