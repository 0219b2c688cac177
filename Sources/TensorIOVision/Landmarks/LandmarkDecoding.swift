import Foundation

/// How a landmark model's point output is read: MediaPipe's `TensorsToLandmarksCalculator`, the heatmap
/// refinement where the model has one (`RefineLandmarksFromHeatmapCalculator`), then the letterbox its crop
/// may have (`LandmarkLetterboxRemovalCalculator`), then the region back onto the photo
/// (`LandmarkProjectionCalculator`) — in that order, as MediaPipe's graphs chain them.
struct LandmarkDecoding: Sendable, Hashable {
    /// How many points the output holds.
    var pointCount: Int
    /// How many numbers a point has: 2 (x, y), 3 (and z), 4 (and visibility) or 5 (and presence).
    var valuesPerPoint: Int
    /// The model's input width, in whose pixels x and z are given.
    var inputWidth: Int
    /// The model's input height, in whose pixels y is given.
    var inputHeight: Int
    /// z is divided by this as well as by the input width ("to account for the Z coordinate distribution
    /// in the training data", MediaPipe's hand graph: 0.4).
    var normalizeZ: Double = 1
    var visibilityActivation: LandmarkScoreActivation = .none
    var presenceActivation: LandmarkScoreActivation = .none

    /// A point across the crop: x and y from 0 to 1 over the model's input, z on x's scale.
    struct CropPoint {
        var x: Double
        var y: Double
        var z: Double
    }

    /// The points in pixels of the photo.
    ///
    /// - Parameters:
    ///   - values: The output's numbers, at least `pointCount × valuesPerPoint` (checked by the caller
    ///     against the output's real size).
    ///   - heatmap: The heatmap the points are refined from, and its numbers (checked by the caller: at
    ///     least `height × width × pointCount`), where the model has one.
    ///   - letterbox: The fractions of the crop's width and height that are padding on each side
    ///     (left, top, right, bottom), from fitting the region into the model's input.
    ///   - region: Where the crop is on the photo.
    ///   - photo: The photo's size: the points are computed as MediaPipe's calculators compute them, in
    ///     `Float` on the region normalized by that size (``RegionOfInterest/normalized(imageWidth:imageHeight:)``),
    ///     to the last bit — a tracker feeds each frame's points into the next frame's region, where a last-bit
    ///     difference becomes, some frames later, a different crop.
    /// - Returns: One landmark per point.
    func landmarks(
        _ values: [Float], heatmap: (description: LandmarksDescription.Heatmap, values: [Float])? = nil,
        letterbox: (left: Double, top: Double, right: Double, bottom: Double) = (0, 0, 0, 0),
        region: RegionOfInterest, photo: (width: Int, height: Int)
    ) -> [Landmark] {
        precondition(values.count >= pointCount * valuesPerPoint, "\(values.count) values for \(pointCount) points")
        var points = (0..<pointCount).map { index in
            let base = index * valuesPerPoint
            // TensorsToLandmarksCalculator: a Float divided by the input's size (and normalize_z, a float).
            return CropPoint(
                x: Double(values[base] / Float(inputWidth)), y: Double(values[base + 1] / Float(inputHeight)),
                z: valuesPerPoint > 2 ? Double(values[base + 2] / Float(inputWidth) / Float(normalizeZ)) : 0)
        }
        if let heatmap { Self.refine(&points, from: heatmap.values, heatmap.description) }
        return Self.project(points, values: values, valuesPerPoint: valuesPerPoint, letterbox: letterbox,
                            rect: region.normalized(imageWidth: photo.width, imageHeight: photo.height),
                            visibility: visibilityActivation, presence: presenceActivation)
    }

    /// `LandmarkLetterboxRemovalCalculator` then `LandmarkProjectionCalculator` (MediaPipe 0.10.21: the
    /// region's normalized rectangle, no projection matrix), in their `Float` arithmetic; the normalized
    /// results times the photo's size are the pixels.
    private static func project(
        _ points: [CropPoint], values: [Float], valuesPerPoint: Int, letterbox: (left: Double, top: Double, right: Double, bottom: Double),
        rect: RegionOfInterest.Normalized, visibility: LandmarkScoreActivation, presence: LandmarkScoreActivation
    ) -> [Landmark] {
        let left = Float(letterbox.left), top = Float(letterbox.top)
        let leftAndRight = left + Float(letterbox.right), topAndBottom = top + Float(letterbox.bottom)
        let cosine = cos(rect.rotation), sine = sin(rect.rotation)
        let imageWidth = Double(rect.imageWidth), imageHeight = Double(rect.imageHeight)
        return points.enumerated().map { index, point in
            let base = index * valuesPerPoint
            let x = (Float(point.x) - left) / (1 - leftAndRight) - 0.5
            let y = (Float(point.y) - top) / (1 - topAndBottom) - 0.5
            let z = Float(point.z) / (1 - leftAndRight)
            let turnedX = cosine * x - sine * y, turnedY = sine * x + cosine * y
            let photoX = turnedX * rect.width + rect.x, photoY = turnedY * rect.height + rect.y
            return Landmark(
                x: Double(photoX) * imageWidth, y: Double(photoY) * imageHeight, z: Double(z * rect.width) * imageWidth,
                visibility: valuesPerPoint > 3 ? visibility(values[base + 3]) : nil,
                presence: valuesPerPoint > 4 ? presence(values[base + 4]) : nil)
        }
    }

    /// Moves each point to the confidence-weighted centre of its map's window around it, when the window's
    /// highest confidence reaches the minimum — MediaPipe's `RefineLandmarksFromHeatMap`, in its Float
    /// arithmetic (the map's numbers pass through a sigmoid; a window is cut short at the map's edges).
    static func refine(_ points: inout [CropPoint], from map: [Float], _ heatmap: LandmarksDescription.Heatmap) {
        let height = heatmap.height, width = heatmap.width, channels = points.count
        precondition(map.count >= height * width * channels, "\(map.count) heatmap values for \(height)×\(width)×\(channels)")
        let offset = (heatmap.kernel - 1) / 2
        let minimum = Float(heatmap.minimumConfidence)
        for index in points.indices {
            // C++ truncates toward zero when it stores a float in an int. MediaPipe skips a point whose column
            // is off the map, or whose row is above it; a row below it only empties or shortens the window.
            let columnValue = Float(points[index].x) * Float(width), rowValue = Float(points[index].y) * Float(height)
            guard columnValue.isFinite, rowValue.isFinite, columnValue > -1, rowValue > -1,
                  columnValue < Float(min(width, height)), rowValue < Float(height + offset + 1)
            else { continue }
            let column = Int(columnValue), row = Int(rowValue)
            let rows = max(0, row - offset)..<max(max(0, row - offset), min(height, row + offset + 1))
            let columns = max(0, column - offset)..<min(width, column + offset + 1)
            var sum: Float = 0, weightedColumn: Float = 0, weightedRow: Float = 0, highest: Float = 0
            for y in rows {
                for x in columns {
                    // Sigmoid: 1.0f / (1.0f + std::exp(-value)), the float exp (expf), not a rounded double one.
                    let confidence = 1 / (1 + exp(-map[(y * width + x) * channels + index]))
                    sum += confidence
                    highest = max(highest, confidence)
                    weightedColumn += Float(x) * confidence
                    weightedRow += Float(y) * confidence
                }
            }
            if highest >= minimum, sum > 0 {
                points[index].x = Double(weightedColumn / Float(width) / sum)
                points[index].y = Double(weightedRow / Float(height) / sum)
            }
        }
    }
}

extension LandmarkScoreActivation {
    /// The probability a model's number stands for.
    func callAsFunction(_ value: Float) -> Double {
        switch self {
        case .none: return Double(value)
        case .sigmoid: return 1 / (1 + exp(-Double(value)))
        }
    }
}

/// One point a landmark model found, in pixels of the photo as displayed.
public struct Landmark: Sendable, Hashable {
    /// The horizontal position.
    public var x: Double
    /// The vertical position.
    public var y: Double
    /// The depth, on the same scale as `x` (smaller: nearer the camera), relative to the instance's own
    /// reference point (a hand's wrist, a body's hips).
    public var z: Double
    /// How likely the point is visible (not hidden), where the model says.
    public var visibility: Double?
    /// How likely the point is in the photo at all, where the model says.
    public var presence: Double?
}
