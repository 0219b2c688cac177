@_spi(Internal) import TensorIO

/// Reads a landmarks entry's `tracking` (docs/model-json.md, "Landmarks"), every problem with its JSON path:
///
/// ```json
/// "tracking": {"points": [33, 34],
///              "region": {"from": "keypoints", "rotation": {"from_keypoint": 0, "to_keypoint": 1, "degrees": 90},
///                         "scale": [1.25, 1.25], "square": "long"},
///              "smoothing": {"min_cutoff": 0.01, "beta": 10, "derivative_cutoff": 1, "frequency": 30}}
/// ```
extension ModelJSONReader {
    static let trackingKeys: Set<String> = ["points", "region", "smoothing"]
    static let trackingSmoothingKeys: Set<String> = ["min_cutoff", "beta", "derivative_cutoff", "frequency"]

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
        var smoothing: TrackingRule.Smoothing?
        if let value = object["smoothing"], let entry = self.object(value, at: "\(path).smoothing") {
            checkKeys(entry, allowed: Self.trackingSmoothingKeys, at: "\(path).smoothing")
            var numbers: [String: Double] = [:]
            for (key, range) in [("min_cutoff", 0.0...1000), ("beta", 0.0...1000), ("derivative_cutoff", 0.0...1000),
                                 ("frequency", 0.001...1000)] {
                guard entry[key] != nil else {
                    issue("\(path).smoothing.\(key)", "required")
                    continue
                }
                if let number = number(entry, key, at: "\(path).smoothing") {
                    if range.contains(number) { numbers[key] = number } else {
                        issue("\(path).smoothing.\(key)", "\(JSONValue.number(number).brief) is outside \(JSONValue.number(range.lowerBound).brief) to \(JSONValue.number(range.upperBound).brief)")
                    }
                }
            }
            if let cutoff = numbers["min_cutoff"], let beta = numbers["beta"], let derivative = numbers["derivative_cutoff"],
               let frequency = numbers["frequency"] {
                smoothing = .init(minimumCutoff: cutoff, beta: beta, derivativeCutoff: derivative, frequency: frequency)
            }
        }
        guard issues.count == issuesBefore, let region else { return nil }
        return TrackingRule(points: points, region: region, smoothing: smoothing)
    }
}

extension TrackingRule {
    /// The rule as `model.json` spells it, in the documented key order (what `tensorio init` writes).
    var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = []
        if !points.isEmpty { members.append(.init(key: "points", value: .array(points.map { .integer($0) }))) }
        members.append(.init(key: "region", value: region.modelJSON))
        if let smoothing {
            members.append(.init(key: "smoothing", value: .object([
                .init(key: "min_cutoff", value: .number(smoothing.minimumCutoff)),
                .init(key: "beta", value: .number(smoothing.beta)),
                .init(key: "derivative_cutoff", value: .number(smoothing.derivativeCutoff)),
                .init(key: "frequency", value: .number(smoothing.frequency)),
            ])))
        }
        return .object(members)
    }
}
