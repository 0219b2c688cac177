package import TensorIOModelFile

extension TFLiteModelVerifier {
    /// Checks a whole `.tflite` file with a model's ``ModelLimits``, as loading does (see
    /// `TFLiteModelVerifier.verify(_:limits:fileName:)` in TensorIOModelFile for what is checked).
    ///
    /// - Parameters:
    ///   - bytes: The entire file, as it will be handed to LiteRT.
    ///   - limits: ``ModelLimits/maximumElementsPerTensor`` bounds every tensor.
    ///   - fileName: The file's name as `model.json` gives it, used in error messages.
    /// - Returns: Counts of what the model contains.
    /// - Throws: ``TensorIOError`` with location `model.file`: ``TensorIOError/Code/invalidModelFile``
    ///   naming the file, the place in the model (such as `subgraphs[0].operators[3].inputs[1]`) and what
    ///   is wrong; or ``TensorIOError/Code/limitExceeded`` when a tensor's element count is past `limits`.
    package static func verify(
        _ bytes: UnsafeRawBufferPointer, limits: ModelLimits = ModelLimits(), fileName: String
    ) throws -> Summary {
        try TensorIOError.reporting {
            try verify(bytes, limits: Limits(maximumElementsPerTensor: limits.maximumElementsPerTensor), fileName: fileName)
        }
    }
}
