import Foundation
@_spi(Internal) import TensorIO
internal import TensorIOMetadata

/// Detection descriptions a `.tflite` file says enough for: SSD models whose post-processing operator's
/// four outputs are described by TFLite metadata (the TFLite Task Library's detectors), and MediaPipe's
/// detector families, whose settings live in MediaPipe's graphs rather than in the file.
extension TFLiteBundleInference {
    /// The description of a post-processed SSD: four outputs whose metadata names them "location",
    /// "category", "score" and "number of detections" (the Task Library's names), the boxes' layout from
    /// their `BoundingBoxProperties`, labels from the classes' value labels, and score calibration from
    /// the scores' process unit and its file. `nil` when the file does not say all of that.
    mutating func postProcessedDetection(
        outputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?], attachments: ModelAttachments
    ) throws -> DetectionDescription? {
        guard outputs.count == 4, metadata.count == 4 else { return nil }
        // The Task Library finds the four by their metadata names, and takes them in the operator's order
        // (boxes, classes, scores, count) when the names are not there; some models spell them in plural.
        func index(_ names: Set<String>) -> Int? { metadata.firstIndex { $0?.name.map { names.contains($0.lowercased()) } ?? false } }
        let named = [
            index(["location", "locations"]), index(["category", "categories", "classes"]), index(["score", "scores"]),
            index(["number of detections"]),
        ]
        let order = named.allSatisfy { $0 != nil } && Set(named.compactMap { $0 }).count == 4 ? named.compactMap { $0 } : [0, 1, 2, 3]
        let (boxes, classes, scores, count) = (order[0], order[1], order[2], order[3])
        guard case .boundingBox(let properties)? = metadata[boxes]?.content else { return nil }
        let layout = try boxLayout(properties, layer: outputs[boxes].name)

        let (labels, displayNames) = try classLabels(
            valueLabelsFile(metadata[classes]), metadata[classes], type: .tensorValueLabels, kind: "value",
            attachments: attachments, layer: outputs[classes].name
        )
        var settings: DetectionDescription.CalibrationSettings?
        var calibration: ScoreCalibration?
        let calibrationUnit = metadata[scores]?.processUnits.lazy.compactMap { unit -> (TFLiteMetadata.ScoreTransformation, Float)? in
            if case .scoreCalibration(let transformation, let defaultScore) = unit { return (transformation, defaultScore) }
            return nil
        }.first
        let calibrationFile = metadata[scores]?.associatedFiles.first { $0.type == .tensorAxisScoreCalibration }
        if let (transformation, defaultScore) = calibrationUnit, let file = calibrationFile, let data = attachments[file.name] {
            guard let text = String(data: data, encoding: .utf8) else {
                throw TensorIOError(.invalidModelFile, "the score calibration file \"\(file.name)\" packed in the model is not UTF-8 text", location: "model.file")
            }
            let kind: ScoreCalibration.Transformation = switch transformation {
            case .identity: .identity
            case .log: .log
            case .inverseLogistic: .inverseLogistic
            }
            let classCount = labels?.values.count ?? ModelBundleValidator.labels(inText: text).count
            calibration = try ScoreCalibration(
                parsing: text, classCount: classCount, transformation: kind, defaultScore: defaultScore,
                location: "the metadata's \(file.name)"
            )
            settings = DetectionDescription.CalibrationSettings(file: file.name, transformation: kind, defaultScore: defaultScore)
            addAsset(file.name, data)
            note(.inferred, layer: outputs[scores].name, "score calibration (\(transformation), default \(defaultScore)) from \(file.name)")
        }
        note(.inferred, "detection: post-processed SSD outputs (boxes \(outputs[boxes].name), classes \(outputs[classes].name), scores \(outputs[scores].name), count \(outputs[count].name)), boxes \(layout.shape.rawValue) \(layout.order) in \(layout.coordinates.rawValue)")
        var description = DetectionDescription(
            kind: .postProcessed, boxesOutput: outputs[boxes].name, scoresOutput: outputs[scores].name,
            classesOutput: outputs[classes].name, countOutput: outputs[count].name, minimumScore: nil, maximumResults: nil,
            labels: labels, boxLayout: layout, labelsFile: labels?.file, calibrationSettings: settings,
            calibration: calibration, anchorOptions: nil, anchors: [], decoding: nil, suppression: nil,
            displayNamesFiles: displayNames.mapValues(\.file)
        )
        description.displayNames = displayNames
        return description
    }

    private func boxLayout(_ properties: TFLiteMetadata.BoundingBoxProperties, layer: String) throws -> DetectionDescription.BoxLayout {
        let shape: DetectionDescription.BoxLayout.Shape
        switch properties.type {
        case .boundaries, .unknown: shape = .boundaries
        case .upperLeft: shape = .upperLeft
        case .center: shape = .center
        }
        var positions = [0, 1, 2, 3]
        if !properties.index.isEmpty {
            guard properties.index.count == 4, Set(properties.index) == [0, 1, 2, 3] else {
                throw TensorIOError(
                    .invalidModelFile, "output \"\(layer)\": the metadata's box index \(properties.index) is not an order of 0, 1, 2, 3",
                    location: "model.file"
                )
            }
            positions = properties.index.map { Int($0) }
        }
        return DetectionDescription.BoxLayout(shape: shape, positions: positions, coordinates: properties.isNormalized ? .ratio : .pixels)
    }

    /// A detector's class labels from `file`, which the metadata packs for the output `layer`, and their
    /// translations (the `type` files with a locale); `kind` names the labels in the notes ("axis",
    /// "value").
    mutating func classLabels(
        _ file: TFLiteMetadata.AssociatedFile?, _ metadata: TFLiteMetadata.TensorMetadata?,
        type: TFLiteMetadata.AssociatedFile.FileType, kind: String, attachments: ModelAttachments, layer: String
    ) throws -> (labels: LayerLabels?, displayNames: [String: LayerLabels]) {
        var labels: LayerLabels?
        if let file, let values = try packedLabels(file, attachments: attachments) {
            labels = LayerLabels(file: file.name, values: values)
            note(.inferred, layer: layer, "\(values.count) class labels from the metadata's \(kind) labels \(file.name)")
        } else {
            note(.unknown, layer: layer, "no \(kind) labels: detections carry class indices only")
        }
        return (labels, try displayNames(metadata, type: type, attachments: attachments, layer: layer))
    }

    /// The display names of a detector's classes, by locale: every labels file of `type` on the tensor that
    /// has a locale (MediaPipe's and the Task Library's `display_names_locale` pick from them), each added to
    /// `assets/` under its own name.
    private mutating func displayNames(
        _ metadata: TFLiteMetadata.TensorMetadata?, type: TFLiteMetadata.AssociatedFile.FileType, attachments: ModelAttachments,
        layer: String
    ) throws -> [String: LayerLabels] {
        var names: [String: LayerLabels] = [:]
        for file in metadata?.associatedFiles ?? [] where file.type == type {
            guard let locale = file.locale, !locale.isEmpty, names[locale] == nil,
                  let values = try packedLabels(file, attachments: attachments) else { continue }
            names[locale] = LayerLabels(file: file.name, values: values)
        }
        if !names.isEmpty {
            note(.inferred, layer: layer, "class labels in \(names.keys.sorted().joined(separator: ", ")) (display_names; DetectionOptions.labelsLocale, --locale)")
        }
        return names
    }

    /// The value labels file to use: the one in the requested locale, else the first.
    private func valueLabelsFile(_ metadata: TFLiteMetadata.TensorMetadata?) -> TFLiteMetadata.AssociatedFile? {
        let files = (metadata?.associatedFiles ?? []).filter { $0.type == .tensorValueLabels }
        if let locale = options.locale, let match = files.first(where: { $0.locale == locale }) { return match }
        return files.first
    }

    /// Makes a bare MediaPipe detector a detector: its one input an image fitted and resampled as MediaPipe
    /// does, and the description of the family's anchors, decoding and suppression.
    mutating func applyDetector(
        _ detector: MediaPipeDetector, inputs: inout [LayerDescription], outputs: [LayerDescription]
    ) throws -> DetectionDescription {
        let settings = detector.settings
        guard inputs.count == 1, let size = inputs[0].imageVolume.map({ ($0.width, $0.height) }) ?? Self.imageSize(inputs[0].shape),
              size == (settings.inputSize, settings.inputSize)
        else {
            throw TensorIOError(
                .invalidInput,
                "--detector \(detector.rawValue) expects one \(settings.inputSize)×\(settings.inputSize) image input; the model has \(inputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))",
                location: "inputs"
            )
        }
        let input = inputs[0]
        inputs[0] = LayerDescription(
            name: input.name, shape: [settings.inputSize, settings.inputSize, 3], declaredDataType: input.declaredDataType,
            kind: .image(format: .rgb, normalization: .standard(settings.pixelRange)),
            imageResizeMode: .aspectFit, imageScalingFilter: .bilinear
        )
        note(.inferred, layer: input.name, "image \(settings.inputSize)×\(settings.inputSize) RGB normalized to \(settings.pixelRange.rawValue), letterboxed (resize: fit) and sampled bilinearly (scaling: bilinear), as MediaPipe's \(detector.rawValue) graph does")
        // The boxes output has 4 + 2 × keypoints values per anchor; the scores output one.
        guard outputs.count == 2,
              let boxes = outputs.first(where: { $0.shape.last == settings.coordinateCount }),
              let scores = outputs.first(where: { $0.shape.last == 1 && $0.name != boxes.name })
        else {
            throw TensorIOError(
                .invalidInput,
                "--detector \(detector.rawValue) expects two outputs, boxes [1, anchors, \(settings.coordinateCount)] and scores [1, anchors, 1]; the model has \(outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))",
                location: "outputs"
            )
        }
        let description = try detector.description(boxesOutput: boxes.name, scoresOutput: scores.name)
        let anchorRows = Array(boxes.shape.drop { $0 == 1 }).first
        guard anchorRows == description.anchors.count else {
            throw TensorIOError(
                .invalidInput,
                "--detector \(detector.rawValue) makes \(description.anchors.count) anchors, but output \"\(boxes.name)\" has shape \(boxes.shape)",
                location: "outputs"
            )
        }
        note(.inferred, "detection: MediaPipe's \(detector.rawValue) settings (\(description.anchors.count) anchors, \(settings.keypointCount) keypoints, weighted non-maximum suppression, minimum score \(settings.minimumScore))")
        return description
    }

    /// Height and width of a `[1, h, w, 3]` input that the metadata did not call an image.
    private static func imageSize(_ shape: [Int]) -> (Int, Int)? {
        guard shape.count == 4, [1, -1].contains(shape[0]), shape[3] == 3 else { return nil }
        return (shape[2], shape[1])
    }
}
