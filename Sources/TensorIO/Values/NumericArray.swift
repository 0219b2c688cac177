/// A flat array of numbers of one Swift element type, kept in its own type until it is written into a
/// tensor (so `[Float]` into a float32 layer is a single copy).
public enum NumericArray: Sendable, Hashable {
    case uint8([UInt8])
    case int8([Int8])
    case int16([Int16])
    case int32([Int32])
    case int64([Int64])
    case int([Int])
    case uint16([UInt16])
    case uint32([UInt32])
    case uint64([UInt64])
    case uint([UInt])
    case float32([Float])
    case float64([Double])
    case bool([Bool])

    /// The number of elements.
    public var count: Int {
        switch self {
        case .uint8(let a): return a.count
        case .int8(let a): return a.count
        case .int16(let a): return a.count
        case .int32(let a): return a.count
        case .int64(let a): return a.count
        case .int(let a): return a.count
        case .uint16(let a): return a.count
        case .uint32(let a): return a.count
        case .uint64(let a): return a.count
        case .uint(let a): return a.count
        case .float32(let a): return a.count
        case .float64(let a): return a.count
        case .bool(let a): return a.count
        }
    }

    /// Calls `visitor` with the elements' buffer in their own type; the compiler specializes the
    /// visitor for each case.
    func visit<V: NumericVisitor>(_ visitor: inout V) throws(V.Failure) -> V.Result {
        switch self {
        case .uint8(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .int8(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .int16(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .int32(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .int64(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .int(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .uint16(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .uint32(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .uint64(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .uint(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .float32(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .float64(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        case .bool(let a): return try a.withUnsafeBufferPointer { (buffer) throws(V.Failure) in try visitor.visit(buffer) }
        }
    }

    /// The elements as `Double`s.
    public var doubles: [Double] {
        var visitor = DoubleCollector()
        return visit(&visitor)
    }

    /// The elements as `Float`s.
    public var floats: [Float] {
        if case .float32(let values) = self { return values }
        return doubles.map { Float($0) }
    }

    /// The element at `index` as a ``Scalar``.
    public subscript(index: Int) -> Scalar {
        switch self {
        case .uint8(let a): return .integer(Int64(a[index]))
        case .int8(let a): return .integer(Int64(a[index]))
        case .int16(let a): return .integer(Int64(a[index]))
        case .int32(let a): return .integer(Int64(a[index]))
        case .int64(let a): return .integer(a[index])
        case .int(let a): return .integer(Int64(a[index]))
        case .uint16(let a): return .integer(Int64(a[index]))
        case .uint32(let a): return .integer(Int64(a[index]))
        case .uint64(let a): return Int64(exactly: a[index]).map { .integer($0) } ?? .floatingPoint(Double(a[index]))
        case .uint(let a): return Int64(exactly: a[index]).map { .integer($0) } ?? .floatingPoint(Double(a[index]))
        case .float32(let a): return .floatingPoint(Double(a[index]))
        case .float64(let a): return .floatingPoint(a[index])
        case .bool(let a): return .boolean(a[index])
        }
    }

    /// Joins arrays end to end: one type when all share it, else Int64 when all are integers, else Double.
    init?(joining parts: [NumericArray]) {
        guard let first = parts.first else { return nil }
        if parts.count == 1 {
            self = first
            return
        }
        switch first {
        case .float32:
            let all = parts.compactMap { if case .float32(let a) = $0 { a } else { nil } }
            if all.count == parts.count { self = .float32(all.flatMap { $0 }); return }
        case .float64:
            let all = parts.compactMap { if case .float64(let a) = $0 { a } else { nil } }
            if all.count == parts.count { self = .float64(all.flatMap { $0 }); return }
        case .int:
            let all = parts.compactMap { if case .int(let a) = $0 { a } else { nil } }
            if all.count == parts.count { self = .int(all.flatMap { $0 }); return }
        default:
            break
        }
        var integers: [Int64] = []
        var allIntegers = true
        for part in parts {
            var visitor = Int64Collector()
            guard let values = part.visit(&visitor) else {
                allIntegers = false
                break
            }
            integers.append(contentsOf: values)
        }
        self = allIntegers ? .int64(integers) : .float64(parts.flatMap(\.doubles))
    }
}

/// Something done to a buffer of numbers whatever their type.
protocol NumericVisitor {
    associatedtype Result
    associatedtype Failure: Error = Never
    mutating func visit<S: TensorScalar>(_ buffer: UnsafeBufferPointer<S>) throws(Failure) -> Result
}

private struct DoubleCollector: NumericVisitor {
    func visit<S: TensorScalar>(_ buffer: UnsafeBufferPointer<S>) -> [Double] { buffer.map(\.doubleValue) }
}

private struct Int64Collector: NumericVisitor {
    func visit<S: TensorScalar>(_ buffer: UnsafeBufferPointer<S>) -> [Int64]? {
        guard S.isInteger else { return nil }
        var result: [Int64] = []
        result.reserveCapacity(buffer.count)
        for value in buffer {
            guard let integer = value.exactInt64 else { return nil }
            result.append(integer)
        }
        return result
    }
}
