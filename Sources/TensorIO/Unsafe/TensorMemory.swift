import Foundation

/// A tensor's bytes: memory a runtime reads or writes, owned elsewhere (``HostTensorMemory``,
/// ``BoundInputMemory``, a TensorFlow tensor). The one type through which the data path touches tensor
/// memory: ``TensorBinding`` writes inputs and reads outputs only through it and the typed views it lends
/// (``TensorElements``).
///
/// Every view it hands out is bounded by its byte count, checked in every build (one comparison per
/// tensor, not per element); the typed views it lends are bounds-checked per element in debug builds.
/// The contract, which it cannot check: the memory is alive and `byteCount` long for as long as the
/// tensor exists (its owner keeps it so: a ``TensorSlot`` its model instance, a TensorFlow tensor its
/// data), and it holds the tensor's one element type, so it is only ever viewed as that type or as bytes.
struct TensorMemory {
    private let base: UnsafeMutableRawPointer
    /// How many bytes it holds.
    let byteCount: Int

    /// Memory of `byteCount` bytes at `base`, which the caller keeps alive while it is used.
    init(unsafeBase base: UnsafeMutableRawPointer, byteCount: Int) {
        precondition(byteCount >= 0, "a negative byte count")
        self.base = base
        self.byteCount = byteCount
    }

    /// The bytes from `offset` on, `count` of them.
    func slice(from offset: Int, count: Int) -> TensorMemory {
        precondition(offset >= 0 && count >= 0 && offset <= byteCount - count,
                     "bytes \(offset)..<\(offset + count) out of a tensor of \(byteCount)")
        return TensorMemory(unsafeBase: base + offset, byteCount: count)
    }

    /// The first `count` elements as `T`, for writing or reading them.
    ///
    /// The memory is bound to `T` for the call: a tensor holds one element type, and its memory is only
    /// ever viewed as that type (or as bytes).
    func elements<T>(_: T.Type, count: Int) -> TensorElements<T> {
        precondition(count >= 0 && count <= byteCount / MemoryLayout<T>.stride,
                     "\(count) elements of \(MemoryLayout<T>.stride) bytes out of a tensor of \(byteCount)")
        assert(Int(bitPattern: base) % MemoryLayout<T>.alignment == 0, "misaligned tensor memory for \(T.self)")
        return TensorElements(checked: UnsafeMutableBufferPointer(start: base.bindMemory(to: T.self, capacity: count), count: count))
    }

    /// The first element as `T`.
    func load<T>(as type: T.Type) -> T {
        precondition(MemoryLayout<T>.size <= byteCount, "a \(T.self) out of a tensor of \(byteCount) bytes")
        return base.loadUnaligned(as: T.self)
    }

    /// Copies `source` to the start of the memory.
    func copyBytes(from source: UnsafeRawBufferPointer) {
        precondition(source.count <= byteCount, "\(source.count) bytes into a tensor of \(byteCount)")
        guard let from = source.baseAddress, source.count > 0 else { return }
        base.copyMemory(from: from, byteCount: source.count)
    }

    /// Copies rows `rows` of `source` — items of `width` floats end to end — one after another from the
    /// start of the memory: a batch drawn from a data source's table (``NumberTable``) going into its
    /// float32 tensor without an array gathered in between. The memory must hold float32 elements (the
    /// caller's contract, as for ``elements(_:count:)``); checked in every build: the rows fit the memory
    /// (once) and each row lies within `source` (one comparison a row).
    func copyRows(_ rows: [Int], width: Int, of source: [Float]) {
        let rowBytes = width * MemoryLayout<Float>.stride
        precondition(width >= 0 && rows.count <= byteCount / max(rowBytes, 1),
                     "\(rows.count) rows of \(rowBytes) bytes into a tensor of \(byteCount)")
        guard width > 0 else { return }
        let rowCount = source.count / width
        source.withUnsafeBytes { table in
            guard let start = table.baseAddress else { return }
            var target = base
            for row in rows {
                precondition(row >= 0 && row < rowCount, "row \(row) of a table of \(rowCount)")
                target.copyMemory(from: start + row * rowBytes, byteCount: rowBytes)
                target += rowBytes
            }
        }
    }

    /// The first `count` bytes, copied.
    func data(count: Int) -> Data {
        precondition(count >= 0 && count <= byteCount, "\(count) bytes out of a tensor of \(byteCount)")
        return Data(bytes: base, count: count)
    }
}
