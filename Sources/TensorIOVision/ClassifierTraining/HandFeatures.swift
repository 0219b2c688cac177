/// A hand's features for a classification head: its 21 world landmarks as MediaPipe's gesture recognizer
/// prepares them for its classifiers (LandmarksToMatrixCalculator with object normalization, origin the
/// wrist): each point minus the wrist, all divided by the larger of the points' x and y extents (plus
/// 10⁻⁵), in single precision, point by point (x, y, z).
///
/// The photo is upright when the landmarker reads it, so MediaPipe's rotation by the image's region (zero
/// for a whole photo) changes nothing.
enum HandFeatures {
    /// The values: 21 points × 3.
    static let count = 63

    /// The features of `landmarks`, or `nil` when the landmarker gives no world landmarks or not 21.
    static func features(of landmarks: Landmarks) -> [Float]? {
        guard let points = landmarks.worldLandmarks, points.count * 3 == count else { return nil }
        let wrist = (x: Float(points[0].x), y: Float(points[0].y), z: Float(points[0].z))
        var values = [Float]()
        values.reserveCapacity(count)
        var (minimumX, maximumX, minimumY, maximumY) = (Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude,
                                                        Float.greatestFiniteMagnitude, -Float.greatestFiniteMagnitude)
        for point in points {
            let x = Float(point.x) - wrist.x, y = Float(point.y) - wrist.y
            values += [x, y, Float(point.z) - wrist.z]
            (minimumX, maximumX) = (min(minimumX, x), max(maximumX, x))
            (minimumY, maximumY) = (min(minimumY, y), max(maximumY, y))
        }
        let scale = max(maximumX - minimumX, maximumY - minimumY) + 1e-5
        let features = values.map { $0 / scale }
        return features.allSatisfy(\.isFinite) ? features : nil
    }
}
