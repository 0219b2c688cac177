/// Finds a metadata buffer of a verified `.tflite` file, such as `TFLITE_METADATA` (TensorIOMetadata).
package enum MetadataBufferLocator {
    private typealias Schema = TFLiteSchema

    /// The bytes of the first `Model.metadata` entry named `name`, or `nil` when there is none.
    ///
    /// The verifier has checked the model's structure, buffer indices and external ranges; they are
    /// checked again here (cheaply) so that this function alone never reads out of bounds.
    ///
    /// - Throws: ``ModelFileError`` (``ModelFileErrorKind/invalidModelFile``) when the entry names a
    ///   buffer that does not exist or data outside the file.
    package static func metadataBuffer(
        named name: String, in bytes: UnsafeRawBufferPointer, fileName: String
    ) throws -> UnsafeRawBufferPointer? {
        let reader = FlatBufferReader(bytes)
        do {
            let model = try reader.table(at: reader.rootPosition())
            guard let entries = try reader.vector(model, slot: Schema.Model.metadata, elementByteCount: 4) else { return nil }
            for index in 0..<entries.count {
                let entry = try reader.table(in: entries, at: index)
                guard let namePosition = try reader.fieldPosition(entry, slot: Schema.Metadata.name, byteCount: 4),
                      try reader.string(offsetAt: namePosition).elementsEqual(name.utf8)
                else { continue }
                let bufferIndex = Int(try reader.scalar(entry, slot: Schema.Metadata.buffer, default: UInt32(0)))
                return try contents(ofBuffer: bufferIndex, model: model, reader: reader, fileName: fileName, path: "metadata[\(index)]")
            }
            return nil
        } catch let failure as FlatBufferReader.Failure {
            throw TFLiteModelVerifier.invalid(fileName, "", failure.message)
        }
    }

    private static func contents(
        ofBuffer index: Int, model: FlatBufferReader.Table, reader: FlatBufferReader, fileName: String, path: String
    ) throws -> UnsafeRawBufferPointer {
        guard let buffers = try reader.vector(model, slot: Schema.Model.buffers, elementByteCount: 4),
              (0..<buffers.count).contains(index)
        else {
            throw TFLiteModelVerifier.invalid(fileName, "\(path).buffer", "buffer \(index) does not exist")
        }
        let buffer = try reader.table(in: buffers, at: index)
        let offset = try reader.scalar(buffer, slot: Schema.Buffer.offset, default: UInt64(0))
        let size = try reader.scalar(buffer, slot: Schema.Buffer.size, default: UInt64(0))
        // As in the verifier: offsets 0 and 1 mean "no external data" (1 is what the converter writes as
        // a placeholder).
        if offset > 1 {
            guard offset <= UInt64(reader.byteCount), size <= UInt64(reader.byteCount) - offset else {
                throw TFLiteModelVerifier.invalid(fileName, "buffers[\(index)]", "the metadata's data (offset \(offset), \(size) bytes) runs past the end of the file (\(reader.byteCount) bytes)")
            }
            return try reader.slice(start: Int(offset), count: Int(size))
        }
        guard let data = try reader.vector(buffer, slot: Schema.Buffer.data, elementByteCount: 1) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return try reader.slice(start: data.start, count: data.count)
    }

    private static func bytes(_ reader: FlatBufferReader) -> Int { reader.byteCount }
}
