@_spi(Internal) import TensorIO

/// Reads `model.json`'s `landmarks` entry into a ``LandmarksDescription``, every problem with its JSON path.
extension ModelJSONReader {
    static let landmarksKeys: Set<String> = [
        "detector", "region", "points", "heatmap", "presence", "handedness", "world_points", "connections", "defaults", "tracking",
    ]
    static let landmarkPointsKeys: Set<String> = ["output", "count", "keep", "values", "normalize_z", "activation"]
    static let landmarkHeatmapKeys: Set<String> = ["output", "kernel", "min_confidence"]
    static let landmarkScoreKeys: Set<String> = ["output", "activation"]
    static let landmarkHandednessKeys: Set<String> = ["output", "labels"]
    static let landmarkDefaultsKeys: Set<String> = ["max_instances", "min_detection_score", "min_presence_score"]

    mutating func readLandmarks(_ value: JSONValue?, outputs: [LayerDescription]) -> LandmarksDescription? {
        let path = "landmarks"
        let issuesBefore = issues.count
        guard let object = taskEntry(value, at: path, allowed: Self.landmarksKeys) else { return nil }
        let detector = requiredString(object, "detector", at: path)
        if let detector { checkRelativePath(detector, at: "\(path).detector") }
        let region = readRegionRule(object["region"], at: "\(path).region")
        let points = readLandmarkPoints(object["points"], outputs: outputs, at: "\(path).points")
        let heatmap = object["heatmap"].flatMap { readHeatmap($0, pointCount: points?.count, outputs: outputs, at: "\(path).heatmap") }
        let presence = object["presence"].flatMap { readLandmarkScore($0, outputs: outputs, at: "\(path).presence") }
        let handedness = object["handedness"].flatMap { readHandedness($0, outputs: outputs, at: "\(path).handedness") }
        let worldPoints = object["world_points"] == nil ? nil : readLayerName(
            object, "world_points", in: outputs, role: "output", at: path
        ) { layer in
            guard let points else { return nil }
            return layer.elementCount == points.count * 3 ? nil : "holds \(layer.elementCount) numbers, not \(points.count) points × 3"
        }
        let connections = readConnections(object["connections"], pointCount: points?.count, at: "\(path).connections")
        var defaults = (instances: 1, detection: 0.5, presence: 0.5)
        if let value = object["defaults"], let entry = self.object(value, at: "\(path).defaults") {
            checkKeys(entry, allowed: Self.landmarkDefaultsKeys, at: "\(path).defaults")
            if let number = number(entry, "max_instances", at: "\(path).defaults") {
                if number == number.rounded(), (1...Double(LandmarksDescription.maximumInstances)).contains(number) {
                    defaults.instances = Int(number)
                } else {
                    issue("\(path).defaults.max_instances", "\(JSONValue.number(number).brief) is not a count from 1 to \(LandmarksDescription.maximumInstances)")
                }
            }
            for (key, keyPath) in [("min_detection_score", \(instances: Int, detection: Double, presence: Double).detection),
                                   ("min_presence_score", \.presence)] {
                if let number = number(entry, key, at: "\(path).defaults") {
                    if (0...1).contains(number) { defaults[keyPath: keyPath] = number } else {
                        issue("\(path).defaults.\(key)", "\(JSONValue.number(number).brief) is not a score from 0 to 1")
                    }
                }
            }
        }
        let tracking = object["tracking"].flatMap { readTrackingRule($0, pointCount: points?.count, at: "\(path).tracking") }
        guard issues.count == issuesBefore, let detector, let region, let points else { return nil }
        return LandmarksDescription(
            detector: detector, region: region, points: points, presence: presence, handedness: handedness, heatmap: heatmap,
            worldPoints: worldPoints, connections: connections, maximumInstances: defaults.instances,
            minimumDetectionScore: defaults.detection, minimumPresenceScore: defaults.presence, tracking: tracking)
    }

    private mutating func readLandmarkPoints(
        _ value: JSONValue?, outputs: [LayerDescription], at path: String
    ) -> LandmarksDescription.Points? {
        guard let value else {
            issue(path, "required")
            return nil
        }
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.landmarkPointsKeys, at: path)
        let count = wholeNumber(object, "count", at: path, within: 1...LandmarksDescription.maximumPoints, required: true)
        let keep = wholeNumber(object, "keep", at: path, within: 1...(count ?? LandmarksDescription.maximumPoints), required: false)
        let values = wholeNumber(object, "values", at: path, within: 2...5, required: false) ?? 3
        var normalizeZ = 1.0
        if let number = number(object, "normalize_z", at: path) {
            if number > 0, number <= 1000 { normalizeZ = number } else {
                issue("\(path).normalize_z", "\(JSONValue.number(number).brief) is not a divisor from above 0 to 1000")
            }
        }
        let activation = readEnumeration(object, "activation", at: path, as: LandmarkScoreActivation.self) ?? .none
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) { layer in
            guard let count else { return nil }
            return layer.elementCount == count * values ? nil : "holds \(layer.elementCount) numbers, not \(count) points × \(values)"
        }
        guard let output, let count else { return nil }
        return .init(output: output, count: count, keep: keep ?? count, values: values, normalizeZ: normalizeZ, activation: activation)
    }

    private mutating func readHeatmap(
        _ value: JSONValue, pointCount: Int?, outputs: [LayerDescription], at path: String
    ) -> LandmarksDescription.Heatmap? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.landmarkHeatmapKeys, at: path)
        var size: (height: Int, width: Int)?
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) { layer in
            // [1, height, width, points] or [height, width, points], as MediaPipe's calculator takes.
            let shape = layer.shape.count == 4 && layer.shape[0] == 1 ? Array(layer.shape.dropFirst()) : layer.shape
            guard shape.count == 3, shape.allSatisfy({ $0 > 0 }) else {
                return "has the shape \(layer.shape), not [1, height, width, points]"
            }
            if let pointCount, shape[2] != pointCount { return "holds \(shape[2]) maps, not one per point (\(pointCount))" }
            size = (shape[0], shape[1])
            return nil
        }
        let kernel = wholeNumber(object, "kernel", at: path, within: 1...LandmarksDescription.maximumHeatmapKernel, required: false) ?? 7
        if kernel % 2 == 0 { issue("\(path).kernel", "\(kernel) is even: a window has a centre only when its side is odd") }
        var minimumConfidence = 0.5
        if let number = number(object, "min_confidence", at: path) {
            if (0...1).contains(number) { minimumConfidence = number } else {
                issue("\(path).min_confidence", "\(JSONValue.number(number).brief) is not a confidence from 0 to 1")
            }
        }
        guard let output, let size else { return nil }
        return .init(output: output, height: size.height, width: size.width, kernel: kernel, minimumConfidence: minimumConfidence)
    }

    private mutating func readLandmarkScore(
        _ value: JSONValue, outputs: [LayerDescription], at path: String
    ) -> LandmarksDescription.Score? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.landmarkScoreKeys, at: path)
        let activation = readEnumeration(object, "activation", at: path, as: LandmarkScoreActivation.self) ?? .none
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) { layer in
            layer.elementCount == 1 ? nil : "holds \(layer.elementCount) numbers, not one score"
        }
        return output.map { .init(output: $0, activation: activation) }
    }

    private mutating func readHandedness(
        _ value: JSONValue, outputs: [LayerDescription], at path: String
    ) -> LandmarksDescription.Handedness? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.landmarkHandednessKeys, at: path)
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) { layer in
            layer.elementCount == 1 ? nil : "holds \(layer.elementCount) numbers, not one score"
        }
        var labels = ["Left", "Right"]
        if let value = object["labels"] {
            if case .array(let items) = value, items.count == 2,
               case .string(let first) = items[0], case .string(let second) = items[1], !first.isEmpty, !second.isEmpty,
               first.count <= 64, second.count <= 64 {
                labels = [first, second]
            } else {
                issue("\(path).labels", "expected two labels, such as [\"Left\", \"Right\"], got \(value.brief)")
            }
        }
        return output.map { .init(output: $0, labels: labels) }
    }

    /// Pairs of point indices; each index below `pointCount` (when it is known).
    private mutating func readConnections(_ value: JSONValue?, pointCount: Int?, at path: String) -> [[Int]] {
        guard let value else { return [] }
        guard case .array(let items) = value, items.count <= 4096 else {
            issue(path, "expected at most 4096 pairs of point indices, got \(value.brief)")
            return []
        }
        var pairs: [[Int]] = []
        for (index, item) in items.enumerated() {
            guard case .array(let ends) = item, ends.count == 2,
                  case .number(let a) = ends[0], case .number(let b) = ends[1],
                  a == a.rounded(), b == b.rounded(), a >= 0, b >= 0, a < Double(pointCount ?? LandmarksDescription.maximumPoints),
                  b < Double(pointCount ?? LandmarksDescription.maximumPoints)
            else {
                issue("\(path)[\(index)]", "expected two point indices below \(pointCount ?? LandmarksDescription.maximumPoints), got \(item.brief)")
                continue
            }
            pairs.append([Int(a), Int(b)])
        }
        return pairs
    }

    /// A whole number within `range`; an issue when it is not, or is missing and `required`.
    private mutating func wholeNumber(
        _ object: [String: JSONValue], _ key: String, at path: String, within range: ClosedRange<Int>, required: Bool
    ) -> Int? {
        guard object[key] != nil else {
            if required { issue("\(path).\(key)", "required") }
            return nil
        }
        guard let number = number(object, key, at: path) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            issue("\(path).\(key)", "\(JSONValue.number(number).brief) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return Int(number)
    }
}
