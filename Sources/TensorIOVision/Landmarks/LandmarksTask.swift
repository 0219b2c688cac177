import Foundation
@_spi(Internal) public import TensorIO

/// The landmarks task: the `landmarks` entry (docs/model-json.md, "Landmarks") — the detector bundle inside
/// this one, the rule that turns a detection into the region the landmark model sees, and how the landmark
/// model's outputs read — read, checked against the landmark model's outputs, and written back.
///
/// Nothing is inferred from a bare model alone: a landmarker is two models and MediaPipe's graph settings,
/// which `tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose` writes.
package enum LandmarksTask: ModelTask {
    package static let entryKey = "landmarks"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> LandmarksDescription? {
        reader.readLandmarks(entry, outputs: layers.outputs)
    }

    /// Checks that the detector's bundle is there: a folder inside this bundle (not a link out of it) holding a
    /// `model.json` — so that `validate` says so, not the first photo. The detector bundle itself is read
    /// and checked when a ``Landmarker`` opens it.
    package static func readFiles(of description: LandmarksDescription, layers: TaskLayers, from assets: inout TaskAssets) -> LandmarksDescription {
        assets.checkNestedBundle(description.detector, role: "detector", at: "landmarks.detector")
        return description
    }

    /// MediaPipe's pipeline when the options name one (`BundleInferenceOptions/landmarker`); nothing
    /// otherwise — a bare landmark model says nothing of its detector or its region rule.
    package static func infer(_ inference: inout TFLiteBundleInference) throws -> LandmarksDescription? {
        guard inference.imageTask == nil, let landmarker = inference.options.landmarker else { return nil }
        let description = try inference.applyLandmarker(landmarker)
        inference.imageTask = entryKey
        return description
    }
}

extension ModelBundle {
    /// How the bundle runs as a landmarker (`landmarks` in `model.json`), for landmark bundles; `nil`
    /// otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry is wrong (read on
    ///   first use when the bundle was opened without the vision tasks registered).
    public var landmarks: LandmarksDescription? {
        get throws { try taskDescription(LandmarksTask.self) }
    }
}
