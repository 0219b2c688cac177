import TensorIOSupport

/// Checks that a `.tflite` file is structurally sound before LiteRT is given its bytes.
///
/// LiteRT trusts the files it loads: one flipped byte can make it read outside the file, abort on an
/// uncaught C++ exception or loop forever. This verifier reads the same FlatBuffers data with bounds
/// checks everywhere and rejects the file unless:
///
/// - it starts with a root offset and the TFLite file identifier `TFL3`;
/// - every table, vtable, vector, string and union member reachable from the root (including every
///   `builtin_options`/`builtin_options_2` table, as described by the generated TFLite schema) lies
///   inside the file, with nesting depth and the number of objects bounded;
/// - the model has at least one subgraph and a buffers vector, and every index points at something
///   that exists: operator codes, tensors (−1 only for optional operator inputs), buffers,
///   subgraphs named by signatures and control-flow options (without cycles), signature tensors and
///   metadata buffers;
/// - tensors have a known type, at most ``maximumRank`` dimensions, no negative dimension in `shape`,
///   an element count within ``Limits/maximumElementsPerTensor``, enough constant data for their
///   shape, and quantization parameters that match their shape, with positive normal scales;
/// - each signature maps every input and output of its subgraph exactly once, under names that are
///   present, not empty and not repeated on one side, or LiteRT aborts the process (a model without
///   signatures is run by its main subgraph's tensor names, so those may not repeat either); every
///   metadata entry has a name, which LiteRT's loader reads without checking;
/// - data stored after the FlatBuffer (the `offset`/`size` pairs of models over 2 GB) lies inside the
///   file.
///
/// It does not check what operators compute or whether LiteRT supports them: that remains LiteRT's job.
package enum TFLiteModelVerifier {
    /// What a verified model contains.
    package struct Summary: Sendable, Hashable {
        /// The file's size in bytes.
        package var byteCount: Int
        /// Subgraphs; the first is the main graph.
        package var subgraphCount: Int
        /// Tensors, over all subgraphs.
        package var tensorCount: Int
        /// Operators, over all subgraphs.
        package var operatorCount: Int
        /// Entries in the model's operator-code table.
        package var operatorCodeCount: Int
        /// Data buffers, including the empty buffer 0.
        package var bufferCount: Int
        /// Signatures (named entry points).
        package var signatureCount: Int

        /// Creates a summary.
        package init(
            byteCount: Int = 0, subgraphCount: Int = 0, tensorCount: Int = 0, operatorCount: Int = 0,
            operatorCodeCount: Int = 0, bufferCount: Int = 0, signatureCount: Int = 0
        ) {
            self.byteCount = byteCount
            self.subgraphCount = subgraphCount
            self.tensorCount = tensorCount
            self.operatorCount = operatorCount
            self.operatorCodeCount = operatorCodeCount
            self.bufferCount = bufferCount
            self.signatureCount = signatureCount
        }
    }

    /// Bounds on what a model may declare (TensorIO passes its `ModelLimits`).
    package struct Limits: Sendable, Hashable {
        /// The most elements one tensor's shape may hold.
        package var maximumElementsPerTensor: Int

        /// Creates limits.
        package init(maximumElementsPerTensor: Int) {
            self.maximumElementsPerTensor = maximumElementsPerTensor
        }
    }

    /// The most dimensions a tensor may have. TFLite kernels handle at most 6 or 8; 16 leaves room for
    /// any real model while keeping shape arithmetic trivially bounded.
    package static let maximumRank = 16

    /// Checks a whole `.tflite` file.
    ///
    /// - Parameters:
    ///   - bytes: The entire file, as it will be handed to LiteRT.
    ///   - limits: The bounds on sizes; ``Limits/maximumElementsPerTensor`` bounds every tensor.
    ///   - fileName: The file's name as `model.json` gives it, used in error messages.
    /// - Returns: Counts of what the model contains.
    /// - Throws: ``ModelFileError`` of kind ``ModelFileErrorKind/invalidModelFile`` whose message names
    ///   the file, the place in the model (such as `subgraphs[0].operators[3].inputs[1]`) and what is
    ///   wrong; or of kind ``ModelFileErrorKind/limitExceeded`` when a tensor's element count is past
    ///   `limits`.
    package static func verify(
        _ bytes: UnsafeRawBufferPointer, limits: Limits, fileName: String
    ) throws -> Summary {
        guard bytes.count >= 8 else {
            throw invalid(fileName, "", "the file is \(bytes.count) bytes long, too short to be a TFLite model")
        }
        let identifier = bytes[4..<8]
        guard identifier.elementsEqual(TFLiteSchema.fileIdentifier.utf8) else {
            let found = identifier.map { (32..<127).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw invalid(fileName, "", "the file does not have the TFLite identifier \"\(TFLiteSchema.fileIdentifier)\" at offset 4 (found \"\(found)\"); it is not a TFLite model or it is damaged")
        }
        let reader = FlatBufferReader(bytes)
        var structure = FlatBufferStructureVerifier(
            reader: reader, tables: TFLiteSchema.tables, unions: TFLiteSchema.unions
        )
        do {
            try structure.verify(rootTable: TFLiteSchema.rootTable)
        } catch let failure as FlatBufferStructureVerifier.Failure {
            throw invalid(fileName, failure.path, failure.message)
        }
        var checker = TFLiteSemanticVerifier(reader: reader, limits: limits, fileName: fileName)
        do {
            return try checker.check()
        } catch let failure as FlatBufferReader.Failure {
            // The structural pass has already checked everything the checker reads, so this is not
            // expected; it still must not escape as anything but a model-file error.
            throw invalid(fileName, "", failure.message)
        }
    }

    /// The error for a structural problem at `path` (empty for the whole file).
    package static func invalid(_ fileName: String, _ path: String, _ message: String) -> ModelFileError {
        let place = path.isEmpty ? "" : "\(path): "
        return ModelFileError(.invalidModelFile, "\(fileName): \(place)\(message)")
    }
}
