import Foundation
@_spi(Internal) public import TensorIO
internal import TensorIOMetadata

/// The segmentation task: the `segmentation` entry (docs/model-json.md, "Segmentation") — which output
/// holds the mask, its activation, its categories' labels — read, checked, inferred from a segmenter's
/// metadata and written back.
package enum SegmentationTask: ModelTask {
    package static let entryKey = "segmentation"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> SegmentationDescription? {
        reader.readSegmentation(entry, outputs: layers.outputs)
    }

    /// The categories' labels the entry names, from `assets/`.
    package static func readFiles(of description: SegmentationDescription, layers: TaskLayers, from assets: inout TaskAssets) -> SegmentationDescription {
        var segmentation = description
        if let file = segmentation.labelsFile, let labels = assets.labels(file, at: "segmentation.labels") {
            segmentation.labels = labels
        }
        return segmentation
    }

    /// One image-like output the metadata describes as an image, on a model with one image input that
    /// no earlier task described; prepared as MediaPipe's ImageSegmenter prepares photos.
    package static func infer(_ inference: inout TFLiteBundleInference) throws -> SegmentationDescription? {
        let segmenterEntry = inference.subgraph?.customMetadata.first { $0.name == SegmenterMetadata.customMetadataName }
        if inference.imageTask == nil, inference.hasOneImageInput,
           let found = try inference.segmentation(
               outputs: inference.outputs, metadata: inference.outputMetadata, segmenterMetadata: segmenterEntry?.data,
               attachments: inference.attachments
           ) {
            // As MediaPipe's ImageSegmenter prepares them: stretched with OpenCV's bilinear warp. (The Task
            // Library's libyuv filter puts the selfie segmenters' confidences 0.02 off on up to 17% of pixels.)
            inference.imageTask = entryKey
            inference.inputs[0] = inference.inputs[0].withImageSettings(resizeMode: .stretch, scalingFilter: .bilinear)
            inference.note(.inferred, layer: inference.inputs[0].name, "photos are stretched to the input and sampled bilinearly (resize: stretch, scaling: bilinear), as MediaPipe's ImageSegmenter does")
            return found
        }
        if segmenterEntry != nil {
            inference.note(.unused, "\(SegmenterMetadata.customMetadataName): not used, no output is a segmentation mask (an image-like output the metadata describes as an image)")
        }
        return nil
    }
}

extension SegmentationDescription: TaskDescription {}

extension ModelBundle {
    /// How an output becomes a segmentation mask (`segmentation` in `model.json`), for segmenters; `nil`
    /// otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry or its labels file
    ///   is wrong (read on first use when the bundle was opened without the vision tasks registered).
    public var segmentation: SegmentationDescription? {
        get throws { try taskDescription(SegmentationTask.self) }
    }
}
