import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOVision

/// A landmarks entry's `region`, read with JSON paths, and written back.
@Suite("Landmarks: the region rule in model.json")
struct RegionRuleReadingTests {
    static func read(_ json: String) throws -> (RegionRule?, [String]) {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        var reader = ModelJSONReader(knownBackends: ["tflite"])
        let rule = reader.readRegionRule(value, at: "landmarks.region")
        return (rule, reader.issues.map { "\($0.path): \($0.message)" })
    }

    @Test("MediaPipe's palm rule reads, and writes back as it was given")
    func palmRule() throws {
        let json = #"{"rotation": {"from_keypoint": 0, "to_keypoint": 2, "degrees": 90}, "scale": [2.6, 2.6], "shift": [0, -0.5], "square": "long"}"#
        let (rule, issues) = try Self.read(json)
        #expect(issues.isEmpty)
        let expected = RegionRule(
            rotation: .init(startKeypoint: 0, endKeypoint: 2, targetDegrees: 90), scaleX: 2.6, scaleY: 2.6, shiftY: -0.5,
            square: .long)
        #expect(rule == expected)
        // Written and read again: the same rule.
        let written = try #require(rule?.modelJSON)
        let (again, _) = try Self.read(Self.text(written))
        #expect(again == expected)
    }

    @Test("no rotation, no scale, no shift: an upright region of the detection's own size")
    func defaults() throws {
        let (rule, issues) = try Self.read("{}")
        #expect(issues.isEmpty)
        #expect(rule == RegionRule(rotation: nil))
    }

    @Test("each wrong member is named at its path", arguments: [
        (#"[]"#, "landmarks.region: expected an object"),
        (#"{"turn": 1}"#, "landmarks.region.turn: unknown key"),
        (#"{"scale": 2}"#, "landmarks.region.scale: expected [x, y]"),
        (#"{"scale": [0, 1]}"#, "landmarks.region.scale: [0, 1] is outside"),
        (#"{"shift": [1, "up"]}"#, "landmarks.region.shift: expected [x, y]"),
        (#"{"square": "round"}"#, "landmarks.region.square: \"round\" is not one of"),
        (#"{"rotation": {"from_keypoint": 0, "degrees": 90}}"#, "landmarks.region.rotation.to_keypoint: required"),
        (#"{"rotation": {"from_keypoint": 0.5, "to_keypoint": 2, "degrees": 90}}"#, "landmarks.region.rotation.from_keypoint: 0.5 is not a keypoint index"),
        (#"{"rotation": {"from_keypoint": 0, "to_keypoint": 5000, "degrees": 90}}"#, "landmarks.region.rotation.to_keypoint: 5000 is not a keypoint index"),
        (#"{"rotation": {"from_keypoint": 1, "to_keypoint": 1, "degrees": 90}}"#, "landmarks.region.rotation.to_keypoint: is the from_keypoint"),
        (#"{"rotation": {"from_keypoint": 0, "to_keypoint": 2, "degrees": 1000}}"#, "landmarks.region.rotation.degrees: 1000 is not an angle"),
        (#"{"rotation": {"from_keypoint": 0, "to_keypoint": 2}}"#, "landmarks.region.rotation.degrees: required"),
    ])
    func problems(json: String, expected: String) throws {
        let (rule, issues) = try Self.read(json)
        #expect(rule == nil)
        #expect(issues.contains { $0.hasPrefix(expected) }, "\(issues)")
    }

    /// An ordered JSON tree as text.
    static func text(_ json: OrderedJSON) -> String {
        switch json {
        case .string(let text): return "\"\(text)\""
        case .number(let number): return "\(number)"
        case .integer(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        case .array(let items): return "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { "\"\($0.key)\":\(text($0.value))" }.joined(separator: ",") + "}"
        }
    }
}
