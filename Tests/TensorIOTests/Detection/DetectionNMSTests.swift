import Testing
@testable import TensorIO
@testable import TensorIOVision

/// Non-maximum suppression as MediaPipe's `NonMaxSuppressionCalculator` does it, on small hand-built sets,
/// and bounded on a million candidates.
@Suite("Detection: non-maximum suppression")
struct DetectionNMSTests {
    static func candidate(
        _ xMin: Float, _ yMin: Float, _ width: Float, _ height: Float, score: Float, classIndex: Int = 0,
        keypoints: [DetectionCandidate.Keypoint] = []
    ) -> DetectionCandidate {
        DetectionCandidate(xMin: xMin, yMin: yMin, width: width, height: height, score: score, classIndex: classIndex, keypoints: keypoints)
    }

    // A and B overlap: IoU 0.2025 / 0.2975 ≈ 0.681, MediaPipe's Jaccard (over the enclosing box)
    // 0.2025 / 0.3025 ≈ 0.669, modified Jaccard (over B) 0.2025 / 0.25 = 0.81. C stands apart.
    static let a = candidate(0, 0, 0.5, 0.5, score: 0.9)
    static let b = candidate(0.05, 0.05, 0.5, 0.5, score: 0.8)
    static let c = candidate(0.6, 0.6, 0.3, 0.3, score: 0.7)

    @Test("the defaults are the proto's")
    func protoDefaults() {
        let nms = NonMaxSuppression()
        #expect(nms.algorithm == .hard && nms.overlapType == .jaccard)
        #expect(nms.minSuppressionThreshold == 1.0 && nms.maxDetections == -1 && nms.minScoreThreshold == -1.0)
        #expect(!nms.classAware && nms.maximumCandidates == NonMaxSuppression.defaultMaximumCandidates)
        // Threshold 1: nothing overlaps more than itself, so hard suppression keeps everything.
        #expect(nms.apply([Self.c, Self.b, Self.a]) == [Self.a, Self.b, Self.c])
    }

    @Test("hard: by score, each overlap type measured as MediaPipe measures it")
    func hardOverlapTypes() {
        let input = [Self.c, Self.b, Self.a]
        #expect(NonMaxSuppression(overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.675).apply(input) == [Self.a, Self.c])
        #expect(NonMaxSuppression(overlapType: .jaccard, minSuppressionThreshold: 0.675).apply(input) == [Self.a, Self.b, Self.c])
        #expect(NonMaxSuppression(overlapType: .jaccard, minSuppressionThreshold: 0.66).apply(input) == [Self.a, Self.c])
        #expect(NonMaxSuppression(overlapType: .modifiedJaccard, minSuppressionThreshold: 0.8).apply(input) == [Self.a, Self.c])
        #expect(NonMaxSuppression(overlapType: .modifiedJaccard, minSuppressionThreshold: 0.85).apply(input) == [Self.a, Self.b, Self.c])
    }

    @Test("modified Jaccard divides by the tested box in hard suppression and by the cluster's head in weighted")
    func modifiedJaccardOrder() {
        let big = Self.candidate(0, 0, 1, 1, score: 0.9)
        let small = Self.candidate(0.4, 0.4, 0.2, 0.2, score: 0.8)
        let hard = NonMaxSuppression(overlapType: .modifiedJaccard, minSuppressionThreshold: 0.5)
        #expect(hard.apply([big, small]) == [big])  // all of the small box is covered
        var weighted = hard
        weighted.algorithm = .weighted
        let kept = weighted.apply([big, small])  // 4 % of the big head is covered
        #expect(kept.count == 2 && box(kept[0], is: 0, 0, 1, 1) && box(kept[1], is: 0.4, 0.4, 0.2, 0.2))
    }

    @Test("hard: the limit, the score threshold (only above 0), and equal scores in input order")
    func hardLimits() {
        let disjoint = [Self.candidate(0, 0, 0.1, 0.1, score: 0.5), Self.candidate(0.2, 0, 0.1, 0.1, score: 0.9), Self.candidate(0.4, 0, 0.1, 0.1, score: 0.7)]
        #expect(NonMaxSuppression(minSuppressionThreshold: 0.3, maxDetections: 2).apply(disjoint).map(\.score) == [0.9, 0.7])
        #expect(NonMaxSuppression(minSuppressionThreshold: 0.3, minScoreThreshold: 0.6).apply(disjoint).map(\.score) == [0.9, 0.7])
        let negative = [Self.candidate(0, 0, 0.1, 0.1, score: -0.5)]
        #expect(NonMaxSuppression(minScoreThreshold: 0).apply(negative) == negative)

        let first = Self.candidate(0, 0, 0.5, 0.5, score: 0.8, classIndex: 2)
        let second = Self.candidate(0, 0, 0.5, 0.5, score: 0.8, classIndex: 1)
        let nms = NonMaxSuppression(overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.5)
        #expect(nms.apply([first, second]).map(\.classIndex) == [2])
        #expect(nms.apply([second, first]).map(\.classIndex) == [1])
        #expect(nms.apply([Self.candidate(0, 0, 1, 1, score: .nan), Self.c]) == [Self.c])
    }

    /// A and B overlap (IoU 0.09 / 0.23 ≈ 0.39); C stands apart.
    static let weightedSet = [
        candidate(0.7, 0.7, 0.2, 0.2, score: 0.5, classIndex: 3, keypoints: [.init(x: 0.8, y: 0.8)]),
        candidate(0.1, 0.1, 0.4, 0.4, score: 0.6, classIndex: 2, keypoints: [.init(x: 0.2, y: 0.3)]),
        candidate(0, 0, 0.4, 0.4, score: 0.9, classIndex: 1, keypoints: [.init(x: 0.1, y: 0.1)]),
    ]

    @Test("weighted: the head keeps its score and class, with the score-weighted box and keypoints of its cluster")
    func weightedAverages() throws {
        let result = NonMaxSuppression(algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3).apply(Self.weightedSet)
        try #require(result.count == 2)
        // x min (0 × 0.9 + 0.1 × 0.6) / 1.5 = 0.04; x max (0.4 × 0.9 + 0.5 × 0.6) / 1.5 = 0.44.
        #expect(box(result[0], is: 0.04, 0.04, 0.4, 0.4))
        #expect(result[0].score == 0.9 && result[0].classIndex == 1)
        #expect(nearly(result[0].keypoints[0].x, 0.14) && nearly(result[0].keypoints[0].y, 0.18))
        #expect(box(result[1], is: 0.7, 0.7, 0.2, 0.2) && result[1].classIndex == 3)
        #expect(nearly(result[1].keypoints[0].x, 0.8))
    }

    @Test("weighted: a round that removes nothing ends the loop, as the default threshold and a zero-area head do")
    func weightedStops() {
        // Threshold 1: the head does not even overlap itself more than that; only it comes out.
        #expect(NonMaxSuppression(algorithm: .weighted).apply(Self.weightedSet) == [Self.weightedSet[2]])

        let weighted = NonMaxSuppression(algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        let zeroArea = Self.candidate(0.6, 0.6, 0, 0, score: 0.55)
        let result = weighted.apply(Self.weightedSet + [zeroArea])
        // After A's cluster, the zero-area box heads the rest: it removes nothing, so C never comes out.
        #expect(result.count == 2)
        #expect(result.last == zeroArea)
        #expect(weighted.apply([Self.candidate(0.5, 0.5, 0, 0, score: 0.95)] + Self.weightedSet).count == 1)

        // Hard suppression just keeps it, and it suppresses nothing.
        let hard = NonMaxSuppression(overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        #expect(hard.apply(Self.weightedSet + [zeroArea]).map(\.score) == [0.9, 0.55, 0.5])
    }

    @Test("weighted: candidates under the score threshold still join a better head's cluster; the limit holds")
    func weightedThresholdAndLimit() throws {
        let thresholded = NonMaxSuppression(algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3, minScoreThreshold: 0.8)
        let result = thresholded.apply(Self.weightedSet)
        try #require(result.count == 1)
        #expect(box(result[0], is: 0.04, 0.04, 0.4, 0.4))  // B (0.6) is averaged in, C (0.5) never heads

        let limited = NonMaxSuppression(algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3, maxDetections: 1)
        #expect(limited.apply(Self.weightedSet).count == 1)
    }

    @Test("class-aware suppression only suppresses within a class")
    func classAware() {
        let p = Self.candidate(0, 0, 0.5, 0.5, score: 0.9, classIndex: 0)
        let q = Self.candidate(0, 0, 0.5, 0.5, score: 0.8, classIndex: 1)
        let r = Self.candidate(0, 0, 0.5, 0.5, score: 0.7, classIndex: 0)
        var nms = NonMaxSuppression(overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.5)
        #expect(nms.apply([p, q, r]) == [p])
        nms.classAware = true
        #expect(nms.apply([p, q, r]) == [p, q])
        nms.algorithm = .weighted
        #expect(nms.apply([p, q, r]).map(\.classIndex) == [0, 1])
        nms.classAware = false
        #expect(nms.apply([p, q, r]).map(\.classIndex) == [0])
    }

    @Test("only the best-ranked candidates up to the cap take part")
    func candidateCap() {
        let scores: [Float] = [0.1, 0.9, 0.5, 0.7, 0.3]
        let disjoint = scores.enumerated().map { Self.candidate(Float($0.offset) * 0.2, 0, 0.1, 0.1, score: $0.element) }
        #expect(NonMaxSuppression(maximumCandidates: 3).apply(disjoint).map(\.score) == [0.9, 0.7, 0.5])
        #expect(NonMaxSuppression(maximumCandidates: 1).apply(disjoint).map(\.score) == [0.9])
        #expect(NonMaxSuppression(maximumCandidates: 5).apply(disjoint).map(\.score) == [0.9, 0.7, 0.5, 0.3, 0.1])
    }

    @Test("unusable options are refused")
    func invalidOptions() {
        func location(_ nms: NonMaxSuppression) -> String? { detectionError { try nms.validate(location: "detection.nms") }?.location }
        #expect(location(NonMaxSuppression()) == nil)
        #expect(location(NonMaxSuppression(maxDetections: 0)) == "detection.nms.maxDetections")
        #expect(location(NonMaxSuppression(minSuppressionThreshold: .nan)) == "detection.nms.minSuppressionThreshold")
        #expect(location(NonMaxSuppression(minScoreThreshold: .nan)) == "detection.nms.minScoreThreshold")
        #expect(location(NonMaxSuppression(maximumCandidates: 0)) == "detection.nms.maximumCandidates")
        #expect(NonMaxSuppression(maxDetections: 0).apply([Self.a]).isEmpty)
    }

    // MARK: - A million candidates

    /// Candidates with distinct scrambled scores; tiny boxes on a 1000-wide grid, or all the same box.
    static func million(disjoint: Bool) -> [DetectionCandidate] {
        (0..<1_000_000).map { index in
            let score = Float(index * 7919 % 1_000_003) / 1_000_003
            return disjoint
                ? candidate(Float(index % 1000) * 0.001, Float(index / 1000) * 0.001, 0.0005, 0.0005, score: score)
                : candidate(0.1, 0.1, 0.5, 0.5, score: score)
        }
    }

    @Test("a million candidates: a small limit stops early, a cap bounds the rest, the best come first")
    func millionCandidates() throws {
        let disjoint = Self.million(disjoint: true)
        let best = try #require(disjoint.map(\.score).max())
        let limited = NonMaxSuppression(overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3, maxDetections: 100).apply(disjoint)
        #expect(limited.count == 100)
        #expect(limited.first?.score == best)
        #expect(zip(limited, limited.dropFirst()).allSatisfy { $0.score > $1.score })

        for algorithm in [NonMaxSuppression.Algorithm.hard, .weighted] {
            let capped = NonMaxSuppression(algorithm: algorithm, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3, maximumCandidates: 500).apply(disjoint)
            #expect(capped.count == 500)
            #expect(capped.first?.score == best)
        }

        let stacked = Self.million(disjoint: false)
        for algorithm in [NonMaxSuppression.Algorithm.hard, .weighted] {
            let merged = NonMaxSuppression(algorithm: algorithm, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3).apply(stacked)
            try #require(merged.count == 1)
            // Ten thousand identical boxes averaged in single precision: equal up to rounding.
            #expect(nearly(merged[0].xMin, 0.1, tolerance: 1e-3) && nearly(merged[0].width, 0.5, tolerance: 1e-3))
            #expect(merged[0].score == best)
        }
    }
}
