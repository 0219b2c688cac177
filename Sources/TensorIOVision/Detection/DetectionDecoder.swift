import Foundation
@_spi(Internal) import TensorIO

/// Turns a detector's outputs into ``Detection`` values on the photo as displayed: the second half of
/// every detection call, after the model ran.
///
/// Built once per call from the bundle and configuration (cheap: the anchors were made when `model.json`
/// was read); everything it reads from the outputs is checked against the description first, so a model
/// whose outputs disagree with its bundle gets an error naming the output, never an out-of-bounds read.
struct DetectionDecoder: Sendable {
    let description: DetectionDescription
    /// How the photo is fitted and resampled to the image input.
    let target: ImageTarget

    /// - Throws: `TensorIOError` (`TensorIOError/Code/unsupported`) when the bundle has no `detection`
    ///   description or not exactly one image input.
    init(bundle: ModelBundle, configuration: ModelConfiguration) throws {
        let description = try bundle.requiredTaskDescription(DetectionTask.self, missing: "detection outputs", registry: ".vision")
        self.target = try ImageTarget.onlyImageInput(of: bundle, configuration: configuration, task: "a detector")
        self.description = description
    }

    /// The detections in `outputs` for a photo of `photo` upright pixels, best first.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/outputMismatch`) when an output's size disagrees
    ///   with the description.
    func detections(in outputs: Outputs, photo: ImageSize, options: DetectionOptions) throws -> [Detection] {
        let limit = options.maximumResults ?? description.maximumResults
        let candidates = try candidates(in: outputs, options: options)
        let fit = ImageFit(photo: photo, target: target.size, mode: target.resizeMode, filter: target.scalingFilter)
        let displayNames = options.labelsLocale.flatMap { description.displayNames[$0] }
        func label(_ labels: LayerLabels?, _ index: Int) -> String? {
            labels.flatMap { $0.values.indices.contains(index) ? $0.values[index] : nil }
        }
        var detections: [Detection] = []
        for candidate in candidates {
            if let limit, detections.count >= limit { break }
            let name = label(description.labels, candidate.classIndex)
            if !options.categoryAllowlist.isEmpty, !(name.map(options.categoryAllowlist.contains) ?? false) { continue }
            if let name, options.categoryDenylist.contains(name) { continue }
            // In the requested locale where the bundle has that name, else the bundle's own label.
            let shown = label(displayNames, candidate.classIndex).flatMap { $0.isEmpty ? nil : $0 } ?? name
            detections.append(Self.detection(candidate, label: shown, fit: fit, photo: photo))
        }
        return detections
    }

    /// The candidates in `outputs` at or above the score threshold, best first, in the input tensor's
    /// normalized coordinates (before the photo's fit is undone), the category lists applied to anchor
    /// decoding.
    func candidates(in outputs: Outputs, options: DetectionOptions) throws -> [DetectionCandidate] {
        let threshold = options.scoreThreshold ?? description.minimumScore
        switch description.kind {
        case .postProcessed:
            var candidates = try postProcessedCandidates(outputs)
            if let threshold { candidates.removeAll { !($0.score >= threshold) } }
            return candidates
        case .anchors:
            return try anchorCandidates(outputs, threshold: threshold, options: options)
        }
    }

    // MARK: - Post-processed outputs

    /// The post-processing operator's detections: the first `count` of its arrays, boxes laid out as the
    /// description says, scores calibrated, sorted best first (calibration may reorder them).
    private func postProcessedCandidates(_ outputs: Outputs) throws -> [DetectionCandidate] {
        let boxes = try floats(outputs, description.boxesOutput)
        let scores = try floats(outputs, description.scoresOutput)
        let classes = try floats(outputs, description.classesOutput ?? "")
        let countValues = try floats(outputs, description.countOutput ?? "")
        guard boxes.count == scores.count * 4, classes.count == scores.count else {
            throw TensorIOError(
                .outputMismatch,
                "the post-processed outputs disagree: \(boxes.count) box values, \(classes.count) classes and \(scores.count) scores (expected 4 box values per score, one class per score)",
                location: "detection"
            )
        }
        // The count is a float; NaN, negative or larger than the arrays is clamped to what they hold.
        let reported = countValues.first ?? 0
        // Clamped as a float first: converting 1e30 to Int would trap.
        let count = reported.isFinite ? Int(min(Float(scores.count), max(0, reported)).rounded(.down)) : 0
        let layout = description.boxLayout
        let (width, height) = (Float(target.size.width), Float(target.size.height))
        var candidates: [DetectionCandidate] = []
        candidates.reserveCapacity(count)
        for index in 0..<count {
            let classValue = classes[index]
            guard classValue.isFinite, classValue >= 0, classValue < Float(DetectionDescription.maximumClasses) else { continue }
            let classIndex = Int(classValue)
            var score = scores[index]
            if let calibration = description.calibration { score = calibration.calibrated(score, classIndex: classIndex) }
            guard score.isFinite else { continue }
            let values = layout.positions.map { boxes[index * 4 + $0] }
            guard values.allSatisfy(\.isFinite) else { continue }
            var (xMin, yMin, xMax, yMax): (Float, Float, Float, Float)
            switch layout.shape {
            case .boundaries: (xMin, yMin, xMax, yMax) = (values[0], values[1], values[2], values[3])
            case .upperLeft: (xMin, yMin, xMax, yMax) = (values[0], values[1], values[0] + values[2], values[1] + values[3])
            case .center:
                (xMin, yMin) = (values[0] - values[2] / 2, values[1] - values[3] / 2)
                (xMax, yMax) = (values[0] + values[2] / 2, values[1] + values[3] / 2)
            }
            if layout.coordinates == .pixels { (xMin, xMax, yMin, yMax) = (xMin / width, xMax / width, yMin / height, yMax / height) }
            guard xMax >= xMin, yMax >= yMin else { continue }  // a box of negative size is no detection
            candidates.append(DetectionCandidate(
                xMin: xMin, yMin: yMin, width: xMax - xMin, height: yMax - yMin, score: score, classIndex: classIndex
            ))
        }
        if description.calibration != nil {
            candidates = candidates.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        }
        return candidates
    }

    // MARK: - Anchor outputs

    /// Decoded, thresholded and suppressed detections of an anchor detector.
    ///
    /// The category lists apply before each box picks its best class, as in MediaPipe: with "background"
    /// denied, a box scored highest as background still counts as its best other class.
    private func anchorCandidates(_ outputs: Outputs, threshold: Float?, options: DetectionOptions) throws -> [DetectionCandidate] {
        guard var decoding = description.decoding, var suppression = description.suppression else { return [] }
        if let threshold { decoding.minScoreThreshold = threshold }
        if let labels = description.labels?.values {
            let classes = min(labels.count, decoding.numClasses)
            if !options.categoryAllowlist.isEmpty {
                decoding.allowedClasses = Set((0..<classes).filter { options.categoryAllowlist.contains(labels[$0]) })
                if decoding.allowedClasses.isEmpty { return [] }
            } else if !options.categoryDenylist.isEmpty {
                decoding.ignoredClasses = Set((0..<classes).filter { options.categoryDenylist.contains(labels[$0]) })
            }
        }
        let decoder = try BoxDecoder(options: decoding, anchors: description.anchors, location: "detection")
        let candidates = try decoder.decode(
            boxes: try floats(outputs, description.boxesOutput), scores: try floats(outputs, description.scoresOutput),
            boxesName: description.boxesOutput, scoresName: description.scoresOutput
        )
        suppression.maxDetections = -1
        return suppression.apply(candidates)
    }

    // MARK: - Values

    private func floats(_ outputs: Outputs, _ name: String) throws -> [Float] {
        try outputs[name].values(as: Float.self)
    }

    /// A candidate in normalized tensor coordinates, mapped onto the photo and clipped to it.
    static func detection(_ candidate: DetectionCandidate, label: String?, fit: ImageFit, photo: ImageSize) -> Detection {
        let width = Double(max(1, photo.width)), height = Double(max(1, photo.height))
        func point(_ x: Float, _ y: Float) -> Detection.Point {
            let mapped = fit.photoPoint(normalizedX: Double(x), normalizedY: Double(y))
            return Detection.Point(x: min(max(mapped.x, 0), width), y: min(max(mapped.y, 0), height))
        }
        let topLeft = point(candidate.xMin, candidate.yMin)
        let bottomRight = point(candidate.xMin + candidate.width, candidate.yMin + candidate.height)
        let box = Detection.Box(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
        let keypoints = candidate.keypoints.map { point($0.x, $0.y) }
        return Detection(
            score: candidate.score, classIndex: candidate.classIndex, label: label, box: box, keypoints: keypoints,
            normalizedBox: Detection.Box(x: box.x / width, y: box.y / height, width: box.width / width, height: box.height / height),
            normalizedKeypoints: keypoints.map { Detection.Point(x: $0.x / width, y: $0.y / height) }
        )
    }
}
