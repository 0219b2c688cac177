/// The tensors a `.tflite` file really takes and returns, read from its FlatBuffer without loading
/// LiteRT: what a bundle inferred from a bare model starts from.
///
/// The entry point is the `serving_default` signature when there is one, else the first signature, else
/// (a model without signatures) subgraph 0's `inputs` and `outputs`. Separately,
/// ``mainSubgraphInputs`` and ``mainSubgraphOutputs`` give subgraph 0's own order, which is the order
/// `TFLiteMetadata.SubgraphMetadata.inputs` (TensorIOMetadata) follows (not a signature's).
package struct TFLiteEntryPoints: Sendable, Hashable {
    /// One input or output tensor.
    package struct Tensor: Sendable, Hashable {
        /// The signature's name for the tensor, or its tensor name when the model has no signatures.
        package var name: String
        /// The tensor's name in the graph.
        package var tensorName: String
        /// The tensor's index in its subgraph's `tensors`.
        package var tensorIndex: Int
        /// The element type's name: `float32`, `uint8`, … (for every type TensorIO supports, the raw
        /// value of its `DataType`) or `string`, `complex64` for types TensorIO does not support.
        package var typeName: String
        /// The shape, from `shape_signature` when the model has one (so `-1` marks a dynamic dimension,
        /// usually the batch), else from `shape`.
        package var shape: [Int]
        /// The quantization parameters, or `nil` when the tensor is not quantized (TensorIO reads them as
        /// its `TensorQuantization`).
        package var quantizationParameters: QuantizationParameters?
        /// Whether the file leaves the tensor's shape to the operator that writes it: an output of a
        /// custom operator with no shape at all (`TFLite_Detection_PostProcess`'s four outputs), which
        /// the runtime sizes when it prepares the model. ``shape`` is then `[]`, which does not mean one
        /// number.
        package var isSizedByOperator = false
    }

    /// A tensor's quantization as the file stores it: real value = (q − zero point) × scale.
    package struct QuantizationParameters: Sendable, Hashable {
        /// One scale for the whole tensor, or one per index of ``dimension``.
        package var scales: [Float]
        /// The zero points, one per scale (an empty list means 0).
        package var zeroPoints: [Int64]
        /// The dimension the scales run along when there are several.
        package var dimension: Int
    }

    /// The signature used, or `nil` when the model has none.
    package var signatureKey: String?
    /// The subgraph the entry point runs.
    package var subgraphIndex: Int
    /// The inputs, in the signature's order (or subgraph 0's without signatures).
    package var inputs: [Tensor]
    /// The outputs, in the signature's order (or subgraph 0's without signatures).
    package var outputs: [Tensor]
    /// Subgraph 0's `inputs`: tensor indices, in the order metadata's `input_tensor_metadata` follows.
    package var mainSubgraphInputs: [Int]
    /// Subgraph 0's `outputs`: tensor indices, in the order metadata's `output_tensor_metadata` follows.
    package var mainSubgraphOutputs: [Int]

    /// The entry point's inputs in subgraph 0's input order: element `i` is what metadata's
    /// `input_tensor_metadata[i]` describes (empty when the entry point runs another subgraph).
    package var mainSubgraphInputTensors: [Tensor] { tensors(at: mainSubgraphInputs, in: inputs) }
    /// The entry point's outputs in subgraph 0's output order: element `i` is what metadata's
    /// `output_tensor_metadata[i]` describes (empty when the entry point runs another subgraph).
    package var mainSubgraphOutputTensors: [Tensor] { tensors(at: mainSubgraphOutputs, in: outputs) }

    private func tensors(at indices: [Int], in list: [Tensor]) -> [Tensor] {
        guard subgraphIndex == 0 else { return [] }
        return indices.compactMap { index in list.first { $0.tensorIndex == index } }
    }

    /// Reads the entry point of a model.
    ///
    /// Call it only on bytes that ``TFLiteModelVerifier/verify(_:limits:fileName:)`` accepted; the
    /// indices it follows are bounds-checked again, so it never reads outside `bytes`.
    ///
    /// - Throws: ``ModelFileError`` (``ModelFileErrorKind/invalidModelFile``) when an index is out of
    ///   range.
    package static func read(fromModel bytes: UnsafeRawBufferPointer, fileName: String) throws -> TFLiteEntryPoints {
        try read(bytes, fileName: fileName, preferring: ["serving_default"], excluding: [], subgraphOrder: false)
    }

    /// Reads an entry point: the first of `preferred` signatures present, else the first signature not
    /// `excluded`, else subgraph 0; with `subgraphOrder`, its tensors in its subgraph's order (as LiteRT
    /// lists them) rather than the signature's.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, fileName: String, preferring preferred: [String], excluding excluded: Set<String>,
        subgraphOrder: Bool
    ) throws -> TFLiteEntryPoints {
        do {
            var reader = EntryPointReader(reader: FlatBufferReader(bytes), fileName: fileName)
            reader.preferredSignatures = preferred
            reader.excludedSignatures = excluded
            reader.subgraphOrder = subgraphOrder
            return try reader.read()
        } catch let failure as FlatBufferReader.Failure {
            throw TFLiteModelVerifier.invalid(fileName, "", failure.message)
        }
    }
}
