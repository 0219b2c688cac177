/// A flat array of numbers of one Swift element type, kept in its own type until it is written into a
/// tensor (so `[Float]` into a float32 layer is a single copy) or read by ``values(as:)``.
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

    /// Copies the elements into `destination` when they are stored as `dataType`'s elements already (one
    /// `memcpy`, the common case of a run's input) and returns `true`; returns `false`, copying nothing,
    /// when they need converting or are not `count` elements. A plain switch: going through
    /// ``visit(_:)`` for this costs as much as the copy itself on a small tensor. The count is checked
    /// in the same switch rather than through ``count``, which the compiler leaves as a call: one call
    /// fewer for every input of every run.
    @inline(__always)
    func copyBytes(ifElementsAre dataType: DataType, count: Int, to destination: TensorMemory) -> Bool {
        func copy<Element: NumericElement>(_ elements: [Element]) -> Bool {
            guard Element.matchingDataType == dataType, elements.count == count else { return false }
            elements.withUnsafeBytes { destination.copyBytes(from: $0) }
            return true
        }
        switch self {
        case .float32(let a): return copy(a)
        case .uint8(let a): return copy(a)
        case .int32(let a): return copy(a)
        case .int64(let a): return copy(a)
        case .int(let a): return copy(a)
        case .int8(let a): return copy(a)
        case .int16(let a): return copy(a)
        case .float64(let a): return copy(a)
        case .bool(let a): return copy(a)
        case .uint16(let a): return copy(a)
        case .uint32(let a): return copy(a)
        case .uint64(let a): return copy(a)
        case .uint(let a): return copy(a)
        }
    }

    /// The elements converted to `type`, or `nil` when one does not fit it.
    ///
    /// Elements of `type` itself come back without conversion. Integer types take integral values in
    /// their range, `Bool` takes 0 and 1, `Float` and `Double` take any number (rounding to the nearest).
    ///
    /// - Parameter type: The Swift number type wanted, such as `Float.self`.
    /// - Returns: The elements, or `nil`.
    public func values<Number: TensorScalar>(as type: Number.Type) -> [Number]? {
        converted(to: type)
    }

    /// The elements as `Double`s.
    var doubles: [Double] {
        var visitor = DoubleCollector()
        return visit(&visitor)
    }

    /// The elements as `Float`s.
    var floats: [Float] {
        if case .float32(let values) = self { return values }
        return doubles.map { Float($0) }
    }

    /// The element at `index` as a ``Scalar``.
    subscript(index: Int) -> Scalar {
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

extension NumericArray {
    /// The elements converted to `type`, or `nil` when one does not fit; see ``values(as:)``.
    func converted<Number: TensorScalar>(to type: Number.Type) -> [Number]? {
        if let same = storage as? [Number] { return same }  // the stored array itself, no copy
        guard let element = type as? any NumericElement.Type else { return nil }
        return convertedElements(to: element) as? [Number]
    }

    private func convertedElements<Element: NumericElement>(to _: Element.Type) -> [Element]? {
        var result: [Element] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let value = Element(fitting: self[index]) else { return nil }
            result.append(value)
        }
        return result
    }

    /// The stored array, whatever its type.
    fileprivate var storage: any Sendable {
        switch self {
        case .uint8(let a): a
        case .int8(let a): a
        case .int16(let a): a
        case .int32(let a): a
        case .int64(let a): a
        case .int(let a): a
        case .uint16(let a): a
        case .uint32(let a): a
        case .uint64(let a): a
        case .uint(let a): a
        case .float32(let a): a
        case .float64(let a): a
        case .bool(let a): a
        }
    }

    /// The Swift name of the element type, for messages: "UInt8", "Float".
    var elementTypeName: String {
        switch self {
        case .uint8: "UInt8"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .int: "Int"
        case .uint16: "UInt16"
        case .uint32: "UInt32"
        case .uint64: "UInt64"
        case .uint: "UInt"
        case .float32: "Float"
        case .float64: "Double"
        case .bool: "Bool"
        }
    }
}

/// Something done to a buffer of numbers whatever their type.
protocol NumericVisitor {
    associatedtype Result
    associatedtype Failure: Error = Never
    mutating func visit<S: NumericElement>(_ buffer: UnsafeBufferPointer<S>) throws(Failure) -> Result
}


private struct DoubleCollector: NumericVisitor {
    func visit<S: NumericElement>(_ buffer: UnsafeBufferPointer<S>) -> [Double] { buffer.map(\.doubleValue) }
}

private struct Int64Collector: NumericVisitor {
    func visit<S: NumericElement>(_ buffer: UnsafeBufferPointer<S>) -> [Int64]? {
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

extension NumericArray {
    /// Joins arrays end to end when all have the same element type (the type kept), else `nil`: unlike
    /// ``init(joining:)``, which converts mixed parts, the items of a batch column keep the type they had.
    init?(joiningSameType parts: [NumericArray]) {
        guard let first = parts.first else { return nil }
        var joiner = SameTypeJoiner(parts: parts)
        guard let joined = first.visit(&joiner) else { return nil }
        self = joined
    }

    /// Items `indices` of an array holding items of `width` elements each, end to end, in that order.
    func gathering(_ indices: [Int], width: Int) -> NumericArray {
        var gatherer = Gatherer(indices: indices, width: width)
        return visit(&gatherer)
    }

    /// Elements `range`, in the same type.
    func slice(_ range: Range<Int>) -> NumericArray {
        var gatherer = Gatherer(indices: [0], width: range.count, offset: range.lowerBound)
        return visit(&gatherer)
    }

    private struct SameTypeJoiner: NumericVisitor {
        let parts: [NumericArray]

        func visit<S: NumericElement>(_: UnsafeBufferPointer<S>) -> NumericArray? {
            var joined: [S] = []
            joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts {
                guard let values = part.storage as? [S] else { return nil }
                joined.append(contentsOf: values)
            }
            return S.numericArray(joined)
        }
    }

    private struct Gatherer: NumericVisitor {
        let indices: [Int]
        let width: Int
        var offset = 0

        /// One copy per row into an array made at its final size: appending row by row went through the
        /// array's generic growth path, several times the copy's cost for the short rows of a batch.
        func visit<S: NumericElement>(_ buffer: UnsafeBufferPointer<S>) -> NumericArray {
            guard width > 0, !indices.isEmpty, let source = buffer.baseAddress else { return S.numericArray([]) }
            let gathered = [S](unsafeUninitializedCapacity: indices.count * width) { target, initialized in
                var position = target.baseAddress!
                for index in indices {
                    let start = offset + index * width
                    precondition(start >= 0 && start <= buffer.count - width, "row \(index) is out of range")
                    position.initialize(from: source + start, count: width)
                    position += width
                }
                initialized = indices.count * width
            }
            return S.numericArray(gathered)
        }
    }
}
