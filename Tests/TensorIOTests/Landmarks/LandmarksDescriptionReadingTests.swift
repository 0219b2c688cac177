import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOVision

/// The `landmarks` entry, read against the landmark model's outputs, with JSON paths.
@Suite("Landmarks: the landmarks entry in model.json")
struct LandmarksDescriptionReadingTests {
    /// hand_landmark_full's outputs (mediapipe 0.10.21).
    static let handOutputs = [
        LayerDescription(name: "Identity", shape: [1, 63], declaredDataType: .float32, kind: .array(quantization: nil)),
        LayerDescription(name: "Identity_1", shape: [1, 1], declaredDataType: .float32, kind: .array(quantization: nil)),
        LayerDescription(name: "Identity_2", shape: [1, 1], declaredDataType: .float32, kind: .array(quantization: nil)),
        LayerDescription(name: "Identity_3", shape: [1, 63], declaredDataType: .float32, kind: .array(quantization: nil)),
    ]

    static let handEntry = #"""
        {"detector": "palm_detection.tiobundle",
         "region": {"rotation": {"from_keypoint": 0, "to_keypoint": 2, "degrees": 90}, "scale": [2.6, 2.6], "shift": [0, -0.5], "square": "long"},
         "points": {"output": "Identity", "count": 21, "values": 3, "normalize_z": 0.4},
         "presence": {"output": "Identity_1"},
         "handedness": {"output": "Identity_2", "labels": ["Left", "Right"]},
         "world_points": "Identity_3",
         "connections": [[0, 1], [1, 2], [2, 3], [3, 4]],
         "defaults": {"max_instances": 2, "min_detection_score": 0.5, "min_presence_score": 0.5}}
        """#

    static func read(_ json: String) throws -> (LandmarksDescription?, [String]) {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        var reader = ModelJSONReader(knownBackends: ["tflite"])
        let description = reader.readLandmarks(value, outputs: handOutputs)
        return (description, reader.issues.map { "\($0.path): \($0.message)" })
    }

    @Test("MediaPipe's hand landmarker reads whole")
    func hand() throws {
        let (description, issues) = try Self.read(Self.handEntry)
        #expect(issues.isEmpty, "\(issues)")
        let hand = try #require(description)
        #expect(hand.detector == "palm_detection.tiobundle")
        #expect(hand.points == .init(output: "Identity", count: 21, keep: 21, values: 3, normalizeZ: 0.4, activation: .none))
        #expect(hand.presence == .init(output: "Identity_1", activation: .none))
        #expect(hand.handedness == .init(output: "Identity_2", labels: ["Left", "Right"]))
        #expect(hand.worldPoints == "Identity_3")
        #expect(hand.connections.count == 4 && hand.maximumInstances == 2)
        #expect(hand.region.rotation?.endKeypoint == 2 && hand.region.scaleX == 2.6)
    }

    @Test("each wrong member is named at its path", arguments: [
        (#""detector": "palm_detection.tiobundle""#, #""detector": "../elsewhere""#, "landmarks.detector"),
        (#""count": 21"#, #""count": 20"#, "landmarks.points.output: \"Identity\" holds 63 numbers, not 20 points × 3"),
        (#""count": 21"#, #""count": 5000"#, "landmarks.points.count: 5000 is not a whole number from 1 to 1024"),
        (#""output": "Identity", "count""#, #""output": "Nope", "count""#, "landmarks.points.output: \"Nope\" is not an output"),
        (#""presence": {"output": "Identity_1"}"#, #""presence": {"output": "Identity"}"#, "landmarks.presence.output: \"Identity\" holds 63 numbers, not one score"),
        (#""labels": ["Left", "Right"]"#, #""labels": ["Left"]"#, "landmarks.handedness.labels: expected two labels"),
        (#""world_points": "Identity_3""#, #""world_points": "Identity_2""#, "landmarks.world_points: \"Identity_2\" holds 1 numbers, not 21 points × 3"),
        (#"[3, 4]]"#, #"[3, 21]]"#, "landmarks.connections[3]: expected two point indices below 21"),
        (#""max_instances": 2"#, #""max_instances": 0"#, "landmarks.defaults.max_instances: 0 is not a count"),
        (#""min_presence_score": 0.5"#, #""min_presence_score": 2"#, "landmarks.defaults.min_presence_score: 2 is not a score"),
        (#""square": "long""#, #""square": "wide""#, "landmarks.region.square"),
        (#""detector""#, #""detectors""#, "landmarks.detectors: unknown key"),
    ])
    func problems(original: String, replacement: String, expected: String) throws {
        let json = Self.handEntry.replacingOccurrences(of: original, with: replacement)
        #expect(json != Self.handEntry)
        let (description, issues) = try Self.read(json)
        #expect(description == nil)
        #expect(issues.contains { $0.hasPrefix(expected) }, "\(issues)")
    }
}
