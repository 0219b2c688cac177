import Testing
@testable import TensorIO
@testable import TensorIOVision

/// SSD anchors as MediaPipe's `SsdAnchorsCalculator` generates them, checked on the configurations of its
/// own graphs (`mediapipe/modules/*`) and on values worked out by hand from the C++.
@Suite("Detection: SSD anchors")
struct DetectionAnchorTests {
    static let location = "detection.anchors"

    /// The fixed-size configurations of MediaPipe's BlazeFace, palm and pose graphs: min scale
    /// 0.1484375, max 0.75, offsets 0.5, aspect ratio 1, fixed anchor size.
    static func fixedSize(input: Int, strides: [Int], interpolatedScaleAspectRatio: Float = 1.0) -> SSDAnchorOptions {
        var options = SSDAnchorOptions(inputSizeWidth: input, inputSizeHeight: input)
        options.numLayers = strides.count
        options.minScale = 0.1484375
        options.maxScale = 0.75
        options.strides = strides
        options.aspectRatios = [1.0]
        options.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        options.fixedAnchorSize = true
        return options
    }

    /// The calculator's own example: SSD MobileNet on 300 × 300 with six layers.
    static var ssd300: SSDAnchorOptions {
        var options = SSDAnchorOptions(inputSizeWidth: 300, inputSizeHeight: 300)
        options.numLayers = 6
        options.minScale = 0.2
        options.maxScale = 0.95
        options.strides = [16, 32, 64, 128, 256, 512]
        options.aspectRatios = [1.0, 2.0, 0.5, 3.0, 0.3333]
        options.reduceBoxesInLowestLayer = true
        return options
    }

    @Test("the defaults are the proto's")
    func protoDefaults() {
        let options = SSDAnchorOptions(inputSizeWidth: 1, inputSizeHeight: 1)
        #expect(options.anchorOffsetX == 0.5 && options.anchorOffsetY == 0.5)
        #expect(options.minScale == 0 && options.maxScale == 0 && options.numLayers == 0)
        #expect(options.interpolatedScaleAspectRatio == 1.0)
        #expect(!options.reduceBoxesInLowestLayer && !options.fixedAnchorSize && options.multiscale == nil)
        #expect(options.strides.isEmpty && options.aspectRatios.isEmpty && options.featureMapWidths.isEmpty)
        let multiscale = SSDAnchorOptions.Multiscale()
        #expect(multiscale.minLevel == 3 && multiscale.maxLevel == 7 && multiscale.anchorScale == 4 && multiscale.scalesPerOctave == 2)
        #expect(multiscale.normalizeCoordinates)
    }

    @Test("BlazeFace short range: 896 anchors, two per 8-pixel cell, then six per shared 16-pixel cell")
    func blazeFaceShortRange() throws {
        let anchors = try Self.fixedSize(input: 128, strides: [8, 16, 16, 16]).anchors(limit: 10_000, location: Self.location)
        #expect(anchors.count == 896)
        #expect(anchor(anchors[0], is: 0.03125, 0.03125, size: 1, 1))
        #expect(anchors[1] == anchors[0])  // the interpolated anchor shares the cell
        #expect(anchor(anchors[2], is: 0.09375, 0.03125, size: 1, 1))
        #expect(anchor(anchors[511], is: 0.96875, 0.96875, size: 1, 1))
        // The three stride-16 layers share one 8 × 8 grid: six anchors per cell, then the next cell.
        #expect(anchor(anchors[512], is: 0.0625, 0.0625, size: 1, 1))
        #expect(anchors[517] == anchors[512])
        #expect(anchor(anchors[518], is: 0.1875, 0.0625, size: 1, 1))
        #expect(anchor(anchors[895], is: 0.9375, 0.9375, size: 1, 1))
    }

    @Test("BlazeFace full range: one 48 × 48 layer without the interpolated anchor, 2304 anchors")
    func blazeFaceFullRange() throws {
        let options = Self.fixedSize(input: 192, strides: [4], interpolatedScaleAspectRatio: 0)
        let anchors = try options.anchors(limit: 10_000, location: Self.location)
        #expect(anchors.count == 2304)
        #expect(anchor(anchors[0], is: 0.010416667, 0.010416667, size: 1, 1))
        #expect(anchor(anchors[1], is: 0.03125, 0.010416667, size: 1, 1))
        #expect(anchor(anchors[48], is: 0.010416667, 0.03125, size: 1, 1))
        #expect(anchor(anchors[2303], is: 0.98958333, 0.98958333, size: 1, 1))
    }

    @Test("palm detection (192 × 192, strides 8, 16, 16, 16): 2016 anchors")
    func palm() throws {
        let anchors = try Self.fixedSize(input: 192, strides: [8, 16, 16, 16]).anchors(limit: 10_000, location: Self.location)
        #expect(anchors.count == 2016)
        #expect(anchor(anchors[0], is: 0.020833334, 0.020833334, size: 1, 1))
        #expect(anchor(anchors[1152], is: 0.041666668, 0.041666668, size: 1, 1))
        #expect(anchor(anchors[2015], is: 0.9583333, 0.9583333, size: 1, 1))
    }

    @Test("pose detection (224 × 224, strides 8, 16, 32, 32, 32): 2254 anchors")
    func pose() throws {
        let anchors = try Self.fixedSize(input: 224, strides: [8, 16, 32, 32, 32]).anchors(limit: 10_000, location: Self.location)
        #expect(anchors.count == 2254)
        #expect(anchor(anchors[1568], is: 0.035714287, 0.035714287, size: 1, 1))
        #expect(anchor(anchors[1960], is: 0.071428575, 0.071428575, size: 1, 1))
        #expect(anchors[1965] == anchors[1960])
        #expect(anchor(anchors[2253], is: 0.9285714, 0.9285714, size: 1, 1))
    }

    @Test("SSD 300 × 300: reduced lowest layer, aspect ratios, interpolated scales, 1917 anchors")
    func ssd300() throws {
        let anchors = try Self.ssd300.anchors(limit: 10_000, location: Self.location)
        #expect(anchors.count == 1917)  // 19² × 3 + (10² + 5² + 3² + 2² + 1) × 6
        // Lowest layer: scale 0.1 at ratio 1, then scale 0.2 at ratios 2 and 0.5.
        #expect(anchor(anchors[0], is: 0.02631579, 0.02631579, size: 0.1, 0.1))
        #expect(anchor(anchors[1], is: 0.02631579, 0.02631579, size: 0.28284271, 0.14142136))
        #expect(anchor(anchors[2], is: 0.02631579, 0.02631579, size: 0.14142136, 0.28284271))
        #expect(anchor(anchors[3], is: 0.07894737, 0.02631579, size: 0.1, 0.1))
        // Second layer (10 × 10): scale 0.35, ratios 1, 2, 0.5, 3, 0.3333, then √(0.35 × 0.5) at ratio 1.
        #expect(anchor(anchors[1083], is: 0.05, 0.05, size: 0.35, 0.35))
        #expect(anchor(anchors[1086], is: 0.05, 0.05, size: 0.60621778, 0.20207259))
        #expect(anchor(anchors[1088], is: 0.05, 0.05, size: 0.41833001, 0.41833001))
        // Last layer (1 × 1): scale 0.95, the interpolated anchor uses 1 as the next scale.
        #expect(anchor(anchors[1911], is: 0.5, 0.5, size: 0.95, 0.95))
        #expect(anchor(anchors[1916], is: 0.5, 0.5, size: 0.97467943, 0.97467943))
    }

    @Test("given feature-map sizes replace input size over stride")
    func featureMapSizes() throws {
        var options = Self.fixedSize(input: 128, strides: [8, 16])
        options.featureMapHeights = [2, 1]
        options.featureMapWidths = [3, 1]
        let anchors = try options.anchors(limit: 100, location: Self.location)
        #expect(anchors.count == (2 * 3 + 1) * 2)
        #expect(anchor(anchors[2], is: 0.5, 0.25, size: 1, 1))  // x = 1.5 / 3, y = 0.5 / 2
    }

    @Test("multiscale: levels, octave scales, aspect ratios and the half-stride offset only where the stride divides")
    func multiscale() throws {
        var options = SSDAnchorOptions(inputSizeWidth: 60, inputSizeHeight: 64)
        options.strides = [8, 16]
        options.aspectRatios = [1, 4]
        options.multiscale = SSDAnchorOptions.Multiscale(minLevel: 3, maxLevel: 4)
        let anchors = try options.anchors(limit: 1000, location: Self.location)
        #expect(anchors.count == 8 * 8 * 2 * 2 + 4 * 4 * 2 * 2)
        // Level 3: stride 8, base size 32; 64 is a multiple of 8 (y offset 4), 60 is not (x offset 0).
        #expect(anchor(anchors[0], is: 0, 0.0625, size: 32.0 / 60, 0.5))
        #expect(anchor(anchors[1], is: 0, 0.0625, size: 0.75424723, 0.70710678))  // scale √2
        #expect(anchor(anchors[2], is: 0, 0.0625, size: 64.0 / 60, 0.25))  // ratio 4: twice as wide, half as tall
        #expect(anchor(anchors[4], is: 8.0 / 60, 0.0625, size: 32.0 / 60, 0.5))
        // Level 4: stride 16, base size 64.
        #expect(anchor(anchors[256], is: 0, 0.125, size: 64.0 / 60, 1))

        options.multiscale?.normalizeCoordinates = false
        let pixels = try options.anchors(limit: 1000, location: Self.location)
        #expect(anchor(pixels[0], is: 0, 4, size: 32, 32))
        #expect(anchor(pixels[4], is: 8, 4, size: 32, 32))
    }

    // MARK: - Hostile options

    @Test("every unusable field is refused with its JSON path under the caller's prefix")
    func invalidFields() {
        func location(_ change: (inout SSDAnchorOptions) -> Void) -> String? {
            var options = Self.fixedSize(input: 128, strides: [8, 16, 16, 16])
            change(&options)
            guard let error = detectionError({ _ = try options.anchors(limit: 10_000, location: "model.detection.anchors") }) else { return nil }
            #expect(error.code == .invalidBundle)
            #expect(error.issues.first?.path == error.location)
            return error.location
        }
        #expect(location { $0.strides = [8, 16, 16] } == "model.detection.anchors.strides")
        #expect(location { $0.strides[1] = 0 } == "model.detection.anchors.strides[1]")
        #expect(location { $0.strides[2] = -16 } == "model.detection.anchors.strides[2]")
        #expect(location { $0.numLayers = 0; $0.strides = [] } == "model.detection.anchors.numLayers")
        #expect(location { $0.inputSizeWidth = 0 } == "model.detection.anchors.inputSizeWidth")
        #expect(location { $0.inputSizeHeight = Int(Int32.max) + 1 } == "model.detection.anchors.inputSizeHeight")
        #expect(location { $0.minScale = .nan } == "model.detection.anchors.minScale")
        #expect(location { $0.maxScale = .infinity } == "model.detection.anchors.maxScale")
        #expect(location { $0.anchorOffsetY = -.infinity } == "model.detection.anchors.anchorOffsetY")
        #expect(location { $0.aspectRatios = [1, -2] } == "model.detection.anchors.aspectRatios[1]")
        #expect(location { $0.aspectRatios = [0] } == "model.detection.anchors.aspectRatios[0]")
        #expect(location { $0.featureMapHeights = [16, 8, 8, 8] } == "model.detection.anchors.featureMapWidths")
        #expect(location { $0.featureMapHeights = [16, 8]; $0.featureMapWidths = [16, 8] } == "model.detection.anchors.featureMapHeights")
        #expect(location { $0.featureMapHeights = [16, 8, 8, 0]; $0.featureMapWidths = [16, 8, 8, 8] } == "model.detection.anchors.featureMapHeights[3]")
        // MediaPipe's layer loop never advances when feature-map sizes come without strides.
        #expect(location { $0.strides = []; $0.featureMapHeights = [16, 8, 8, 8]; $0.featureMapWidths = [16, 8, 8, 8] } == "model.detection.anchors.strides")
        #expect(location { $0.multiscale = .init(minLevel: 5, maxLevel: 4) } == "model.detection.anchors.multiscale.maxLevel")
        #expect(location { $0.multiscale = .init(minLevel: -1, maxLevel: 2) } == "model.detection.anchors.multiscale.minLevel")
        #expect(location { $0.multiscale = .init(minLevel: 3, maxLevel: 31) } == "model.detection.anchors.multiscale.maxLevel")
        #expect(location { $0.multiscale = .init(minLevel: 3, maxLevel: 6, scalesPerOctave: 0) } == "model.detection.anchors.multiscale.scalesPerOctave")
        #expect(location { $0.multiscale = .init(minLevel: 3, maxLevel: 6, anchorScale: .nan) } == "model.detection.anchors.multiscale.anchorScale")
        #expect(location { $0.multiscale = .init(minLevel: 3, maxLevel: 5) } == "model.detection.anchors.strides")  // 3 levels, 4 strides
        #expect(location { _ in } == nil)
    }

    @Test("an anchor count over the limit or past Int is refused before anything is allocated")
    func countLimit() throws {
        let options = Self.fixedSize(input: 128, strides: [8, 16, 16, 16])
        #expect(try options.anchors(limit: 896, location: Self.location).count == 896)
        let overLimit = detectionError { _ = try options.anchors(limit: 895, location: Self.location) }
        #expect(overLimit?.code == .limitExceeded)
        #expect(overLimit?.location == Self.location)
        #expect(overLimit?.message.contains("896") == true)

        // 2³¹ × 2³¹ cells × 2 anchors = 2⁶³: one past Int.max.
        var huge = Self.fixedSize(input: Int(Int32.max), strides: [1])
        let overflow = detectionError { _ = try huge.anchors(limit: .max, location: Self.location) }
        #expect(overflow?.code == .limitExceeded)
        huge.interpolatedScaleAspectRatio = 0
        #expect(try huge.anchorCount(location: Self.location) == 1 << 62)
        #expect(detectionError { _ = try huge.anchors(limit: 1_000_000, location: Self.location) }?.code == .limitExceeded)

        // A huge scale count times no aspect ratio is no anchor, and allocates nothing per cell.
        var multiscale = SSDAnchorOptions(inputSizeWidth: 64, inputSizeHeight: 64)
        multiscale.strides = [8]
        multiscale.multiscale = .init(minLevel: 3, maxLevel: 3, scalesPerOctave: .max)
        #expect(try multiscale.anchors(limit: 10, location: Self.location).isEmpty)
        multiscale.aspectRatios = [1]
        #expect(detectionError { _ = try multiscale.anchors(limit: .max, location: Self.location) }?.code == .limitExceeded)
    }
}
