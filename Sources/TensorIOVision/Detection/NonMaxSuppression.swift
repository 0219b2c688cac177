import TensorIO

/// Non-maximum suppression as MediaPipe's `NonMaxSuppressionCalculator` does it
/// (`mediapipe/calculators/util/non_max_suppression_calculator.cc`), with the proto's defaults.
///
/// Candidates are visited by score, highest first. MediaPipe sorts with `std::sort`, which is not
/// stable, so its order among equal scores is unspecified; here equal scores keep their input order,
/// which makes the result deterministic.
///
/// Bounded work: only the `maximumCandidates` best-ranked candidates (10,000 by default) take part,
/// picked with a heap in O(n log K) for n candidates and K = `maximumCandidates`, then sorted in
/// O(K log K). Suppression compares each visited candidate with the ones kept so far (hard) or with every
/// remaining one per kept cluster (weighted), so it costs at most O(K × D) overlap tests, D being the
/// number of detections returned: D ≤ `maxDetections` when that is set, and ≤ K always. A million
/// candidates above the threshold thus cost one heap pass plus at most 5 × 10⁷ overlap tests, and with
/// a small `maxDetections` the loop ends as soon as that many are kept. Measured in a release build on
/// a shared x86-64 machine, for a million disjoint candidates and no limit (the worst case: every
/// candidate kept): about 0.15 s hard and 0.3 s weighted; with `maxDetections` 10, 10 ms. MediaPipe has
/// no such cap: the cap changes a result only when more than K candidates take part, by ignoring the
/// lowest-scored ones.
///
/// The weighted algorithm stops after `maxDetections` detections too, where MediaPipe's ignores the
/// limit; since both emit detections in the same order, this returns MediaPipe's first
/// `maxDetections`, which is what clipping its output gives.
struct NonMaxSuppression: Sendable, Hashable {
    /// How suppressed candidates are treated.
    enum Algorithm: Sendable, Hashable {
        /// Drop every candidate that overlaps a kept one too much (MediaPipe's `DEFAULT`).
        case hard
        /// Replace each kept candidate's box and keypoints by the score-weighted average of the
        /// candidates it suppresses, itself included (`WEIGHTED`, as in MediaPipe's face, hand and pose
        /// detectors).
        case weighted
    }

    /// How the overlap of two boxes is measured; the first box is the kept (or remaining) one, the second
    /// the one tested (or the cluster's head), as MediaPipe passes them.
    enum OverlapType: Sendable, Hashable {
        /// Intersection over the area of the smallest box enclosing both (MediaPipe's `JACCARD`, which
        /// uses `Rectangle::Union`, a bounding box rather than the union of the areas).
        case jaccard
        /// Intersection over the second box's area (`MODIFIED_JACCARD`).
        case modifiedJaccard
        /// Intersection over the union of the two areas (`INTERSECTION_OVER_UNION`).
        case intersectionOverUnion
    }

    /// The default for `maximumCandidates`: more than any MediaPipe detector's anchor count (at most
    /// 2,304) and YOLO-style models' 8,400, while keeping the worst case near 5 × 10⁷ overlap tests.
    static let defaultMaximumCandidates = 10_000

    /// Proto default `DEFAULT`.
    var algorithm = Algorithm.hard
    /// Proto default `JACCARD`.
    var overlapType = OverlapType.jaccard
    /// A candidate is suppressed when its overlap is strictly greater than this (proto default 1.0, which
    /// suppresses nothing: the weighted algorithm then keeps only the best candidate).
    var minSuppressionThreshold: Float = 1.0
    /// The most detections returned; negative for no limit (proto default -1; 0 returns none, and
    /// `validate(location:)` refuses it as MediaPipe does).
    var maxDetections = -1
    /// Candidates scoring below this are not kept, and end the weighted algorithm when one heads the
    /// remaining ones; only a value above 0 applies (proto default -1.0).
    var minScoreThreshold: Float = -1.0
    /// Whether a candidate can only be suppressed by one of its own class; MediaPipe suppresses across
    /// classes (false).
    var classAware = false
    /// How many of the best-ranked candidates take part (see the type's notes).
    var maximumCandidates = NonMaxSuppression.defaultMaximumCandidates

    init(
        algorithm: Algorithm = .hard, overlapType: OverlapType = .jaccard, minSuppressionThreshold: Float = 1.0,
        maxDetections: Int = -1, minScoreThreshold: Float = -1.0, classAware: Bool = false,
        maximumCandidates: Int = NonMaxSuppression.defaultMaximumCandidates
    ) {
        self.algorithm = algorithm
        self.overlapType = overlapType
        self.minSuppressionThreshold = minSuppressionThreshold
        self.maxDetections = maxDetections
        self.minScoreThreshold = minScoreThreshold
        self.classAware = classAware
        self.maximumCandidates = maximumCandidates
    }

    /// Checks options read from a `model.json`.
    ///
    /// - Parameter location: The JSON path of these options; errors name a field under it.
    /// - Throws: `TensorIOError` `TensorIOError/Code/invalidBundle`.
    func validate(location: String) throws {
        guard minSuppressionThreshold.isFinite else {
            throw TensorIOError.invalidDetectionOption("must be a finite number, not \(minSuppressionThreshold)", at: "\(location).minSuppressionThreshold")
        }
        guard !minScoreThreshold.isNaN else {
            throw TensorIOError.invalidDetectionOption("must be a number, not NaN", at: "\(location).minScoreThreshold")
        }
        guard maxDetections != 0 else {
            throw TensorIOError.invalidDetectionOption("must be positive, or negative for no limit; 0 keeps nothing", at: "\(location).maxDetections")
        }
        guard maximumCandidates >= 1 else {
            throw TensorIOError.invalidDetectionOption("must be at least 1, not \(maximumCandidates)", at: "\(location).maximumCandidates")
        }
    }

    /// The detections that survive, best first.
    ///
    /// Candidates with a NaN score are ignored (MediaPipe's sort has no defined order for them).
    func apply(_ candidates: [DetectionCandidate]) -> [DetectionCandidate] {
        let limit = maxDetections < 0 ? Int.max : maxDetections
        guard limit > 0, maximumCandidates > 0 else { return [] }
        switch algorithm {
        case .hard:
            // Hard suppression never keeps a candidate under the threshold and only kept ones suppress,
            // so dropping them first changes nothing, and spares them the ranking.
            let threshold = minScoreThreshold > 0 ? minScoreThreshold : nil
            let ranked = ranking(candidates) { score in threshold.map { score >= $0 } ?? true }
            return hardSuppression(candidates, ranked: ranked, limit: limit)
        case .weighted:
            // Under-threshold candidates still join the clusters of better ones, as in MediaPipe.
            return weightedSuppression(candidates, ranked: ranking(candidates) { _ in true }, limit: limit)
        }
    }

    // MARK: - Algorithms

    /// `NonMaxSuppressionCalculator::NonMaxSuppression`.
    private func hardSuppression(_ candidates: [DetectionCandidate], ranked: [Int], limit: Int) -> [DetectionCandidate] {
        var kept: [DetectionCandidate] = []
        // The kept boxes, copied out of the candidates so the quadratic part touches plain floats only;
        // per class when suppression is, else one list.
        var keptBoxes: [OverlapBox] = []
        var keptBoxesByClass: [Int: [OverlapBox]] = [:]
        for index in ranked {
            let box = OverlapBox(candidates[index])
            let classIndex = candidates[index].classIndex
            let suppressed = (classAware ? keptBoxesByClass[classIndex, default: []] : keptBoxes).contains {
                Self.similarity(overlapType, $0, box) > minSuppressionThreshold
            }
            if !suppressed {
                kept.append(candidates[index])
                if classAware { keptBoxesByClass[classIndex, default: []].append(box) } else { keptBoxes.append(box) }
            }
            if kept.count >= limit { break }
        }
        return kept
    }

    /// `NonMaxSuppressionCalculator::WeightedNonMaxSuppression`: the best remaining candidate heads a
    /// cluster of every remaining one that overlaps it more than the threshold (itself included when its
    /// area is not zero), and is kept with the cluster's score-weighted box and keypoints. The loop ends
    /// when a round removes nothing, which a zero-area head causes as in MediaPipe: it does not overlap
    /// even itself.
    private func weightedSuppression(_ candidates: [DetectionCandidate], ranked: [Int], limit: Int) -> [DetectionCandidate] {
        // Positions in `ranked`, with each one's box and class copied out for the quadratic part.
        let boxes = ranked.map { OverlapBox(candidates[$0]) }
        let classes = classAware ? ranked.map { candidates[$0].classIndex } : []
        var kept: [DetectionCandidate] = []
        var remaining = Array(ranked.indices)
        var remained: [Int] = []
        var cluster: [Int] = []
        remained.reserveCapacity(remaining.count)
        while let head = remaining.first {
            let headCandidate = candidates[ranked[head]]
            if minScoreThreshold > 0, headCandidate.score < minScoreThreshold { break }
            remained.removeAll(keepingCapacity: true)
            cluster.removeAll(keepingCapacity: true)
            let headBox = boxes[head]
            for position in remaining {
                if classAware, classes[position] != classes[head] {
                    remained.append(position)
                } else if Self.similarity(overlapType, boxes[position], headBox) > minSuppressionThreshold {
                    cluster.append(ranked[position])
                } else {
                    remained.append(position)
                }
            }
            kept.append(cluster.isEmpty ? headCandidate : Self.weightedAverage(of: cluster, in: candidates, head: headCandidate))
            if kept.count >= limit || remained.count == remaining.count { break }
            swap(&remaining, &remained)
        }
        return kept
    }

    /// The head with its box and keypoints replaced by the cluster's score-weighted averages, summed in
    /// single precision in rank order as MediaPipe does. A cluster member with fewer keypoints than the
    /// head adds nothing to the ones it lacks (MediaPipe would read past its list).
    private static func weightedAverage(of cluster: [Int], in candidates: [DetectionCandidate], head: DetectionCandidate) -> DetectionCandidate {
        var totalScore: Float = 0
        var xMin: Float = 0, yMin: Float = 0, xMax: Float = 0, yMax: Float = 0
        var keypoints = [DetectionCandidate.Keypoint](repeating: .init(x: 0, y: 0), count: head.keypoints.count)
        for index in cluster {
            let member = candidates[index]
            let weight = member.score
            totalScore += weight
            xMin += member.xMin * weight
            yMin += member.yMin * weight
            xMax += (member.xMin + member.width) * weight
            yMax += (member.yMin + member.height) * weight
            for (position, keypoint) in zip(keypoints.indices, member.keypoints) {
                keypoints[position].x += keypoint.x * weight
                keypoints[position].y += keypoint.y * weight
            }
        }
        var weighted = head
        weighted.xMin = xMin / totalScore
        weighted.yMin = yMin / totalScore
        weighted.width = xMax / totalScore - weighted.xMin
        weighted.height = yMax / totalScore - weighted.yMin
        weighted.keypoints = keypoints.map { .init(x: $0.x / totalScore, y: $0.y / totalScore) }
        return weighted
    }
}
