import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOVision

/// A landmarks entry's `tracking`, read with JSON paths, and written back.
@Suite("Landmarks: the tracking rule in model.json")
struct TrackingRuleReadingTests {
    static func read(_ json: String, pointCount: Int? = 39) throws -> (TrackingRule?, [String]) {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        var reader = ModelJSONReader(knownBackends: ["tflite"])
        let rule = reader.readTrackingRule(value, pointCount: pointCount, at: "landmarks.tracking")
        return (rule, reader.issues.map { "\($0.path): \($0.message)" })
    }

    @Test("MediaPipe's three rules read, and write back as they were given", arguments: MediaPipeLandmarker.allCases)
    func mediaPipeRules(_ landmarker: MediaPipeLandmarker) throws {
        let rule = landmarker.tracking
        let count = [MediaPipeLandmarker.hand: 21, .face: 468, .pose: 39][landmarker]
        let (again, issues) = try Self.read(RegionRuleReadingTests.text(rule.modelJSON), pointCount: count)
        #expect(issues.isEmpty)
        #expect(again == rule)
    }

    @Test("each wrong member is named at its path", arguments: [
        (#"[]"#, "landmarks.tracking: expected an object"),
        (#"{}"#, "landmarks.tracking.region: required"),
        (#"{"region": {}, "follow": 1}"#, "landmarks.tracking.follow: unknown key"),
        (#"{"points": [33, 39], "region": {}}"#, "landmarks.tracking.points: expected a list of point indices below 39"),
        (#"{"points": [], "region": {}}"#, "landmarks.tracking.points: expected a list"),
        (#"{"points": [1.5], "region": {}}"#, "landmarks.tracking.points: expected a list"),
        (#"{"points": [33, 34], "region": {"from": "keypoints", "rotation": {"from_keypoint": 0, "to_keypoint": 2, "degrees": 90}}}"#,
         "landmarks.tracking.region.rotation: keypoint 2 is not among the 2 tracking points"),
        (#"{"region": {"from": "rotated_box"}}"#, "landmarks.tracking.region.rotation: required"),
        (#"{"region": {"rotation": {"from_keypoint": 0, "to_keypoint": 6, "to_midpoint_of": [4], "degrees": 90}}}"#,
         "landmarks.tracking.region.rotation.to_midpoint_of: expected two keypoint indices"),
        (#"{"region": {}, "smoothing": {"min_cutoff": 0.01, "beta": 10, "derivative_cutoff": 1}}"#, "landmarks.tracking.smoothing.frequency: required"),
        (#"{"region": {}, "smoothing": {"min_cutoff": -1, "beta": 10, "derivative_cutoff": 1, "frequency": 30}}"#,
         "landmarks.tracking.smoothing.min_cutoff: -1 is outside"),
        (#"{"region": {}, "smoothing": {"min_cutoff": 0.01, "beta": 10, "derivative_cutoff": 1, "frequency": 0}}"#,
         "landmarks.tracking.smoothing.frequency: 0 is outside"),
        (#"{"region": {}, "output_smoothing": []}"#, "landmarks.tracking.output_smoothing: expected an object"),
        (#"{"region": {}, "output_smoothing": {}}"#, "landmarks.tracking.output_smoothing: expected at least one of"),
        (#"{"region": {}, "output_smoothing": {"visibility": {"alpha": 0.1}, "points": 1}}"#,
         "landmarks.tracking.output_smoothing.points: unknown key"),
        (#"{"region": {}, "output_smoothing": {"landmarks": {"min_cutoff": -0.05, "beta": 80, "derivative_cutoff": 1, "frequency": 30}}}"#,
         "landmarks.tracking.output_smoothing.landmarks.min_cutoff: -0.05 is outside"),
        (#"{"region": {}, "output_smoothing": {"landmarks": {"min_cutoff": 0.05, "beta": "NaN", "derivative_cutoff": 1, "frequency": 30}}}"#,
         "landmarks.tracking.output_smoothing.landmarks.beta: expected a number"),
        (#"{"region": {}, "output_smoothing": {"world_landmarks": {"min_cutoff": 0.1, "beta": 40, "derivative_cutoff": 1}}}"#,
         "landmarks.tracking.output_smoothing.world_landmarks.frequency: required"),
        (#"{"region": {}, "output_smoothing": {"world_landmarks": true}}"#,
         "landmarks.tracking.output_smoothing.world_landmarks: expected an object"),
        (#"{"region": {}, "output_smoothing": {"visibility": 0.1}}"#, "landmarks.tracking.output_smoothing.visibility: expected an object"),
        (#"{"region": {}, "output_smoothing": {"visibility": {}}}"#, "landmarks.tracking.output_smoothing.visibility.alpha: required"),
        (#"{"region": {}, "output_smoothing": {"visibility": {"alpha": -0.1}}}"#,
         "landmarks.tracking.output_smoothing.visibility.alpha: -0.1 is outside 0 to 1"),
        (#"{"region": {}, "output_smoothing": {"visibility": {"alpha": 1.5}}}"#,
         "landmarks.tracking.output_smoothing.visibility.alpha: 1.5 is outside 0 to 1"),
        (#"{"region": {}, "output_smoothing": {"visibility": {"alpha": "NaN"}}}"#,
         "landmarks.tracking.output_smoothing.visibility.alpha: expected a number"),
        (#"{"region": {}, "output_smoothing": {"visibility": {"alpha": 0.1, "beta": 1}}}"#,
         "landmarks.tracking.output_smoothing.visibility.beta: unknown key"),
    ])
    func problems(json: String, expected: String) throws {
        let (rule, issues) = try Self.read(json)
        #expect(rule == nil)
        #expect(issues.contains { $0.hasPrefix(expected) }, "\(issues)")
    }

    @Test("output smoothing reads member by member, and writes back as it was given")
    func outputSmoothing() throws {
        let (rule, issues) = try Self.read(#"{"region": {}, "output_smoothing": {"visibility": {"alpha": 0.25}}}"#)
        #expect(issues.isEmpty)
        let output = try #require(rule?.outputSmoothing)
        #expect(output == TrackingRule.OutputSmoothing(visibilityAlpha: 0.25))
        let (again, _) = try Self.read(RegionRuleReadingTests.text(try #require(rule).modelJSON))
        #expect(again == rule)
        #expect(MediaPipeLandmarker.pose.tracking.outputSmoothing?.landmarks?.beta == 80)
        #expect(MediaPipeLandmarker.hand.tracking.outputSmoothing == nil)
    }
}
