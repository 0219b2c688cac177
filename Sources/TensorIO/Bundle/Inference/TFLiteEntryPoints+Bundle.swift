package import TensorIOModelFile

extension TFLiteEntryPoints {
    /// Reads the entry point a bundle's predictions run, from its model file, without LiteRT.
    ///
    /// The file is opened and checked exactly as loading does (inside the bundle, a regular file within
    /// ``ModelLimits/maximumModelFileBytes``, then the verifier), so `tensorio inspect` can show the real
    /// tensors of a bundle that loading would refuse. The signature is the one loading picks for
    /// predictions: `serving_default`, else `infer`, else the first that is not a training signature. Its
    /// tensors come in the order LiteRT lists them, the subgraph's own, since layers that match no tensor
    /// by name bind in that order.
    ///
    /// - Parameters:
    ///   - bundle: A bundle whose model file is a `.tflite` file.
    ///   - limits: The limits loading would apply.
    /// - Throws: ``TensorIOError`` (location `model.file`) as loading does when the file is missing,
    ///   outside the bundle, too large or fails verification; ``TensorIOError/Code/unsupported`` for a
    ///   placeholder bundle.
    package static func readPredictionEntry(of bundle: ModelBundle, limits: ModelLimits = ModelLimits()) throws -> TFLiteEntryPoints {
        guard !bundle.isPlaceholder else {
            throw TensorIOError(.unsupported, "a placeholder bundle has no model to read")
        }
        let file = try MappedModelFile(bundleDirectory: bundle.url, fileName: bundle.modelFile.path, limits: limits)
        _ = try TFLiteModelVerifier.verify(file.bytes, limits: limits, fileName: bundle.modelFile.path)
        return try TensorIOError.reporting {
            try read(
                file.bytes, fileName: bundle.modelFile.path, preferring: ["serving_default", "infer"],
                excluding: LiteRTTrainingSession.signatureKeys(of: bundle), subgraphOrder: true
            )
        }
    }
}

extension TFLiteEntryPoints.Tensor {
    /// The element type, or `nil` when TensorIO has no such type (see ``typeName``).
    package var dataType: DataType? { DataType(rawValue: typeName) }

    /// The quantization parameters, or `nil` when the tensor is not quantized.
    package var quantization: TensorQuantization? {
        guard let parameters = quantizationParameters else { return nil }
        if parameters.scales.count == 1 {
            return .perTensor(scale: parameters.scales[0], zeroPoint: parameters.zeroPoints.first ?? 0)
        }
        return .perChannel(dimension: parameters.dimension, scales: parameters.scales, zeroPoints: parameters.zeroPoints)
    }
}
