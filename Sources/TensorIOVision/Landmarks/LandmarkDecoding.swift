import Foundation

/// How a landmark model's point output is read: MediaPipe's `TensorsToLandmarksCalculator`, then the
/// letterbox its crop may have (`LandmarkLetterboxRemovalCalculator`), then the region back onto the photo
/// (`LandmarkProjectionCalculator`).
struct LandmarkDecoding: Sendable, Hashable {
    /// How a score the model gives (visibility, presence) becomes a probability.
    enum Activation: String, Sendable, Hashable, CaseIterable {
        /// Taken as it is.
        case none
        /// `1 / (1 + e^-x)`.
        case sigmoid

        func callAsFunction(_ value: Float) -> Double {
            switch self {
            case .none: return Double(value)
            case .sigmoid: return 1 / (1 + exp(-Double(value)))
            }
        }
    }

    /// How many points the output holds.
    var pointCount: Int
    /// How many numbers a point has: 2 (x, y), 3 (and z), 4 (and visibility) or 5 (and presence).
    var valuesPerPoint: Int
    /// The model's input width and height, in which x, y and z are given.
    var inputWidth: Int
    var inputHeight: Int
    /// z is divided by this as well as by the input width ("to account for the Z coordinate distribution
    /// in the training data", MediaPipe's hand graph: 0.4).
    var normalizeZ: Double = 1
    var visibilityActivation: Activation = .none
    var presenceActivation: Activation = .none

    /// The points in pixels of the photo.
    ///
    /// - Parameters:
    ///   - values: The output's numbers, at least `pointCount × valuesPerPoint` (checked by the caller
    ///     against the model's output shape when the bundle is read).
    ///   - letterbox: The fractions of the crop's width and height that are padding on each side
    ///     (left, top, right, bottom), from fitting the region into the model's input.
    ///   - region: Where the crop is on the photo.
    /// - Returns: One landmark per point.
    func landmarks(
        _ values: [Float], letterbox: (left: Double, top: Double, right: Double, bottom: Double) = (0, 0, 0, 0),
        region: RegionOfInterest
    ) -> [Landmark] {
        precondition(values.count >= pointCount * valuesPerPoint, "\(values.count) values for \(pointCount) points")
        let keptWidth = 1 - letterbox.left - letterbox.right, keptHeight = 1 - letterbox.top - letterbox.bottom
        return (0..<pointCount).map { index in
            let base = index * valuesPerPoint
            // TensorsToLandmarks: normalized by the input; LetterboxRemoval: by the part that is photo.
            let x = (Double(values[base]) / Double(inputWidth) - letterbox.left) / keptWidth
            let y = (Double(values[base + 1]) / Double(inputHeight) - letterbox.top) / keptHeight
            let z = valuesPerPoint > 2 ? Double(values[base + 2]) / Double(inputWidth) / normalizeZ / keptWidth : 0
            let point = region.photoPoint(x: x, y: y)
            return Landmark(
                x: point.x, y: point.y,
                // LandmarkProjection scales z by the region's width: on the photo, z is on x's scale.
                z: z * region.width,
                visibility: valuesPerPoint > 3 ? visibilityActivation(values[base + 3]) : nil,
                presence: valuesPerPoint > 4 ? presenceActivation(values[base + 4]) : nil)
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
