import TensorIO

/// How to generate the anchors of an SSD detection model: MediaPipe's `SsdAnchorsCalculatorOptions`
/// (`mediapipe/calculators/tflite/ssd_anchors_calculator.proto`), with the proto's defaults.
///
/// The options come from a `model.json` and so are not trusted: `anchorCount(location:)` checks every
/// field and works out the number of anchors with overflow-checked arithmetic before
/// `anchors(limit:location:)` allocates anything.
///
/// Refused here, where MediaPipe fails in worse ways: a stride count other than the layer count (a
/// failed `CHECK` aborts the process; with feature-map sizes given, the single-scale layer loop stops
/// advancing once the strides run out and spins forever, so strides are required there too), and
/// non-positive or non-finite sizes, strides, scales, ratios or levels (divisions and a modulo by zero,
/// NaN anchors).
struct SSDAnchorOptions: Sendable, Hashable {
    /// The model's input size in pixels (required; no proto default).
    var inputSizeWidth: Int
    var inputSizeHeight: Int
    /// The smallest and largest anchor scale, spread linearly over the layers (proto default 0).
    var minScale: Float = 0
    var maxScale: Float = 0
    /// Where in its feature-map cell an anchor's centre sits, in cells (proto default 0.5).
    var anchorOffsetX: Float = 0.5
    var anchorOffsetY: Float = 0.5
    /// How many feature maps carry anchors (proto default 0; required). Ignored by `multiscale`
    /// generation, which has `maxLevel − minLevel + 1` layers.
    var numLayers: Int = 0
    /// Feature-map sizes per layer; when empty, each is `ceil(inputSize / stride)`.
    var featureMapWidths: [Int] = []
    var featureMapHeights: [Int] = []
    /// One stride per layer. Consecutive layers with equal strides share one grid, their anchors
    /// interleaved per cell, as MediaPipe does.
    var strides: [Int] = []
    /// The aspect ratios (width / height) of the anchors in each cell.
    var aspectRatios: [Float] = []
    /// Whether the lowest layer has MediaPipe's fixed three anchors (scale 0.1 at ratio 1, then the
    /// layer's scale at ratios 2 and 0.5) instead of `aspectRatios` (proto default false).
    var reduceBoxesInLowestLayer = false
    /// The aspect ratio of one extra anchor per layer whose scale is the geometric mean of this layer's
    /// and the next one's (1 after the last); 0 or less leaves it out (proto default 1.0).
    var interpolatedScaleAspectRatio: Float = 1.0
    /// Whether every anchor is 1 × 1, for models that predict sizes directly (proto default false).
    var fixedAnchorSize = false
    /// Settings for multiscale (RetinaNet-style) generation; `nil` for the single-scale SSD path
    /// (the proto's `multiscale_anchor_generation`, default false).
    var multiscale: Multiscale?

    /// The multiscale fields of `SsdAnchorsCalculatorOptions`, with the proto's defaults.
    struct Multiscale: Sendable, Hashable {
        /// The lowest and highest pyramid level; level `l` has stride 2^l (defaults 3 and 7).
        var minLevel = 3
        var maxLevel = 7
        /// The anchor size in strides (default 4.0).
        var anchorScale: Float = 4.0
        /// How many scales between one octave and the next, 2^(i / scalesPerOctave) (default 2).
        var scalesPerOctave = 2
        /// Whether anchors are divided by the input size (default true); otherwise they are in pixels.
        var normalizeCoordinates = true

        init(minLevel: Int = 3, maxLevel: Int = 7, anchorScale: Float = 4.0, scalesPerOctave: Int = 2, normalizeCoordinates: Bool = true) {
            self.minLevel = minLevel
            self.maxLevel = maxLevel
            self.anchorScale = anchorScale
            self.scalesPerOctave = scalesPerOctave
            self.normalizeCoordinates = normalizeCoordinates
        }

        /// The highest level accepted: 2^30 is the largest power of two MediaPipe's `int` stride holds.
        static let highestLevel = 30
    }

    /// Creates options; the input size is required, every other field has the proto's default.
    init(inputSizeWidth: Int, inputSizeHeight: Int) {
        self.inputSizeWidth = inputSizeWidth
        self.inputSizeHeight = inputSizeHeight
    }

    /// The largest size, stride or feature-map side accepted: the proto's fields are `int32`.
    static let largestDimension = Int(Int32.max)

    /// The number of layers the generation walks: `numLayers`, or the levels of `multiscale`.
    var layerCount: Int {
        guard let multiscale else { return numLayers }
        return multiscale.maxLevel - multiscale.minLevel + 1
    }

    /// The feature-map size of a layer: the given one, or the input size over the stride, rounded up
    /// in single precision as MediaPipe does.
    func featureMapSize(layer: Int) -> (height: Int, width: Int) {
        if !featureMapHeights.isEmpty { return (featureMapHeights[layer], featureMapWidths[layer]) }
        let stride = Float(strides[layer])
        return (Int((Float(inputSizeHeight) / stride).rounded(.up)), Int((Float(inputSizeWidth) / stride).rounded(.up)))
    }

    /// How many anchors one cell of the single-scale layer `layer` holds when it heads a group of
    /// equal strides (`nil` if that count overflows), and the layer after that group.
    func singleScaleGroup(startingAt layer: Int) -> (anchorsPerCell: Int?, nextLayer: Int) {
        var anchorsPerCell: Int? = 0
        var last = layer
        while last < strides.count, strides[last] == strides[layer] {
            let layerAnchors = last == 0 && reduceBoxesInLowestLayer
                ? 3 : aspectRatios.count + (interpolatedScaleAspectRatio > 0 ? 1 : 0)
            anchorsPerCell = anchorsPerCell.flatMap { Self.adding($0, layerAnchors) }
            last += 1
        }
        return (anchorsPerCell, last)
    }

    static func adding(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    static func multiplying(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : product
    }
}
