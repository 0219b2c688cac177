import Foundation
import TensorIO
internal import TensorIOMetadata

/// Segmenters a `.tflite` file says enough for: an image-like output (`[1, height, width, categories]`)
/// whose metadata describes it as an image — how the TFLite Task Library's and MediaPipe's metadata
/// writers mark segmentation masks — with its categories' labels from the output's axis labels and the
/// activation from MediaPipe's `SEGMENTER_METADATA` entry (none when the model has no entry, as MediaPipe's
/// `ImageSegmenter` takes it).
extension TFLiteBundleInference {
    /// The segmentation description of the one output the metadata marks as a mask, or `nil` when none is.
    ///
    /// - Parameter segmenterMetadata: The data of the subgraph's `SEGMENTER_METADATA` entry, if it has one.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidModelFile`) when that entry is malformed.
    mutating func segmentation(
        outputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?], segmenterMetadata: [UInt8]?,
        attachments: ModelAttachments
    ) throws -> SegmentationDescription? {
        let candidates = outputs.indices.filter { index in
            guard index < metadata.count, case .image? = metadata[index]?.content else { return false }
            let shape = outputs[index].shape
            return shape.count == 4 && [1, -1].contains(shape[0]) && shape[1] > 1 && shape[2] > 1
                && (1...SegmentationDescription.maximumCategories).contains(shape[3])
        }
        guard candidates.count == 1, let index = candidates.first else { return nil }
        let output = outputs[index]
        let categories = output.shape[3]
        var labels: LayerLabels?
        if let file = labelsFile(metadata[index]), let values = try packedLabels(file, attachments: attachments) {
            if values.count == categories {
                labels = LayerLabels(file: file.name, values: values)
                note(.inferred, layer: output.name, "\(values.count) category labels from the metadata's \(file.name)")
            } else {
                dropAsset(file.name)
                note(.unknown, layer: output.name, "the metadata's \(file.name) has \(values.count) labels for \(categories) categories: not used")
            }
        }
        var activation = SegmentationDescription.Activation.none
        var source = "no \(SegmenterMetadata.customMetadataName) entry"
        if let segmenterMetadata {
            let entry = try TensorIOError.reporting { try SegmenterMetadata.read(segmenterMetadata, fileName: fileURL.lastPathComponent) }
            activation = switch entry.activation {
            case .none: .none
            case .sigmoid: .sigmoid
            case .softmax: .softmax
            }
            source = "from \(SegmenterMetadata.customMetadataName)"
        }
        note(.inferred, "segmentation: output \(output.name), \(categories) categor\(categories == 1 ? "y (a foreground, threshold 0.5)" : "ies"), activation \(activation.rawValue) (\(source))")
        return SegmentationDescription(output: output.name, activation: activation, threshold: 0.5, labels: labels, labelsFile: labels?.file)
    }
}
