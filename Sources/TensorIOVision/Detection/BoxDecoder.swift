import Foundation
import TensorIO

/// Decodes an SSD model's raw outputs into detection candidates, as the CPU path of MediaPipe's
/// `TensorsToDetectionsCalculator` does for a model without a built-in post-processing op: boxes and
/// keypoints relative to their anchors, the best allowed class per box, then the score threshold, the
/// result limit and the removal of boxes with a negative or NaN size.
///
/// Deliberate differences, each where MediaPipe's output is unusable:
/// - a box with no allowed class, or whose every score is NaN (NaN never wins a comparison), is dropped;
///   MediaPipe emits it with class -1 and score −`Float.greatestFiniteMagnitude` unless a score
///   threshold happens to remove it;
/// - a box with an infinite edge or size is dropped like a NaN one, so it cannot poison the averages of
///   weighted non-maximum suppression;
/// - the box and the keypoints are each decoded from their own values whatever their offsets, where
///   MediaPipe writes the decoded box over the first four values of its output and so corrupts it when
///   keypoints come before the box.
struct BoxDecoder: Sendable {
    let options: BoxDecodingOptions
    let anchors: [Anchor]

    /// Checks the options, and the anchors against them.
    ///
    /// - Parameter location: The JSON path of the options, for errors.
    /// - Throws: `TensorIOError` `TensorIOError/Code/invalidBundle`.
    init(options: BoxDecodingOptions, anchors: [Anchor], location: String) throws {
        try options.validate(location: location)
        guard anchors.count == options.numBoxes else {
            throw TensorIOError.invalidDetectionOption(
                "is \(options.numBoxes), but the anchors number \(anchors.count); there is one box per anchor",
                at: "\(location).numBoxes"
            )
        }
        self.options = options
        self.anchors = anchors
    }

    /// The candidates of one run, in box order.
    ///
    /// - Parameters:
    ///   - boxes: The raw box tensor, `numBoxes × numCoords` floats.
    ///   - scores: The raw score tensor, `numBoxes × numClasses` floats.
    ///   - boxesName, scoresName: The tensors' names, for errors.
    /// - Throws: `TensorIOError` `TensorIOError/Code/outputMismatch` naming the tensor whose size
    ///   disagrees with the options.
    func decode(boxes: [Float], scores: [Float], boxesName: String = "boxes", scoresName: String = "scores") throws -> [DetectionCandidate] {
        let options = options
        // The options were validated, and numBoxes equals the anchor count, so these products of
        // untrusted counts are only overflow-checked, never trusted.
        let (boxValues, boxOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numCoords)
        guard !boxOverflow, boxes.count == boxValues else {
            throw TensorIOError.outputMismatch(
                "holds \(boxes.count) values, but \(options.numBoxes) boxes × \(options.numCoords) coordinates need \(boxOverflow ? "more than can be counted" : "\(boxValues)")",
                output: boxesName
            )
        }
        let (scoreValues, scoreOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numClasses)
        guard !scoreOverflow, scores.count == scoreValues else {
            throw TensorIOError.outputMismatch(
                "holds \(scores.count) values, but \(options.numBoxes) boxes × \(options.numClasses) classes need \(scoreOverflow ? "more than can be counted" : "\(scoreValues)")",
                output: scoresName
            )
        }
        // Built only now: numClasses is bounded by the real score tensor.
        let allowed = (0..<options.numClasses).map { options.allowedClasses.isEmpty ? !options.ignoredClasses.contains($0) : options.allowedClasses.contains($0) }

        var candidates: [DetectionCandidate] = []
        for box in 0..<options.numBoxes {
            if options.maxResults > 0, candidates.count == options.maxResults { break }
            guard let best = bestClass(scores, row: box * options.numClasses, allowed: allowed) else { continue }
            if let threshold = options.minScoreThreshold, best.score < threshold { continue }
            guard let candidate = decodeBox(boxes, box: box, score: best.score, classIndex: best.classIndex) else { continue }
            candidates.append(candidate)
        }
        return candidates
    }

    /// The highest score among the allowed classes, the first class on a tie; `nil` when no allowed
    /// class has a score above −`greatestFiniteMagnitude` (so never a NaN).
    private func bestClass(_ scores: [Float], row: Int, allowed: [Bool]) -> (score: Float, classIndex: Int)? {
        var bestScore = -Float.greatestFiniteMagnitude
        var bestClass = -1
        for classIndex in 0..<options.numClasses where allowed[classIndex] {
            var score = scores[row + classIndex]
            if options.sigmoidScore {
                if let threshold = options.scoreClippingThreshold {
                    score = score < -threshold ? -threshold : score
                    score = score > threshold ? threshold : score
                }
                score = 1 / (1 + exp(-score))
            }
            if bestScore < score {
                bestScore = score
                bestClass = classIndex
            }
        }
        return bestClass < 0 ? nil : (bestScore, bestClass)
    }

    /// `DecodeBoxes` and `ConvertToDetection` for one box; `nil` for a box with a negative or non-finite
    /// size or edge.
    private func decodeBox(_ raw: [Float], box index: Int, score: Float, classIndex: Int) -> DetectionCandidate? {
        let options = options
        let anchor = anchors[index]
        let start = index * options.numCoords + options.boxCoordOffset
        var xCenter, yCenter, width, height: Float
        switch options.boxFormat {
        case .yxhw:
            (yCenter, xCenter, height, width) = (raw[start], raw[start + 1], raw[start + 2], raw[start + 3])
        case .xywh:
            (xCenter, yCenter, width, height) = (raw[start], raw[start + 1], raw[start + 2], raw[start + 3])
        case .xyxy:
            xCenter = (-raw[start] + raw[start + 2]) / 2
            yCenter = (-raw[start + 1] + raw[start + 3]) / 2
            width = raw[start + 2] + raw[start]
            height = raw[start + 3] + raw[start + 1]
        }
        xCenter = xCenter / options.xScale * anchor.width + anchor.xCenter
        yCenter = yCenter / options.yScale * anchor.height + anchor.yCenter
        if options.applyExponentialOnBoxSize {
            height = exp(height / options.hScale) * anchor.height
            width = exp(width / options.wScale) * anchor.width
        } else {
            height = height / options.hScale * anchor.height
            width = width / options.wScale * anchor.width
        }
        let yMin = yCenter - height / 2, xMin = xCenter - width / 2
        let yMax = yCenter + height / 2, xMax = xCenter + width / 2

        let box = (xMin: xMin, yMin: options.flipVertically ? 1 - yMax : yMin, width: xMax - xMin, height: yMax - yMin)
        // MediaPipe drops negative and NaN sizes (b/171391719); infinite ones go too (see the type's notes).
        guard box.xMin.isFinite, box.yMin.isFinite, box.width.isFinite, box.height.isFinite, box.width >= 0, box.height >= 0 else {
            return nil
        }
        return DetectionCandidate(
            xMin: box.xMin, yMin: box.yMin, width: box.width, height: box.height,
            score: score, classIndex: classIndex, keypoints: keypoints(raw, box: index, anchor: anchor)
        )
    }

    private func keypoints(_ raw: [Float], box: Int, anchor: Anchor) -> [DetectionCandidate.Keypoint] {
        let options = options
        guard options.numKeypoints > 0 else { return [] }
        return (0..<options.numKeypoints).map { keypoint in
            let start = box * options.numCoords + options.keypointCoordOffset + keypoint * options.valuesPerKeypoint
            let (rawX, rawY) = options.boxFormat == .yxhw ? (raw[start + 1], raw[start]) : (raw[start], raw[start + 1])
            let x = rawX / options.xScale * anchor.width + anchor.xCenter
            let y = rawY / options.yScale * anchor.height + anchor.yCenter
            return DetectionCandidate.Keypoint(x: x, y: options.flipVertically ? 1 - y : y)
        }
    }
}
