/// Bounds-checked reads of a FlatBuffers buffer that may have been crafted to break its reader.
///
/// Every position, size and offset is checked (with overflow-checked arithmetic) to lie inside the
/// buffer before anything is read, and nothing assumes alignment: scalars are read with
/// `loadUnaligned` as little-endian values, because the bytes come from a file and FlatBuffers'
/// own alignment is a writer's promise, not something a reader may rely on. A failed check throws
/// ``Failure`` with a sentence saying what is out of range; callers add where in the model it was.
///
/// The reader neither copies nor owns the bytes: whoever creates it keeps them alive.
package struct FlatBufferReader {
    /// A structural problem found while reading.
    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// A table whose header and vtable have been checked.
    package struct Table {
        /// Where the table starts (its offset to the vtable).
        package let position: Int
        /// Where its vtable starts.
        package let vtable: Int
        /// The vtable's size in bytes, including its two-field header.
        package let vtableByteCount: Int
        /// The table's inline size in bytes, including the offset to the vtable.
        package let objectByteCount: Int
    }

    /// A vector whose length has been checked to fit in the buffer.
    package struct Vector {
        /// Where the first element starts (just after the 32-bit length).
        package let start: Int
        package let count: Int
        package let elementByteCount: Int

        /// Where element `index` starts; `index` must be below ``count``.
        package func position(of index: Int) -> Int { start + index * elementByteCount }
    }

    package let bytes: UnsafeRawBufferPointer

    package var byteCount: Int { bytes.count }

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    // MARK: Scalars

    /// Whether `length` bytes from `position` lie inside the buffer.
    @inline(__always)  // called for every field of every table; keeps the checks in the caller
    package func contains(_ position: Int, length: Int) -> Bool {
        guard position >= 0, length >= 0 else { return false }
        let (end, overflow) = position.addingReportingOverflow(length)
        return !overflow && end <= bytes.count
    }

    /// A little-endian integer at `position`, which need not be aligned.
    ///
    /// - Throws: ``Failure`` when the integer does not lie inside the buffer.
    @inline(__always)  // called for every field of every table; keeps the checks in the caller
    package func integer<T: FixedWidthInteger>(_: T.Type, at position: Int) throws -> T {
        guard contains(position, length: MemoryLayout<T>.size) else {
            throw Failure(message: "a \(MemoryLayout<T>.size)-byte value at offset \(position) is outside the file (\(bytes.count) bytes)")
        }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// The byte range `start..<start+count`, checked, as a buffer.
    package func slice(start: Int, count: Int) throws -> UnsafeRawBufferPointer {
        guard contains(start, length: count) else {
            throw Failure(message: "\(count) bytes at offset \(start) run past the end of the file (\(bytes.count) bytes)")
        }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
    }

    // MARK: Offsets and tables

    /// Follows the unsigned 32-bit offset stored at `position` (FlatBuffers' `uoffset_t`, relative to
    /// where it is stored) and returns the position it points to.
    ///
    /// - Throws: ``Failure`` when the offset or its target is outside the buffer.
    @inline(__always)  // called for every field of every table; keeps the checks in the caller
    package func followOffset(at position: Int) throws -> Int {
        let offset = try integer(UInt32.self, at: position)
        let (target, overflow) = position.addingReportingOverflow(Int(offset))
        guard !overflow, target < bytes.count else {
            throw Failure(message: "the offset \(offset) at offset \(position) points outside the file (\(bytes.count) bytes)")
        }
        return target
    }

    /// The root table's position, from the first four bytes.
    package func rootPosition() throws -> Int {
        try followOffset(at: 0)
    }

    /// Checks the table at `position`: its signed offset to a vtable, the vtable's size and the
    /// table's inline size all inside the buffer and consistent.
    ///
    /// - Throws: ``Failure`` when any of them is out of range.
    package func table(at position: Int) throws -> Table {
        let vtableOffset = try integer(Int32.self, at: position)
        // The vtable may lie before or after the table (the offset is signed and, in a crafted
        // file, can point anywhere); the subtraction cannot overflow an Int for an Int32 operand.
        let vtable = position - Int(vtableOffset)
        guard contains(vtable, length: 4) else {
            throw Failure(message: "the table at offset \(position) has its vtable at \(vtable), outside the file (\(bytes.count) bytes)")
        }
        let vtableByteCount = Int(try integer(UInt16.self, at: vtable))
        let objectByteCount = Int(try integer(UInt16.self, at: vtable + 2))
        guard vtableByteCount >= 4, vtableByteCount % 2 == 0, contains(vtable, length: vtableByteCount) else {
            throw Failure(message: "the table at offset \(position) has a vtable of \(vtableByteCount) bytes at offset \(vtable), which is malformed or runs past the end of the file")
        }
        guard objectByteCount >= 4, contains(position, length: objectByteCount) else {
            throw Failure(message: "the table at offset \(position) claims \(objectByteCount) bytes, which is too small or runs past the end of the file")
        }
        return Table(position: position, vtable: vtable, vtableByteCount: vtableByteCount, objectByteCount: objectByteCount)
    }

    /// Where field `slot` of `table` is stored, or `nil` when the table does not have it.
    ///
    /// - Parameter byteCount: The field's inline size (4 for offsets); it must fit inside the table.
    /// - Throws: ``Failure`` when the field lies outside the table.
    @inline(__always)  // called for every field of every table; keeps the checks in the caller
    package func fieldPosition(_ table: Table, slot: Int, byteCount: Int) throws -> Int? {
        let entry = 4 + 2 * slot
        guard entry + 2 <= table.vtableByteCount else { return nil }
        let fieldOffset = Int(try integer(UInt16.self, at: table.vtable + entry))
        guard fieldOffset != 0 else { return nil }
        guard fieldOffset >= 4, fieldOffset + byteCount <= table.objectByteCount else {
            throw Failure(message: "field \(slot) of the table at offset \(table.position) is at byte \(fieldOffset), outside the table's \(table.objectByteCount) bytes")
        }
        return table.position + fieldOffset
    }

    /// The scalar in field `slot`, or `defaultValue` when the table does not have it.
    @inline(__always)  // called for every field of every table; keeps the checks in the caller
    package func scalar<T: FixedWidthInteger>(_ table: Table, slot: Int, default defaultValue: T) throws -> T {
        guard let position = try fieldPosition(table, slot: slot, byteCount: MemoryLayout<T>.size) else {
            return defaultValue
        }
        return try integer(T.self, at: position)
    }

    /// The table that field `slot` points to, or `nil` when absent.
    package func table(_ table: Table, slot: Int) throws -> Table? {
        guard let position = try fieldPosition(table, slot: slot, byteCount: 4) else { return nil }
        return try self.table(at: followOffset(at: position))
    }

    // MARK: Vectors and strings

    /// The vector that the offset stored at `position` points to, with its length checked to fit.
    ///
    /// - Throws: ``Failure`` when the length or the elements run past the end of the buffer.
    package func vector(offsetAt position: Int, elementByteCount: Int) throws -> Vector {
        let vectorPosition = try followOffset(at: position)
        let count = Int(try integer(UInt32.self, at: vectorPosition))
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: elementByteCount)
        guard !overflow, contains(vectorPosition + 4, length: byteCount) else {
            throw Failure(message: "a vector of \(count) \(elementByteCount)-byte elements at offset \(vectorPosition) runs past the end of the file (\(bytes.count) bytes)")
        }
        return Vector(start: vectorPosition + 4, count: count, elementByteCount: elementByteCount)
    }

    /// The vector in field `slot`, or `nil` when absent.
    package func vector(_ table: Table, slot: Int, elementByteCount: Int) throws -> Vector? {
        guard let position = try fieldPosition(table, slot: slot, byteCount: 4) else { return nil }
        return try vector(offsetAt: position, elementByteCount: elementByteCount)
    }

    /// The string that the offset stored at `position` points to: its bytes, without the terminator.
    ///
    /// - Throws: ``Failure`` when the string runs past the end or lacks its NUL terminator (which C
    ///   readers of the model rely on).
    package func string(offsetAt position: Int) throws -> UnsafeRawBufferPointer {
        let characters = try vector(offsetAt: position, elementByteCount: 1)
        guard contains(characters.start, length: characters.count + 1),
              bytes[characters.start + characters.count] == 0
        else {
            throw Failure(message: "the string of \(characters.count) bytes at offset \(characters.start - 4) has no NUL terminator inside the file")
        }
        return UnsafeRawBufferPointer(rebasing: bytes[characters.start..<(characters.start + characters.count)])
    }

    /// The string in field `slot` decoded as UTF-8 (invalid bytes replaced), or `nil` when absent.
    package func string(_ table: Table, slot: Int) throws -> String? {
        guard let position = try fieldPosition(table, slot: slot, byteCount: 4) else { return nil }
        return String(decoding: try string(offsetAt: position), as: UTF8.self)
    }

    /// The table that element `index` of a vector of table offsets points to.
    package func table(in vector: Vector, at index: Int) throws -> Table {
        try table(at: followOffset(at: vector.position(of: index)))
    }

    /// Element `index` of a vector of little-endian integers.
    package func element<T: FixedWidthInteger>(_: T.Type, in vector: Vector, at index: Int) throws -> T {
        try integer(T.self, at: vector.position(of: index))
    }
}
