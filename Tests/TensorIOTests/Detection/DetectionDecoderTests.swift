import Testing
@testable import TensorIO
@testable import TensorIOVision

/// Decoding raw SSD outputs as the CPU path of MediaPipe's `TensorsToDetectionsCalculator` does, on boxes
/// worked out by hand.
@Suite("Detection: box decoding")
struct DetectionDecoderTests {
    static let location = "detection.decoding"
    /// Not square, and off the origin, so a swapped x and y or width and height shows.
    static let anchor = Anchor(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4)
    static let ln2 = Float(0.6931472)

    /// SSD-style scales 10, 10, 5, 5; one box and one class unless told.
    static func options(classes: Int = 1, boxes: Int = 1, keypoints: Int = 0) -> BoxDecodingOptions {
        var options = BoxDecodingOptions(numClasses: classes, numBoxes: boxes, numCoords: 4 + 2 * keypoints)
        options.numKeypoints = keypoints
        options.keypointCoordOffset = 4
        (options.xScale, options.yScale, options.wScale, options.hScale) = (10, 10, 5, 5)
        return options
    }

    static func decode(_ options: BoxDecodingOptions, boxes: [Float], scores: [Float], anchors: [Anchor]? = nil) throws -> [DetectionCandidate] {
        let anchors = anchors ?? Array(repeating: anchor, count: options.numBoxes)
        return try BoxDecoder(options: options, anchors: anchors, location: location).decode(boxes: boxes, scores: scores)
    }

    @Test("the defaults are the proto's")
    func protoDefaults() {
        let options = BoxDecodingOptions(numClasses: 1, numBoxes: 1, numCoords: 4)
        #expect(options.boxCoordOffset == 0 && options.keypointCoordOffset == 0 && options.numKeypoints == 0)
        #expect(options.valuesPerKeypoint == 2)
        #expect(options.xScale == 0 && options.yScale == 0 && options.wScale == 0 && options.hScale == 0)
        #expect(!options.applyExponentialOnBoxSize && !options.sigmoidScore && !options.flipVertically)
        #expect(options.boxFormat == .yxhw)
        #expect(options.scoreClippingThreshold == nil && options.minScoreThreshold == nil)
        #expect(options.allowedClasses.isEmpty && options.ignoredClasses.isEmpty && options.maxResults == -1)
    }

    @Test("yxhw: centre offsets times the anchor size, sizes linear or exponential")
    func yxhw() throws {
        var options = Self.options()
        let linear = try Self.decode(options, boxes: [1, 3, 10, 5], scores: [0.9])
        // y = 1/10 × 0.4 + 0.5, x = 3/10 × 0.2 + 0.5, h = 10/5 × 0.4, w = 5/5 × 0.2.
        #expect(linear.count == 1 && box(linear[0], is: 0.46, 0.14, 0.2, 0.8))
        #expect(linear[0].score == 0.9 && linear[0].classIndex == 0 && linear[0].keypoints.isEmpty)

        options.applyExponentialOnBoxSize = true
        let exponential = try Self.decode(options, boxes: [1, 3, 5 * Self.ln2, 0], scores: [0.9])
        #expect(box(exponential[0], is: 0.46, 0.14, 0.2, 0.8))  // h = e^(ln 2) × 0.4, w = e^0 × 0.2
    }

    @Test("xywh (MediaPipe's reverse_output_order) reads x, y, w, h and keypoints as x, y")
    func xywh() throws {
        var options = Self.options(keypoints: 2)
        options.boxFormat = .xywh
        options.applyExponentialOnBoxSize = true
        let decoded = try Self.decode(options, boxes: [1, 3, 5 * Self.ln2, 0, 3, -1, 0, 5], scores: [0.9])
        // x = 1/10 × 0.2 + 0.5, y = 3/10 × 0.4 + 0.5, w = 2 × 0.2, h = 0.4.
        #expect(box(decoded[0], is: 0.32, 0.42, 0.4, 0.4))
        #expect(decoded[0].keypoints.count == 2)
        #expect(nearly(decoded[0].keypoints[0].x, 0.56) && nearly(decoded[0].keypoints[0].y, 0.46))
        #expect(nearly(decoded[0].keypoints[1].x, 0.5) && nearly(decoded[0].keypoints[1].y, 0.7))
    }

    @Test("yxhw keypoints are read y, x; flipping turns y into 1 − y for the box and the keypoints")
    func keypointsAndFlip() throws {
        var options = Self.options(keypoints: 2)
        let boxes: [Float] = [1, 3, 10, 5, 3, -1, 0, 5]
        let upright = try Self.decode(options, boxes: boxes, scores: [0.9])
        #expect(nearly(upright[0].keypoints[0].x, 0.48) && nearly(upright[0].keypoints[0].y, 0.62))
        #expect(nearly(upright[0].keypoints[1].x, 0.6) && nearly(upright[0].keypoints[1].y, 0.5))

        options.flipVertically = true
        let flipped = try Self.decode(options, boxes: boxes, scores: [0.9])
        #expect(box(flipped[0], is: 0.46, 0.06, 0.2, 0.8))  // 1 − (0.54 + 0.4)
        #expect(nearly(flipped[0].keypoints[0].x, 0.48) && nearly(flipped[0].keypoints[0].y, 0.38))
    }

    @Test("xyxy: distances to the left, top, right and bottom edges from the anchor centre")
    func xyxy() throws {
        var options = Self.options()
        options.boxFormat = .xyxy
        (options.xScale, options.yScale, options.wScale, options.hScale) = (10, 10, 10, 10)
        let anchor = Anchor(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 1)
        let decoded = try Self.decode(options, boxes: [1, 2, 3, 4], scores: [0.9], anchors: [anchor])
        // x = (3 − 1)/2/10 × 0.5 + 0.5 = 0.55, y = (4 − 2)/2/10 × 1 + 0.5 = 0.6, w = 0.4 × 0.5, h = 0.6 × 1.
        #expect(box(decoded[0], is: 0.45, 0.3, 0.2, 0.6))
    }

    @Test("box and keypoint offsets place the values anywhere in a prediction")
    func offsets() throws {
        var options = Self.options(keypoints: 1)
        options.keypointCoordOffset = 0
        options.boxCoordOffset = 2
        let decoded = try Self.decode(options, boxes: [3, -1, 1, 3, 10, 5], scores: [0.9])
        #expect(box(decoded[0], is: 0.46, 0.14, 0.2, 0.8))
        #expect(nearly(decoded[0].keypoints[0].x, 0.48) && nearly(decoded[0].keypoints[0].y, 0.62))
    }

    @Test("the best allowed class wins, after clipping and the sigmoid; the first one on a tie")
    func scores() throws {
        var options = Self.options(classes: 2)
        let raw = try Self.decode(options, boxes: [0, 0, 5, 5], scores: [3, 5])
        #expect(raw[0].classIndex == 1 && raw[0].score == 5)

        options.sigmoidScore = true
        let sigmoid = try Self.decode(options, boxes: [0, 0, 5, 5], scores: [3, 5])
        #expect(sigmoid[0].classIndex == 1 && nearly(sigmoid[0].score, 0.9933071))

        options.scoreClippingThreshold = 1  // both become σ(1): the first class keeps the lead
        let clipped = try Self.decode(options, boxes: [0, 0, 5, 5], scores: [3, 5])
        #expect(clipped[0].classIndex == 0 && nearly(clipped[0].score, 0.7310586))

        options.scoreClippingThreshold = 2
        let low = try Self.decode(options, boxes: [0, 0, 5, 5], scores: [-5, -7])
        #expect(low[0].classIndex == 0 && nearly(low[0].score, 0.11920292))
    }

    @Test("allowed and ignored classes, the score threshold and the result limit in box order")
    func filters() throws {
        var options = Self.options(classes: 3)
        let scores: [Float] = [0.9, 0.5, 0.7]
        options.allowedClasses = [1, 2]
        #expect(try Self.decode(options, boxes: [0, 0, 5, 5], scores: scores).map(\.classIndex) == [2])
        options.allowedClasses = [7]
        #expect(try Self.decode(options, boxes: [0, 0, 5, 5], scores: scores).isEmpty)
        options.allowedClasses = []
        options.ignoredClasses = [0]
        #expect(try Self.decode(options, boxes: [0, 0, 5, 5], scores: scores).map(\.score) == [0.7])

        var threshold = Self.options(boxes: 3)
        threshold.minScoreThreshold = 0.5
        let boxes: [Float] = [0, 0, 5, 5, 0, 0, 5, 5, 0, 0, 5, 5]
        #expect(try Self.decode(threshold, boxes: boxes, scores: [0.49, 0.5, 0.9]).map(\.score) == [0.5, 0.9])

        var limited = Self.options(boxes: 3)
        limited.maxResults = 2
        #expect(try Self.decode(limited, boxes: boxes, scores: [0.1, 0.9, 0.5]).map(\.score) == [0.1, 0.9])
    }

    // MARK: - Hostile values

    @Test("NaN never wins; a box with no comparable score, a negative, NaN or infinite size is dropped")
    func hostileValues() throws {
        let two = Self.options(classes: 2)
        #expect(try Self.decode(two, boxes: [0, 0, 5, 5], scores: [.nan, 0.3]).map(\.classIndex) == [1])
        #expect(try Self.decode(two, boxes: [0, 0, 5, 5], scores: [.nan, .nan]).isEmpty)
        #expect(try Self.decode(two, boxes: [0, 0, 5, 5], scores: [-.infinity, -.infinity]).isEmpty)
        var sigmoid = two
        sigmoid.sigmoidScore = true
        #expect(try Self.decode(sigmoid, boxes: [0, 0, 5, 5], scores: [.nan, .infinity]).map(\.score) == [1])
        #expect(try Self.decode(sigmoid, boxes: [0, 0, 5, 5], scores: [.nan, .nan]).isEmpty)

        let one = Self.options()
        #expect(try Self.decode(one, boxes: [0, 0, -10, 5], scores: [0.9]).isEmpty)  // negative height
        #expect(try Self.decode(one, boxes: [0, 0, 5, -0.1], scores: [0.9]).isEmpty)  // negative width
        #expect(try Self.decode(one, boxes: [.nan, 0, 5, 5], scores: [0.9]).isEmpty)
        #expect(try Self.decode(one, boxes: [0, 0, .infinity, 5], scores: [0.9]).isEmpty)
        #expect(try Self.decode(one, boxes: [-.infinity, 0, 5, 5], scores: [0.9]).isEmpty)
        var exponential = one
        exponential.applyExponentialOnBoxSize = true
        #expect(try Self.decode(exponential, boxes: [0, 0, 1000, 0], scores: [0.9]).isEmpty)  // e^200 overflows
        #expect(try Self.decode(one, boxes: [0, 0, 0, 0], scores: [0.9]).count == 1)  // zero size is kept
    }

    @Test("tensors whose sizes disagree with the options are named")
    func tensorMismatch() throws {
        let decoder = try BoxDecoder(options: Self.options(classes: 2, boxes: 2), anchors: [Self.anchor, Self.anchor], location: Self.location)
        let boxes = detectionError { _ = try decoder.decode(boxes: [Float](repeating: 0, count: 7), scores: [0, 0, 0, 0], boxesName: "raw_boxes") }
        #expect(boxes?.code == .outputMismatch && boxes?.location == "output \"raw_boxes\"")
        let scores = detectionError { _ = try decoder.decode(boxes: [Float](repeating: 0, count: 8), scores: [0, 0, 0]) }
        #expect(scores?.code == .outputMismatch && scores?.location == "output \"scores\"")
        #expect(try decoder.decode(boxes: [Float](repeating: 0, count: 8), scores: [0, 0, 0, 0]).count == 2)

        // numBoxes × numClasses past Int: refused, not trapped.
        var huge = Self.options(boxes: 2)
        huge.numClasses = .max
        let overflow = detectionError { _ = try Self.decode(huge, boxes: [Float](repeating: 0, count: 8), scores: [0, 0]) }
        #expect(overflow?.code == .outputMismatch && overflow?.location == "output \"scores\"")
    }

    @Test("every unusable option is refused with its JSON path")
    func invalidOptions() {
        func location(_ change: (inout BoxDecodingOptions) -> Void, anchors: Int = 2) -> String? {
            var options = Self.options(classes: 3, boxes: 2, keypoints: 2)
            change(&options)
            guard let error = detectionError({
                _ = try BoxDecoder(options: options, anchors: Array(repeating: Self.anchor, count: anchors), location: Self.location)
            }) else { return nil }
            #expect(error.code == .invalidBundle)
            return error.location
        }
        #expect(location { _ in } == nil)
        #expect(location({ _ in }, anchors: 3) == "detection.decoding.numBoxes")
        #expect(location { $0.numClasses = 0 } == "detection.decoding.numClasses")
        #expect(location { $0.numCoords = 7 } == "detection.decoding.numCoords")
        #expect(location { $0.numKeypoints = .max / 2 + 1 } == "detection.decoding.numCoords")
        #expect(location { $0.numKeypoints = -1 } == "detection.decoding.numKeypoints")
        #expect(location { $0.valuesPerKeypoint = 3 } == "detection.decoding.valuesPerKeypoint")
        #expect(location { $0.boxCoordOffset = 5 } == "detection.decoding.boxCoordOffset")
        #expect(location { $0.boxCoordOffset = -1 } == "detection.decoding.boxCoordOffset")
        #expect(location { $0.keypointCoordOffset = 5 } == "detection.decoding.keypointCoordOffset")
        #expect(location { $0.keypointCoordOffset = -1 } == "detection.decoding.keypointCoordOffset")
        #expect(location { $0.keypointCoordOffset = .max } == "detection.decoding.keypointCoordOffset")
        #expect(location { $0.xScale = 0 } == "detection.decoding.xScale")
        #expect(location { $0.hScale = .nan } == "detection.decoding.hScale")
        #expect(location { $0.wScale = .infinity } == "detection.decoding.wScale")
        #expect(location { $0.scoreClippingThreshold = -1 } == "detection.decoding.scoreClippingThreshold")
        #expect(location { $0.minScoreThreshold = .nan } == "detection.decoding.minScoreThreshold")
        #expect(location { $0.allowedClasses = [1]; $0.ignoredClasses = [2] } == "detection.decoding.allowedClasses")
        #expect(location { $0.maxResults = 0 } == "detection.decoding.maxResults")
    }
}
