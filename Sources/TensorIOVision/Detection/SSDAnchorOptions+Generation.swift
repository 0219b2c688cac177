import Foundation
import TensorIO

extension SSDAnchorOptions {
    /// The anchors, in MediaPipe's order and with its single-precision arithmetic.
    ///
    /// - Parameters:
    ///   - limit: The most anchors accepted; more is refused before anything is allocated.
    ///   - location: The JSON path of these options, such as `detection.anchors`; errors name a field
    ///     under it (`detection.anchors.strides[2]`).
    /// - Throws: `TensorIOError` `TensorIOError/Code/invalidBundle` for a field that cannot be used,
    ///   `TensorIOError/Code/limitExceeded` when the anchor count overflows or passes `limit`.
    func anchors(limit: Int, location: String) throws -> [Anchor] {
        let count = try anchorCount(location: location)
        guard count <= limit else {
            throw TensorIOError.detectionLimitExceeded("these options give \(count) anchors, more than the limit of \(limit)", at: location)
        }
        // Past this point every per-cell list is no longer than `count`, which the limit bounds.
        guard count > 0 else { return [] }
        var anchors: [Anchor] = []
        anchors.reserveCapacity(count)
        if let multiscale {
            appendMultiscaleAnchors(multiscale, to: &anchors)
        } else {
            appendSingleScaleAnchors(to: &anchors)
        }
        return anchors
    }

    /// Checks every field and returns how many anchors the options give.
    ///
    /// - Throws: As `anchors(limit:location:)`, except for the limit.
    func anchorCount(location: String) throws -> Int {
        try validate(location: location)
        let overflow = TensorIOError.detectionLimitExceeded("the anchor count overflows", at: location)
        var total = 0
        if let multiscale {
            for layer in 0..<layerCount {
                let (height, width) = featureMapSize(layer: layer)
                guard let cells = Self.multiplying(height, width),
                      let perCell = Self.multiplying(aspectRatios.count, multiscale.scalesPerOctave),
                      let layerTotal = Self.multiplying(cells, perCell),
                      let sum = Self.adding(total, layerTotal) else { throw overflow }
                total = sum
            }
            return total
        }
        var layer = 0
        while layer < numLayers {
            let group = singleScaleGroup(startingAt: layer)
            let (height, width) = featureMapSize(layer: layer)
            guard let perCell = group.anchorsPerCell,
                  let cells = Self.multiplying(height, width),
                  let groupTotal = Self.multiplying(cells, perCell),
                  let sum = Self.adding(total, groupTotal) else { throw overflow }
            total = sum
            layer = group.nextLayer
        }
        return total
    }

    // MARK: - Validation

    private func validate(location: String) throws {
        func fail(_ field: String, _ message: String) -> TensorIOError {
            .invalidDetectionOption(message, at: "\(location).\(field)")
        }
        let dimensions = 1...Self.largestDimension
        guard dimensions.contains(inputSizeWidth) else { throw fail("inputSizeWidth", "must be 1…\(Self.largestDimension), not \(inputSizeWidth)") }
        guard dimensions.contains(inputSizeHeight) else { throw fail("inputSizeHeight", "must be 1…\(Self.largestDimension), not \(inputSizeHeight)") }
        for (field, value) in [("minScale", minScale), ("maxScale", maxScale)] where !(value.isFinite && value >= 0) {
            throw fail(field, "must be a finite number ≥ 0, not \(value)")
        }
        for (field, value) in [("anchorOffsetX", anchorOffsetX), ("anchorOffsetY", anchorOffsetY), ("interpolatedScaleAspectRatio", interpolatedScaleAspectRatio)]
        where !value.isFinite {
            throw fail(field, "must be a finite number, not \(value)")
        }
        for (index, ratio) in aspectRatios.enumerated() where !(ratio.isFinite && ratio > 0) {
            throw fail("aspectRatios[\(index)]", "must be a finite number > 0, not \(ratio)")
        }
        for (index, stride) in strides.enumerated() where !dimensions.contains(stride) {
            throw fail("strides[\(index)]", "must be 1…\(Self.largestDimension), not \(stride)")
        }
        for (field, sizes) in [("featureMapHeights", featureMapHeights), ("featureMapWidths", featureMapWidths)] {
            for (index, size) in sizes.enumerated() where !dimensions.contains(size) {
                throw fail("\(field)[\(index)]", "must be 1…\(Self.largestDimension), not \(size)")
            }
        }

        let layersField: String
        if let multiscale {
            try validate(multiscale, location: "\(location).multiscale")
            layersField = "multiscale.maxLevel − multiscale.minLevel + 1"
        } else {
            guard numLayers >= 1 else { throw fail("numLayers", "must be at least 1, not \(numLayers)") }
            layersField = "numLayers"
        }
        let layers = layerCount
        if !featureMapHeights.isEmpty || !featureMapWidths.isEmpty {
            guard featureMapHeights.count == layers else {
                throw fail("featureMapHeights", "has \(featureMapHeights.count) sizes, but \(layersField) is \(layers)")
            }
            guard featureMapWidths.count == layers else {
                throw fail("featureMapWidths", "has \(featureMapWidths.count) sizes, but \(layersField) is \(layers)")
            }
        }
        // The single-scale path groups layers by stride, so it needs them even with feature-map sizes.
        if multiscale == nil || featureMapHeights.isEmpty, strides.count != layers {
            throw fail("strides", "has \(strides.count) strides, but \(layersField) is \(layers)")
        }
    }

    private func validate(_ multiscale: Multiscale, location: String) throws {
        let levels = 0...Multiscale.highestLevel
        guard levels.contains(multiscale.minLevel) else {
            throw TensorIOError.invalidDetectionOption("must be 0…\(Multiscale.highestLevel), not \(multiscale.minLevel)", at: "\(location).minLevel")
        }
        guard levels.contains(multiscale.maxLevel), multiscale.maxLevel >= multiscale.minLevel else {
            throw TensorIOError.invalidDetectionOption(
                "must be \(multiscale.minLevel)…\(Multiscale.highestLevel) (minLevel…\(Multiscale.highestLevel)), not \(multiscale.maxLevel)",
                at: "\(location).maxLevel"
            )
        }
        guard multiscale.anchorScale.isFinite, multiscale.anchorScale > 0 else {
            throw TensorIOError.invalidDetectionOption("must be a finite number > 0, not \(multiscale.anchorScale)", at: "\(location).anchorScale")
        }
        guard multiscale.scalesPerOctave >= 1 else {
            throw TensorIOError.invalidDetectionOption("must be at least 1, not \(multiscale.scalesPerOctave)", at: "\(location).scalesPerOctave")
        }
    }

    // MARK: - Single-scale (SSD) anchors

    /// `SsdAnchorsCalculator::GenerateAnchors`: per group of equal strides, per cell row by row, the
    /// group's anchors in layer order.
    private func appendSingleScaleAnchors(to anchors: inout [Anchor]) {
        var layer = 0
        while layer < numLayers {
            var ratios: [Float] = []
            var scales: [Float] = []
            let nextLayer = singleScaleGroup(startingAt: layer).nextLayer
            for member in layer..<nextLayer {
                let scale = Self.scale(min: minScale, max: maxScale, index: member, count: strides.count)
                if member == 0, reduceBoxesInLowestLayer {
                    ratios += [1, 2, 0.5]
                    scales += [0.1, scale, scale]
                    continue
                }
                for ratio in aspectRatios {
                    ratios.append(ratio)
                    scales.append(scale)
                }
                if interpolatedScaleAspectRatio > 0 {
                    let nextScale: Float = member == strides.count - 1
                        ? 1 : Self.scale(min: minScale, max: maxScale, index: member + 1, count: strides.count)
                    scales.append((scale * nextScale).squareRoot())
                    ratios.append(interpolatedScaleAspectRatio)
                }
            }
            let sizes = zip(scales, ratios).map { scale, ratio in
                let ratioRoot = ratio.squareRoot()
                return (width: scale * ratioRoot, height: scale / ratioRoot)
            }
            let (height, width) = featureMapSize(layer: layer)
            for y in 0..<height {
                for x in 0..<width {
                    let xCenter = (Float(x) + anchorOffsetX) / Float(width)
                    let yCenter = (Float(y) + anchorOffsetY) / Float(height)
                    for size in sizes {
                        anchors.append(
                            fixedAnchorSize
                                ? Anchor(xCenter: xCenter, yCenter: yCenter, width: 1, height: 1)
                                : Anchor(xCenter: xCenter, yCenter: yCenter, width: size.width, height: size.height)
                        )
                    }
                }
            }
            layer = nextLayer
        }
    }

    /// MediaPipe's `CalculateScale`: linear from `min` to `max` over the strides, in double precision
    /// and then rounded to single, as the C++ expression promotes.
    static func scale(min: Float, max: Float, index: Int, count: Int) -> Float {
        if count == 1 { return (min + max) * 0.5 }
        return Float(Double(min) + Double(max - min) * Double(index) / Double(Float(count) - 1))
    }

    // MARK: - Multiscale anchors

    /// `SsdAnchorsCalculator::GenerateMultiScaleAnchors`: per level, per cell row by row, per aspect
    /// ratio, per octave scale.
    private func appendMultiscaleAnchors(_ multiscale: Multiscale, to anchors: inout [Anchor]) {
        let octaveScales = (0..<multiscale.scalesPerOctave).map {
            Float(pow(2.0, Double($0) / Double(multiscale.scalesPerOctave)))
        }
        for (layer, level) in (multiscale.minLevel...multiscale.maxLevel).enumerated() {
            let stride = Float(pow(2.0, Double(level)))
            let baseSize = stride * multiscale.anchorScale
            // Centres sit half a stride in only along a side the level's stride divides (TensorFlow's
            // multiscale_grid_anchor_generator): `2^level` as an `int`, as MediaPipe computes it.
            let denominator = 1 << level
            let yOffset: Float = inputSizeHeight % denominator == 0 || inputSizeHeight == 1 ? Float(Double(stride) / 2) : 0
            let xOffset: Float = inputSizeWidth % denominator == 0 || inputSizeWidth == 1 ? Float(Double(stride) / 2) : 0
            let (height, width) = featureMapSize(layer: layer)
            for y in 0..<height {
                for x in 0..<width {
                    for ratio in aspectRatios {
                        let ratioRoot = ratio.squareRoot()
                        for scale in octaveScales {
                            var anchor = Anchor(
                                xCenter: Float(x) * stride + xOffset, yCenter: Float(y) * stride + yOffset,
                                width: scale * ratioRoot * baseSize, height: scale * baseSize / ratioRoot
                            )
                            if multiscale.normalizeCoordinates {
                                anchor.height /= Float(inputSizeHeight)
                                anchor.width /= Float(inputSizeWidth)
                                anchor.yCenter /= Float(inputSizeHeight)
                                anchor.xCenter /= Float(inputSizeWidth)
                            }
                            anchors.append(anchor)
                        }
                    }
                }
            }
        }
    }
}
