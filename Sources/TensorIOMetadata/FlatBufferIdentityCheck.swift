import TensorIOModelFile

/// The checks every FlatBuffers buffer read from a model passes before a field is read: long enough, its
/// file identifier at offset 4, and a sound structure from its root table (``FlatBufferStructureVerifier``).
/// `TFLITE_METADATA` and MediaPipe's custom metadata entries (`DETECTOR_METADATA`) share them.
enum FlatBufferIdentityCheck {
    /// Checks `buffer`.
    ///
    /// - Parameters:
    ///   - buffer: The bytes.
    ///   - identifier: The four-character file identifier expected at offset 4.
    ///   - what: What the buffer is, for the too-short message ("metadata", "detector options").
    ///   - tables: The schema's tables.
    ///   - unions: The schema's unions.
    ///   - rootTable: The root table's index in `tables`.
    ///   - invalid: The error for a problem at a path (empty for the whole buffer).
    /// - Throws: What `invalid` makes.
    static func check(
        _ buffer: UnsafeRawBufferPointer, identifier: String, what: String, tables: [FlatBufferTableSchema],
        unions: [FlatBufferUnionSchema], rootTable: Int, invalid: (_ path: String, _ message: String) -> any Error
    ) throws {
        guard buffer.count >= 8 else {
            throw invalid("", "the buffer is \(buffer.count) bytes long, too short to hold \(what)")
        }
        let found = buffer[4..<8]
        guard found.elementsEqual(identifier.utf8) else {
            let text = found.map { (32..<127).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw invalid("", "the buffer does not have the identifier \"\(identifier)\" at offset 4 (found \"\(text)\")")
        }
        var structure = FlatBufferStructureVerifier(reader: FlatBufferReader(buffer), tables: tables, unions: unions)
        do {
            try structure.verify(rootTable: rootTable)
        } catch let failure as FlatBufferStructureVerifier.Failure {
            throw invalid(failure.path, failure.message)
        }
    }
}
