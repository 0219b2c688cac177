@_spi(Internal) import TensorIO

/// Reads a landmarks entry's `region` (docs/model-json.md, "Landmarks"), recording every problem with its
/// JSON path:
///
/// ```json
/// "region": {"from": "box", "rotation": {"from_keypoint": 0, "to_keypoint": 2, "degrees": 90},
///            "scale": [2.6, 2.6], "shift": [0, -0.5], "square": "long", "max_overlap": 0.5}
/// ```
extension ModelJSONReader {
    static let regionKeys: Set<String> = ["from", "rotation", "scale", "shift", "square", "max_overlap"]
    static let regionRotationKeys: Set<String> = ["from_keypoint", "to_keypoint", "to_midpoint_of", "degrees"]

    /// The region rule at `path`; `nil` (with issues) when it is missing or wrong.
    mutating func readRegionRule(_ value: JSONValue?, at path: String) -> RegionRule? {
        let issuesBefore = issues.count
        guard let value else {
            issue(path, "required")
            return nil
        }
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.regionKeys, at: path)
        let source = readEnumeration(object, "from", at: path, as: RegionRule.Source.self) ?? .box
        let rotation = object["rotation"].flatMap { readRegionRotation($0, at: "\(path).rotation") }
        if source != .box, object["rotation"] == nil {
            issue("\(path).rotation", "required: a region \"from\": \"\(source.rawValue)\" is sized and turned by the rotation's keypoints")
        }
        let scale = numberPair(object, "scale", at: path, within: RegionRule.scaleRange) ?? (1, 1)
        let shift = numberPair(object, "shift", at: path, within: RegionRule.shiftRange) ?? (0, 0)
        let square = readEnumeration(object, "square", at: path, as: RegionRule.Square.self) ?? RegionRule.Square.none
        var maximumOverlap: Double?
        if let number = number(object, "max_overlap", at: path) {
            if (0...1).contains(number) { maximumOverlap = number } else {
                issue("\(path).max_overlap", "\(JSONValue.number(number).brief) is not an intersection over union from 0 to 1")
            }
        }
        guard issues.count == issuesBefore else { return nil }
        return RegionRule(
            source: source, rotation: rotation, scaleX: scale.0, scaleY: scale.1, shiftX: shift.0, shiftY: shift.1,
            square: square, maximumOverlap: maximumOverlap)
    }

    private mutating func readRegionRotation(_ value: JSONValue, at path: String) -> RegionRule.Rotation? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: Self.regionRotationKeys, at: path)
        let start = keypointIndex(object, "from_keypoint", at: path)
        let end = keypointIndex(object, "to_keypoint", at: path)
        var degrees: Double?
        if object["degrees"] == nil {
            issue("\(path).degrees", "required")
        } else if let number = number(object, "degrees", at: path) {
            if RegionRule.degreesRange.contains(number) {
                degrees = number
            } else {
                issue("\(path).degrees", "\(JSONValue.number(number).brief) is not an angle from -360 to 360")
            }
        }
        var midpoint: [Int] = []
        if let value = object["to_midpoint_of"] {
            if case .array(let items) = value, items.count == 2,
               case .number(let a) = items[0], case .number(let b) = items[1],
               [a, b].allSatisfy({ $0 == $0.rounded() && (0...Double(RegionRule.maximumKeypointIndex)).contains($0) }) {
                midpoint = [Int(a), Int(b)]
            } else {
                issue("\(path).to_midpoint_of", "expected two keypoint indices from 0 to \(RegionRule.maximumKeypointIndex), got \(value.brief)")
                return nil
            }
        }
        guard let start, let end, let degrees else { return nil }
        guard start != end else {
            issue("\(path).to_keypoint", "is the from_keypoint: a rotation needs two keypoints")
            return nil
        }
        return RegionRule.Rotation(startKeypoint: start, endKeypoint: end, targetDegrees: degrees, endMidpointOf: midpoint)
    }

    /// A required whole number from 0 to ``RegionRule/maximumKeypointIndex``.
    private mutating func keypointIndex(_ object: [String: JSONValue], _ key: String, at path: String) -> Int? {
        guard object[key] != nil else {
            issue("\(path).\(key)", "required")
            return nil
        }
        guard let number = number(object, key, at: path) else { return nil }
        guard number == number.rounded(), (0...Double(RegionRule.maximumKeypointIndex)).contains(number) else {
            issue("\(path).\(key)", "\(JSONValue.number(number).brief) is not a keypoint index from 0 to \(RegionRule.maximumKeypointIndex)")
            return nil
        }
        return Int(number)
    }

    /// An optional `[x, y]` of finite numbers within `range`.
    private mutating func numberPair(
        _ object: [String: JSONValue], _ key: String, at path: String, within range: ClosedRange<Double>
    ) -> (Double, Double)? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value, items.count == 2,
              case .number(let x) = items[0], case .number(let y) = items[1], x.isFinite, y.isFinite
        else {
            issue("\(path).\(key)", "expected [x, y], two numbers, got \(value.brief)")
            return nil
        }
        guard range.contains(x), range.contains(y) else {
            issue("\(path).\(key)", "[\(JSONValue.number(x).brief), \(JSONValue.number(y).brief)] is outside \(JSONValue.number(range.lowerBound).brief) to \(JSONValue.number(range.upperBound).brief)")
            return nil
        }
        return (x, y)
    }
}

extension RegionRule {
    /// The scales a region may take: a region at most a hundred times the detection's size.
    static let scaleRange: ClosedRange<Double> = 0.01...100
    /// The shifts, in region sizes.
    static let shiftRange: ClosedRange<Double> = -10...10
    /// The target angles, in degrees.
    static let degreesRange: ClosedRange<Double> = -360...360
    /// The largest keypoint index a rule may name (a detector's keypoints are bounded by its decoding).
    static let maximumKeypointIndex = 1023

    /// The rule as `model.json` spells it, in the documented key order (what `tensorio init` writes).
    var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = [.init(key: "from", value: .string(source.rawValue))]
        if let rotation {
            members.append(.init(key: "rotation", value: .object([
                .init(key: "from_keypoint", value: .integer(rotation.startKeypoint)),
                .init(key: "to_keypoint", value: .integer(rotation.endKeypoint)),
            ] + (rotation.endMidpointOf.isEmpty ? [] : [
                .init(key: "to_midpoint_of", value: .array(rotation.endMidpointOf.map { .integer($0) })),
            ]) + [
                .init(key: "degrees", value: .number(rotation.targetDegrees)),
            ])))
        }
        members.append(.init(key: "scale", value: .array([.number(scaleX), .number(scaleY)])))
        members.append(.init(key: "shift", value: .array([.number(shiftX), .number(shiftY)])))
        members.append(.init(key: "square", value: .string(square.rawValue)))
        if let maximumOverlap { members.append(.init(key: "max_overlap", value: .number(maximumOverlap))) }
        return .object(members)
    }
}
