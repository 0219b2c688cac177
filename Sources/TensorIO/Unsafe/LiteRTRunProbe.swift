internal import CLiteRT

/// Two flags shared with a compiled model's cancellation function: one asks it to stop the run, the
/// other records that it was called. How ``LiteRTModelInstance/buffersAreAccepted(by:)`` tells a run that
/// LiteRT refused while registering its buffers (the function is never called) from one that reached the
/// first operator.
///
/// Unsafe because LiteRT keeps the flags' address as the function's `void *` argument and the function
/// (a C function pointer, which captures nothing) turns it back into the flags. The contract: the probe
/// outlives the compiled model it is installed on (LiteRT cannot unset the function; the instance holds
/// the probe in a stored property, released after its `deinit` has destroyed the compiled model), and one
/// thread at a time runs that compiled model (an instance is lent to one run at a time).
final class LiteRTRunProbe {
    /// `[0]`: stop the run; `[1]`: the function was called.
    private let flags: UnsafeMutablePointer<Bool>

    init() {
        flags = .allocate(capacity: 2)
        flags.initialize(repeating: false, count: 2)
    }

    deinit {
        flags.deinitialize(count: 2)
        flags.deallocate()
    }

    /// Hands `install` the function and its argument, for `SetCompiledModelCancellationFunction`.
    func install<Result>(_ install: (UnsafeMutableRawPointer, @convention(c) (UnsafeMutableRawPointer?) -> Bool) -> Result) -> Result {
        install(UnsafeMutableRawPointer(flags)) { data in
            guard let flags = data?.assumingMemoryBound(to: Bool.self) else { return false }
            flags[1] = true
            return flags[0]
        }
    }

    /// Runs `invoke` with the function stopping the run before its first operator, and returns whether
    /// `invoke` succeeded or the function was called.
    func stoppingRun(_ invoke: () -> Bool) -> Bool {
        flags[0] = true
        flags[1] = false
        defer { flags[0] = false }
        return invoke() || flags[1]
    }
}
