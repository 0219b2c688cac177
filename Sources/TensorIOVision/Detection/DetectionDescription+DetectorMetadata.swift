import Foundation
import TensorIO
internal import TensorIOMetadata

/// Detectors that carry MediaPipe's `DETECTOR_METADATA` (`object_detector_metadata_schema.fbs`): two outputs,
/// raw boxes and scores, with the anchors and the decoding settings in the file — read as MediaPipe's
/// `ObjectDetector` reads them (`detection_postprocessing_graph.cc`, models without in-model suppression).
extension TFLiteBundleInference {
    /// The name the anchors file gets in the bundle's `assets/`.
    static let fixedAnchorsFileName = "anchors.csv"

    /// The description of a detector whose `DETECTOR_METADATA` entry is `data`: the outputs named
    /// "location" and "score" by their metadata (else the first two, as MediaPipe takes them), boxes laid
    /// out `[y, x, h, w]` (MediaPipe's fixed choice for these models), the entry's anchors and decoding, labels
    /// from the scores' axis labels, the minimum score from the scores' thresholding unit, and hard
    /// suppression at IoU 0.3, MediaPipe's default. `nil`, with a note saying why, when the model does not
    /// have the two outputs.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidModelFile`) when the entry is malformed or
    ///   disagrees with the outputs.
    mutating func detectorMetadataDetection(
        _ data: [UInt8], outputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?], attachments: ModelAttachments
    ) throws -> DetectionDescription? {
        guard outputs.count == 2 else {
            note(.unused, "\(DetectorMetadata.customMetadataName): not used, it describes two outputs (boxes and scores) and the model has \(outputs.count)")
            return nil
        }
        let entry = try TensorIOError.reporting { try DetectorMetadata.read(data, fileName: fileURL.lastPathComponent) }
        return try detectorMetadataDetection(entry, outputs: outputs, metadata: metadata, attachments: attachments)
    }

    /// The description of a two-output detector from its read `DETECTOR_METADATA` entry.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidModelFile`) when the entry disagrees with
    ///   itself or the outputs.
    mutating func detectorMetadataDetection(
        _ entry: DetectorMetadata, outputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?], attachments: ModelAttachments
    ) throws -> DetectionDescription {
        let entryName = DetectorMetadata.customMetadataName
        precondition(outputs.count == 2, "a DETECTOR_METADATA detector has two outputs")
        func invalid(_ message: String) -> TensorIOError {
            TensorIOError(.invalidModelFile, "\(fileURL.lastPathComponent): \(entryName): \(message)", location: "model.file")
        }
        guard let settings = entry.decoding else { throw invalid("no tensors_decoding_options") }
        guard !entry.anchors.isEmpty else { throw invalid("no ssd_anchors_options.fixed_anchors_schema anchors") }
        guard settings.numBoxes == entry.anchors.count else {
            throw invalid("num_boxes is \(settings.numBoxes) but the metadata lists \(entry.anchors.count) anchors")
        }
        let anchors = try entry.anchors.enumerated().map { index, anchor in
            let values = [anchor.xCenter, anchor.yCenter, anchor.width, anchor.height]
            guard values.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), anchor.width >= 0, anchor.height >= 0 else {
                throw invalid("anchor \(index) is not four finite numbers with sizes not negative: \(values)")
            }
            return Anchor(xCenter: anchor.xCenter, yCenter: anchor.yCenter, width: anchor.width, height: anchor.height)
        }

        let metadata = metadata.count == 2 ? metadata : [nil, nil]
        func index(_ name: String) -> Int? { metadata.firstIndex { $0?.name?.lowercased() == name } }
        let (boxes, scores) = if let boxes = index("location"), let scores = index("score"), boxes != scores {
            (boxes, scores)
        } else {
            (0, 1)
        }
        guard (0...DetectionDescription.maximumClasses).contains(settings.numClasses),
              (0...DetectionDescription.maximumKeypoints).contains(settings.numKeypoints),
              (0...(DetectionDescription.maximumKeypoints * 2 + 4)).contains(settings.numCoords),
              (0...(DetectionDescription.maximumKeypoints * 2 + 4)).contains(settings.keypointCoordOffset)
        else {
            throw invalid("num_classes \(settings.numClasses), num_keypoints \(settings.numKeypoints), num_coords \(settings.numCoords) or keypoint_coord_offset \(settings.keypointCoordOffset) is out of range")
        }
        var decoding = BoxDecodingOptions(numClasses: settings.numClasses, numBoxes: anchors.count, numCoords: settings.numCoords)
        decoding.keypointCoordOffset = settings.keypointCoordOffset
        decoding.numKeypoints = settings.numKeypoints
        decoding.valuesPerKeypoint = settings.numValuesPerKeypoint
        (decoding.xScale, decoding.yScale, decoding.wScale, decoding.hScale) = (settings.xScale, settings.yScale, settings.wScale, settings.hScale)
        decoding.applyExponentialOnBoxSize = settings.applyExponentialOnBoxSize
        decoding.sigmoidScore = settings.sigmoidScore
        decoding.boxFormat = .yxhw
        do {
            try decoding.validate(location: "tensors_decoding_options")
        } catch let error as TensorIOError {
            throw invalid("\(error.location.map { "\($0): " } ?? "")\(error.message)")
        }
        if let problem = DetectionDescription.boxesShapeProblem(outputs[boxes], rows: anchors.count, columns: decoding.numCoords) {
            throw invalid(problem)
        }

        let (labels, displayNames) = try classLabels(
            labelsFile(metadata[scores]), metadata[scores], type: .tensorAxisLabels, kind: "axis", attachments: attachments,
            layer: outputs[scores].name
        )
        let minimumScore = metadata[scores]?.processUnits.lazy.compactMap { unit -> Float? in
            if case .scoreThresholding(let threshold) = unit, threshold.isFinite { return threshold }
            return nil
        }.first

        addAsset(Self.fixedAnchorsFileName, Data(Anchor.listText(anchors).utf8))
        note(.inferred, "detection: \(entryName) (boxes \(outputs[boxes].name), scores \(outputs[scores].name), \(anchors.count) anchors in assets/\(Self.fixedAnchorsFileName), \(settings.numClasses) classes, \(settings.numKeypoints) keypoints), hard non-maximum suppression at IoU 0.3\(minimumScore.map { ", minimum score \($0)" } ?? ""), as MediaPipe's ObjectDetector reads it")
        var description = DetectionDescription(
            kind: .anchors, boxesOutput: outputs[boxes].name, scoresOutput: outputs[scores].name, classesOutput: nil,
            countOutput: nil, minimumScore: minimumScore, maximumResults: nil, labels: labels, boxLayout: .standard,
            labelsFile: labels?.file, calibrationSettings: nil, calibration: nil, anchorOptions: nil, anchors: anchors,
            fixedAnchorsFile: Self.fixedAnchorsFileName, decoding: decoding,
            suppression: NonMaxSuppression(algorithm: .hard, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3),
            displayNamesFiles: displayNames.mapValues(\.file)
        )
        description.displayNames = displayNames
        return description
    }
}
