import Foundation
@_spi(Internal) public import TensorIO
internal import TensorIOMetadata

/// The detection task: the `detection` entry (docs/model-json.md, "Detection") — which outputs hold the
/// boxes, classes and scores, or how to decode raw regressions over SSD anchors — read, checked, inferred
/// from a detector's metadata or a MediaPipe family's settings, and written back.
package enum DetectionTask: ModelTask {
    package static let entryKey = "detection"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> DetectionDescription? {
        reader.readDetection(entry, outputs: layers.outputs)
    }

    /// The labels, display names, anchors and score calibration the entry names, from `assets/`.
    package static func readFiles(of description: DetectionDescription, layers: TaskLayers, from assets: inout TaskAssets) -> DetectionDescription {
        var detection = description
        if let file = detection.labelsFile, let labels = assets.labels(file, at: "detection.labels") {
            detection.labels = labels
        }
        for (locale, file) in detection.displayNamesFiles.sorted(by: { $0.key < $1.key }) {
            if let labels = assets.labels(file, at: "detection.display_names.\(locale)") {
                detection.displayNames[locale] = labels
            }
        }
        if let file = detection.fixedAnchorsFile, let text = assets.text(file, at: "detection.anchors.file"),
           let anchors = assets.recordingErrors(at: "detection.anchors.file", {
               try Anchor.list(parsing: text, location: "detection.anchors.file")
           }) {
            detection.anchors = anchors
            detection.decoding?.numBoxes = anchors.count
            if let decoding = detection.decoding, let layer = layers.outputs.first(where: { $0.name == detection.boxesOutput }),
               let problem = DetectionDescription.boxesShapeProblem(layer, rows: anchors.count, columns: decoding.numCoords) {
                assets.issue("detection.boxes", problem)
            }
        }
        if let settings = detection.calibrationSettings, let text = assets.text(settings.file, at: "detection.score_calibration.file") {
            // One line per class: as many as the labels, or as the file has when there are none.
            let classCount = detection.labels?.values.count ?? ModelBundleValidator.labels(inText: text).count
            if let calibration = assets.recordingErrors(at: "detection.score_calibration.file", {
                try ScoreCalibration(
                    parsing: text, classCount: classCount, transformation: settings.transformation,
                    defaultScore: settings.defaultScore, location: "detection.score_calibration.file"
                )
            }) {
                detection.calibration = calibration
            }
        }
        return detection
    }

    /// A MediaPipe family's settings when the options name one; else the TFLite Task Library's four
    /// post-processed outputs, or MediaPipe's DETECTOR_METADATA, as the metadata describes them. Each way
    /// prepares photos as the library that runs such models does.
    package static func infer(_ inference: inout TFLiteBundleInference) throws -> DetectionDescription? {
        guard inference.imageTask == nil else { return nil }
        let outputs = inference.outputs
        var detection: DetectionDescription?
        if let detector = inference.options.detector {
            var inputs = inference.inputs
            detection = try inference.applyDetector(detector, inputs: &inputs, outputs: outputs)
            inference.inputs = inputs
        } else {
            detection = try inference.postProcessedDetection(
                outputs: outputs, metadata: inference.outputMetadata, attachments: inference.attachments
            )
            if detection != nil, inference.hasOneImageInput {
                // The Task Library stretches photos to the detector's input with libyuv's bilinear filter.
                inference.inputs[0] = inference.inputs[0].withImageSettings(resizeMode: .stretch, scalingFilter: .libyuvBilinear)
                inference.note(.inferred, layer: inference.inputs[0].name, "photos are stretched to the input with libyuv's bilinear filter (resize: stretch, scaling: libyuv-bilinear), as the TFLite Task Library does for detectors")
            }
        }
        let entry = inference.subgraph?.customMetadata.first { $0.name == DetectorMetadata.customMetadataName }
        if let entry, detection != nil {
            inference.note(.unused, "\(entry.name ?? ""): not used, the detection is described \(inference.options.detector.map { "by --detector \($0.rawValue)" } ?? "by the post-processed outputs' metadata")")
        } else if let entry {
            detection = try inference.detectorMetadataDetection(
                entry.data, outputs: outputs, metadata: inference.outputMetadata, attachments: inference.attachments
            )
            if detection != nil, inference.hasOneImageInput {
                // MediaPipe's ObjectDetector stretches photos to the input with OpenCV's bilinear warp.
                inference.inputs[0] = inference.inputs[0].withImageSettings(resizeMode: .stretch, scalingFilter: .bilinear)
                inference.note(.inferred, layer: inference.inputs[0].name, "photos are stretched to the input and sampled bilinearly (resize: stretch, scaling: bilinear), as MediaPipe's ObjectDetector does")
            }
        }
        if detection != nil { inference.imageTask = entryKey }
        return detection
    }
}

extension DetectionDescription: TaskDescription {}

extension ModelBundle {
    /// How the outputs become detections (`detection` in `model.json`), for detectors; `nil` otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry or a file it names
    ///   is wrong (read on first use when the bundle was opened without the vision tasks registered).
    public var detection: DetectionDescription? {
        get throws { try taskDescription(DetectionTask.self) }
    }
}
