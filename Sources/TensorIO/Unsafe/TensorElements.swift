/// A tensor's elements as one type, lent by ``TensorMemory/elements(_:count:)``: how ``TensorBinding``
/// writes and reads them one by one, as plain Swift.
///
/// Unsafe because it is a typed view of memory a runtime owns, and element loops over it are the run's
/// hot loops (a photo's pixels, a batch's numbers), where a bounds check per element in release builds
/// would cost as much as the conversion. The contract: ``TensorMemory`` checked the count against its bytes
/// when it lent the view (every build); the memory stays alive and bound to `Element` while the view is
/// used, which holds because a view lives only within the write or read that asked for it (it is never
/// stored). Every index is checked in debug builds.
struct TensorElements<Element> {
    private let buffer: UnsafeMutableBufferPointer<Element>

    /// The elements of `buffer`, which ``TensorMemory`` has checked against its byte count.
    init(checked buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
    }

    /// How many elements there are.
    var count: Int { buffer.count }

    /// `0..<count`.
    var indices: Range<Int> { 0..<buffer.count }

    /// The element at `index`, in `0..<count` (checked in debug builds).
    subscript(index: Int) -> Element {
        @inline(__always) get {
            assert(index >= 0 && index < buffer.count, "element \(index) out of \(buffer.count)")
            return buffer[index]
        }
        @inline(__always) nonmutating set {
            assert(index >= 0 && index < buffer.count, "element \(index) out of \(buffer.count)")
            buffer[index] = newValue
        }
    }

    /// The elements, copied into an array with one `memcpy`.
    func array() -> [Element] {
        Array(buffer)
    }

    /// Calls `body` with the elements' memory, for a C function that fills it (libyuv's channel
    /// conversions). The pointer is valid only during the call and must not escape it.
    func withUnsafeMutableBufferPointer<Result>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(buffer)
    }
}

extension TensorElements where Element == Float {
    /// Writes `source`, doubles, as floats, and returns whether any float came out infinite (from an
    /// infinite double, or from a finite one too large for a float: the caller then tells which).
    ///
    /// What data files give is doubles, and this is the loop that converts them. The contract: the caller
    /// has checked that `Source` is `Double` (its generic buffer is then viewed as what it is; checked
    /// again here, in every build, once per call), and `source` has ``count`` elements.
    @inline(__always)
    func storeReportingInfinity<Source>(doubles source: UnsafeBufferPointer<Source>) -> Bool {
        precondition(Source.self == Double.self, "\(Source.self) written as doubles")
        precondition(source.count == buffer.count, "\(source.count) doubles into \(buffer.count) floats")
        return source.withMemoryRebound(to: Double.self) { Self.convertReportingInfinity($0, to: buffer) }
    }

    /// Not generic and over plain pointers, so that both loops are vectorised: the generic loop that also
    /// tracked the overflow took about ten instructions a number, 7% of a training step on the digits
    /// bundle.
    @inline(never)
    private static func convertReportingInfinity(
        _ source: UnsafeBufferPointer<Double>, to target: UnsafeMutableBufferPointer<Float>
    ) -> Bool {
        for index in source.indices { target[index] = Float(source[index]) }
        var infinities: UInt32 = 0
        for index in source.indices { infinities |= target[index].bitPattern & 0x7fff_ffff == 0x7f80_0000 ? 1 : 0 }
        return infinities != 0
    }
}
