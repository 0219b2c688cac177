@_spi(Internal) import TensorIO

/// Reads a landmarks entry's `tracking` (docs/model-json.md, "Landmarks"), every problem with its JSON path:
///
/// ```json
/// "tracking": {"points": [33, 34],
///              "region": {"from": "keypoints", "rotation": {"from_keypoint": 0, "to_keypoint": 1, "degrees": 90},
///                         "scale": [1.25, 1.25], "square": "long"},
///              "smoothing": {"min_cutoff": 0.01, "beta": 10, "derivative_cutoff": 1, "frequency": 30},
///              "output_smoothing": {"landmarks": {"min_cutoff": 0.05, "beta": 80, "derivative_cutoff": 1, "frequency": 30},
///                                   "world_landmarks": {"min_cutoff": 0.1, "beta": 40, "derivative_cutoff": 1, "frequency": 30},
///                                   "visibility": {"alpha": 0.1}}}
/// ```
extension ModelJSONReader {
    static let trackingKeys: Set<String> = ["points", "region", "smoothing", "output_smoothing"]
    static let trackingSmoothingKeys: Set<String> = ["min_cutoff", "beta", "derivative_cutoff", "frequency"]
    static let outputSmoothingKeys: Set<String> = ["landmarks", "world_landmarks", "visibility"]

    /// The tracking rule at `path` for a landmark model of `pointCount` points (when known); `nil` (with
    /// issues) when it is wrong.
    mutating func readTrackingRule(_ value: JSONValue, pointCount: Int?, at path: String) -> TrackingRule? {
        let issuesBefore = issues.count
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.trackingKeys, at: path)
        var points: [Int] = []
        if let value = object["points"] {
            let limit = pointCount ?? LandmarksDescription.maximumPoints
            var indices: [Int] = []
            if case .array(let items) = value, !items.isEmpty, items.count <= LandmarksDescription.maximumPoints {
                for case .number(let n) in items where n == n.rounded() && n >= 0 && n < Double(limit) { indices.append(Int(n)) }
                if indices.count == items.count { points = indices }
            }
            if points.isEmpty { issue("\(path).points", "expected a list of point indices below \(limit), got \(value.brief)") }
        }
        let region = readRegionRule(object["region"], at: "\(path).region")
        if let rotation = region?.rotation {
            let available = points.isEmpty ? pointCount : points.count
            if let available, let index = rotation.keypoints.first(where: { $0 >= available }) {
                issue("\(path).region.rotation", "keypoint \(index) is not among the \(available) tracking points")
            }
        }
        let smoothing = object["smoothing"].flatMap { readSmoothing($0, at: "\(path).smoothing") }
        let output = object["output_smoothing"].flatMap { readOutputSmoothing($0, at: "\(path).output_smoothing") }
        guard issues.count == issuesBefore, let region else { return nil }
        return TrackingRule(points: points, region: region, smoothing: smoothing, outputSmoothing: output)
    }

    /// A one-euro filter's settings at `path` (`smoothing`, and each filter of `output_smoothing`).
    mutating func readSmoothing(_ value: JSONValue, at path: String) -> TrackingRule.Smoothing? {
        guard let entry = object(value, at: path) else { return nil }
        checkKeys(entry, allowed: Self.trackingSmoothingKeys, at: path)
        var numbers: [String: Double] = [:]
        for (key, range) in [("min_cutoff", 0.0...1000), ("beta", 0.0...1000), ("derivative_cutoff", 0.0...1000),
                             ("frequency", 0.001...1000)] {
            guard entry[key] != nil else {
                issue("\(path).\(key)", "required")
                continue
            }
            numbers[key] = bounded(entry, key, range, at: path)
        }
        guard let cutoff = numbers["min_cutoff"], let beta = numbers["beta"], let derivative = numbers["derivative_cutoff"],
              let frequency = numbers["frequency"]
        else { return nil }
        return .init(minimumCutoff: cutoff, beta: beta, derivativeCutoff: derivative, frequency: frequency)
    }

    /// The output smoothing at `path`: at least one of its three members.
    mutating func readOutputSmoothing(_ value: JSONValue, at path: String) -> TrackingRule.OutputSmoothing? {
        let issuesBefore = issues.count
        guard let entry = object(value, at: path) else { return nil }
        checkKeys(entry, allowed: Self.outputSmoothingKeys, at: path)
        guard !entry.keys.filter(Self.outputSmoothingKeys.contains).isEmpty else {
            issue(path, "expected at least one of landmarks, world_landmarks, visibility")
            return nil
        }
        let landmarks = entry["landmarks"].flatMap { readSmoothing($0, at: "\(path).landmarks") }
        let world = entry["world_landmarks"].flatMap { readSmoothing($0, at: "\(path).world_landmarks") }
        var alpha: Double?
        if let value = entry["visibility"], let visibility = object(value, at: "\(path).visibility") {
            checkKeys(visibility, allowed: ["alpha"], at: "\(path).visibility")
            if visibility["alpha"] == nil { issue("\(path).visibility.alpha", "required") }
            alpha = bounded(visibility, "alpha", 0...1, at: "\(path).visibility")
        }
        guard issues.count == issuesBefore else { return nil }
        return .init(landmarks: landmarks, worldLandmarks: world, visibilityAlpha: alpha)
    }

    /// The number `key` of `object` when it lies in `range`; otherwise `nil`, with an issue at `path.key`.
    private mutating func bounded(_ object: [String: JSONValue], _ key: String, _ range: ClosedRange<Double>, at path: String) -> Double? {
        guard let number = number(object, key, at: path) else { return nil }
        guard range.contains(number) else {
            issue("\(path).\(key)", "\(JSONValue.number(number).brief) is outside \(JSONValue.number(range.lowerBound).brief) to \(JSONValue.number(range.upperBound).brief)")
            return nil
        }
        return number
    }
}

extension TrackingRule {
    /// The rule as `model.json` spells it, in the documented key order (what `tensorio init` writes).
    var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = []
        if !points.isEmpty { members.append(.init(key: "points", value: .array(points.map { .integer($0) }))) }
        members.append(.init(key: "region", value: region.modelJSON))
        if let smoothing { members.append(.init(key: "smoothing", value: smoothing.modelJSON)) }
        if let outputSmoothing {
            var output: [OrderedJSON.Member] = []
            if let landmarks = outputSmoothing.landmarks { output.append(.init(key: "landmarks", value: landmarks.modelJSON)) }
            if let world = outputSmoothing.worldLandmarks { output.append(.init(key: "world_landmarks", value: world.modelJSON)) }
            if let alpha = outputSmoothing.visibilityAlpha {
                output.append(.init(key: "visibility", value: .object([.init(key: "alpha", value: .number(alpha))])))
            }
            members.append(.init(key: "output_smoothing", value: .object(output)))
        }
        return .object(members)
    }
}

extension TrackingRule.Smoothing {
    /// The filter's settings as `model.json` spells them.
    var modelJSON: OrderedJSON {
        .object([
            .init(key: "min_cutoff", value: .number(minimumCutoff)),
            .init(key: "beta", value: .number(beta)),
            .init(key: "derivative_cutoff", value: .number(derivativeCutoff)),
            .init(key: "frequency", value: .number(frequency)),
        ])
    }
}
