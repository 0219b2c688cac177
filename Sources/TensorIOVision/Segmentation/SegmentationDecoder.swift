import Foundation
@_spi(Internal) import TensorIO

/// Turns a segmenter's output into a ``SegmentationMask`` on the photo as displayed: the second half of
/// every segmentation call, after the model ran. Everything read from the output is checked against the
/// description first: an output of the wrong shape is an error naming it, never a read past its end.
struct SegmentationDecoder: Sendable {
    let description: SegmentationDescription
    let target: ImageTarget

    /// - Throws: `TensorIOError` (`TensorIOError/Code/unsupported`) when the bundle describes no
    ///   segmentation or has not one image input.
    init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        let description = try bundle.requiredTaskDescription(SegmentationTask.self, missing: "segmentation output", registry: ".vision")
        self.target = try ImageTarget.onlyImageInput(of: bundle, configuration: configuration, task: "a segmenter")
        self.description = description
    }

    /// The mask in `outputs` for a photo of `photo` upright pixels.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/outputMismatch`) when the output is not an
    ///   image-like tensor of at most ``SegmentationDescription/maximumCategories`` categories.
    func mask(in outputs: Outputs, photo: ImageSize) throws -> SegmentationMask {
        let output = try outputs[description.output]
        let shape = try output.shape
        let image = shape.count == 4 && shape[0] == 1 ? Array(shape.dropFirst()) : shape
        let values = try output.values(as: Float.self)
        guard image.count == 3, image.allSatisfy({ $0 >= 1 }), image[2] <= SegmentationDescription.maximumCategories,
              image[0].multipliedReportingOverflow(by: image[1]).partialValue.multipliedReportingOverflow(by: image[2]).partialValue == values.count
        else {
            throw TensorIOError.outputMismatch(
                "output \"\(description.output)\" has shape \(shape) (\(values.count) values); a segmentation is [1, height, width, categories] with 1 to \(SegmentationDescription.maximumCategories) categories",
                output: description.output
            )
        }
        let (height, width, channels) = (image[0], image[1], image[2])
        let fit = ImageFit(photo: photo, target: target.size, mode: target.resizeMode, filter: target.scalingFilter)
        let field = ConfidenceField(
            tensorWidth: width, tensorHeight: height, channels: channels,
            values: Self.activated(values, channels: channels, activation: description.activation), fit: fit, photo: photo
        )
        let modelLabels = description.labels?.values ?? []
        let labels: [String?] = channels == 1
            ? ["background", modelLabels.first ?? "foreground"]
            : (0..<channels).map { modelLabels.indices.contains($0) ? modelLabels[$0] : nil }
        return SegmentationMask(
            width: photo.width, height: photo.height, categoryIndices: field.categories(threshold: description.threshold),
            categoryCount: channels == 1 ? 2 : channels, labels: labels, field: field
        )
    }

    /// The scores turned into confidences, pixel by pixel (`channels` values each). Softmax subtracts the
    /// pixel's largest finite score first, so large logits do not overflow; NaN stays NaN (and never wins).
    static func activated(_ values: [Float], channels: Int, activation: SegmentationDescription.Activation) -> [Float] {
        switch activation {
        case .none:
            return values
        case .sigmoid:
            return values.map { 1 / (1 + exp(-$0)) }
        case .softmax:
            var result = values
            var start = 0
            while start + channels <= result.count {
                let pixel = start..<(start + channels)
                let largest = result[pixel].lazy.filter(\.isFinite).max() ?? 0
                var sum: Float = 0
                for index in pixel {
                    result[index] = exp(result[index] - largest)
                    sum += result[index]
                }
                for index in pixel { result[index] /= sum }
                start += channels
            }
            return result
        }
    }
}
