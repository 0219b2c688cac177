import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// `model.json`'s `detection` entry (docs/model-json.md, "Detection"): read, written back, refused with
/// JSON paths when it is wrong or hostile; and the run-time checks on what a detector's outputs hold.
@Suite("Detection: the model.json description")
struct DetectionDescriptionTests {
    /// The number model's bundle with two outputs shaped like BlazeFace's and `detection` set to `entry`.
    static func document(detection entry: JSONObject?, boxesShape: [Int] = [1, 896, 16]) -> JSONObject {
        var document = Fixtures.numberModelDocument()
        document["outputs"] = [
            ["name": "regressors", "type": "array", "shape": boxesShape],
            ["name": "classificators", "type": "array", "shape": [1, 896, 1]],
        ]
        if let entry { document["detection"] = entry }
        return document
    }

    static var blazeFace: JSONObject { [
        "type": "anchors", "boxes": "regressors", "scores": "classificators",
        "anchors": [
            "input_size": [128, 128], "layers": 4, "strides": [8, 16, 16, 16], "min_scale": 0.1484375, "max_scale": 0.75,
            "aspect_ratios": [1.0], "fixed_size": true,
        ],
        "decoding": ["format": "xywh", "scale": [128, 128, 128, 128], "keypoints": 6, "sigmoid": true, "score_clipping": 100],
        "suppression": ["algorithm": "weighted", "threshold": 0.3],
        "min_score": 0.5,
    ] }

    /// Opened with the vision tasks registered (the entry read then), or with `.builtIn` and the entry read
    /// on first use (`firstUse`).
    static func open(_ json: JSONObject, files: [String: Data] = [:], firstUse: Bool = false) throws -> ModelBundle {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        return try withBundle(json: String(decoding: data, as: UTF8.self), files: files) { url in
            guard firstUse else { return try ModelBundle(at: url, registry: .everyTask) }
            let bundle = try ModelBundle(at: url)
            _ = try bundle.detection
            return bundle
        }
    }

    static func issues(_ json: JSONObject, files: [String: Data] = [:]) -> [BundleIssue] {
        let error = #expect(throws: TensorIOError.self) { try open(json, files: files) }
        // Opened without the vision tasks, the bundle keeps the entry; its first read finds the same problems.
        let later = #expect(throws: TensorIOError.self) { try open(json, files: files, firstUse: true) }
        #expect(later?.issues == error?.issues)
        return error?.issues ?? []
    }

    static func with(_ changes: JSONObject, removing removed: [String] = []) -> JSONObject {
        var entry = blazeFace
        entry.merge(changes) { _, new in new }
        for key in removed { entry.removeValue(forKey: key) }
        return entry
    }

    @Test("an anchor detector's description reads, with its anchors made once")
    func anchorDescription() throws {
        let detection = try #require(try Self.open(Self.document(detection: Self.blazeFace)).detection)
        #expect(detection.kind == .anchors && detection.boxesOutput == "regressors" && detection.scoresOutput == "classificators")
        #expect(detection.anchors.count == 896 && detection.keypointCount == 6 && detection.minimumScore == 0.5)
        #expect(detection.suppression?.algorithm == .weighted && detection.decoding?.numCoords == 16)
        #expect(try Self.open(Self.document(detection: nil)).detection == nil)
    }

    @Test("what the description writes reads back as the same description")
    func roundTrip() throws {
        let detection = try #require(try Self.open(Self.document(detection: Self.blazeFace)).detection)
        func plain(_ tree: OrderedJSON) -> Any {
            switch tree {
            case .string(let text): text
            case .number(let number): number
            case .integer(let number): number
            case .bool(let flag): flag
            case .array(let items): items.map(plain)
            case .object(let members): Dictionary(uniqueKeysWithValues: members.map { ($0.key, plain($0.value)) })
            }
        }
        let written = try #require(plain(detection.modelJSON) as? JSONObject)
        #expect(try Self.open(Self.document(detection: written)).detection == detection)
    }

    @Test("a wrong or hostile description is refused at its JSON path", arguments: [
        ("{}", ["type"], "detection.type"),
        (#"{"type": "yolo"}"#, [], "detection.type"),
        (#"{"boxes": "nothing"}"#, [], "detection.boxes"),
        ("{}", ["anchors"], "detection.anchors"),
        (#"{"anchors": {"input_size": [128, 128], "layers": 4, "strides": [8, 16]}}"#, [], "detection.anchors.strides"),
        (#"{"anchors": {"input_size": [128, 128], "layers": 4, "strides": [8, 16, 16, 0]}}"#, [], "detection.anchors.strides[3]"),
        (#"{"anchors": {"input_size": [2000000000, 2000000000], "layers": 1, "strides": [1]}}"#, [], "detection.anchors"),
        (#"{"anchors": {"input_size": [128, 128], "layers": 1, "strides": [\#(Array(repeating: "8", count: 65).joined(separator: ","))]}}"#, [], "detection.anchors.strides"),
        (#"{"decoding": {"scale": [128, 128, 128]}}"#, [], "detection.decoding.scale"),
        (#"{"decoding": {"scale": [128, 128, 128, 128], "keypoints": 100000}}"#, [], "detection.decoding.keypoints"),
        (#"{"suppression": {"threshold": 2}}"#, [], "detection.suppression.threshold"),
        (#"{"min_score": "high"}"#, [], "detection.min_score"),
        (#"{"max_results": 0}"#, [], "detection.max_results"),
        (#"{"classes": "regressors"}"#, [], "detection.classes"),
        (#"{"labels": "../../etc/passwd"}"#, [], "detection.labels"),
        (#"{"labels": "labels.txt"}"#, [], "detection.labels"),
    ])
    func refused(_ changesJSON: String, _ removed: [String], _ path: String) throws {
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(changesJSON.utf8)) as? JSONObject)
        let paths = Self.issues(Self.document(detection: Self.with(changes, removing: removed))).map(\.path)
        #expect(paths.contains(path), "\(paths)")
    }

    @Test("the boxes output's fixed shape must hold the anchors and the decoding's values")
    func boxesShape() {
        let paths = Self.issues(Self.document(detection: Self.blazeFace, boxesShape: [1, 895, 16])).map(\.path)
        #expect(paths == ["detection.boxes"])
    }

    @Test("anchors listed in a file of assets/ (what init writes for DETECTOR_METADATA) read, round-trip, and are checked")
    func anchorsFile() throws {
        // The generated BlazeFace anchors, written as the file and read back in place of their settings.
        let generated = try #require(try Self.open(Self.document(detection: Self.blazeFace)).detection)
        let text = Anchor.listText(generated.anchors)
        let entry = Self.with(["anchors": ["file": "anchors.csv"]])
        let detection = try #require(try Self.open(Self.document(detection: entry), files: ["assets/anchors.csv": Data(text.utf8)]).detection)
        #expect(detection.anchors == generated.anchors && detection.decoding?.numBoxes == 896 && detection.fixedAnchorsFile == "anchors.csv")
        guard case .object(let members) = detection.modelJSON, let anchors = members.first(where: { $0.key == "anchors" }) else {
            Issue.record("no anchors entry written")
            return
        }
        #expect(anchors.value == .object([.init(key: "file", value: .string("anchors.csv"))]))

        // One anchor too few for the boxes output, a bad line, no file, a path out of the bundle, other keys.
        let short = text.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(Self.issues(Self.document(detection: entry), files: ["assets/anchors.csv": Data(short.utf8)]).map(\.path) == ["detection.boxes"])
        let bad = Self.issues(Self.document(detection: entry), files: ["assets/anchors.csv": Data("0.5,0.5,1\n".utf8)])
        #expect(bad.map(\.path) == ["detection.anchors.file"] && bad.first?.message.contains("line 1") == true, "\(bad)")
        let negative = Self.issues(Self.document(detection: entry), files: ["assets/anchors.csv": Data("0.5,0.5,-1,1\n".utf8)])
        #expect(negative.map(\.path) == ["detection.anchors.file"], "\(negative)")
        let nan = Self.issues(Self.document(detection: entry), files: ["assets/anchors.csv": Data("nan,0.5,1,1\n".utf8)])
        #expect(nan.map(\.path) == ["detection.anchors.file"], "\(nan)")
        #expect(Self.issues(Self.document(detection: entry)).map(\.path) == ["detection.anchors.file"])
        #expect(Self.issues(Self.document(detection: Self.with(["anchors": ["file": "../anchors.csv"]]))).map(\.path).contains("detection.anchors.file"))
        #expect(Self.issues(Self.document(detection: Self.with(["anchors": ["file": "anchors.csv", "layers": 4]]))).map(\.path).contains("detection.anchors.layers"))
    }

    @Test("a post-processed description reads its labels and score calibration from assets/")
    func postProcessed() throws {
        var document = Fixtures.numberModelDocument()
        document["outputs"] = ["boxes", "classes", "scores", "count"].map { ["name": $0, "type": "array", "shape": [-1]] }
        document["detection"] = [
            "type": "post_processed", "boxes": "boxes", "classes": "classes", "scores": "scores", "count": "count",
            "labels": "labels.txt", "box": ["type": "boundaries", "order": ["left", "top", "right", "bottom"], "coordinates": "pixels"],
            "score_calibration": ["file": "calibration.csv", "transformation": "inverse_logistic", "default_score": 0.1],
        ] as JSONObject
        let files = ["assets/labels.txt": Data("cat\ndog\n".utf8), "assets/calibration.csv": Data("1,1,0\n\n".utf8)]
        let detection = try #require(try Self.open(document, files: files).detection)
        #expect(detection.labels?.values == ["cat", "dog"] && detection.boxLayout.positions == [0, 1, 2, 3])
        #expect(detection.boxLayout.coordinates == .pixels && detection.calibration != nil)
        // A calibration line that is not three or four numbers is refused with its line number.
        let bad = ["assets/labels.txt": files["assets/labels.txt"]!, "assets/calibration.csv": Data("1,1,nan\n\n".utf8)]
        let issues = Self.issues(document, files: bad)
        #expect(issues.map(\.path) == ["detection.score_calibration.file"] && issues.first?.message.contains("line 1") == true, "\(issues)")
    }

    @Test("display names by locale: labelsLocale picks them, the category lists name the bundle's labels, an unknown locale keeps them")
    func displayNames() throws {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = [["name": "image", "type": "image", "shape": [10, 10, 3], "format": "RGB"]]
        document["outputs"] = ["boxes", "classes", "scores", "count"].map { ["name": $0, "type": "array", "shape": [-1]] }
        document["detection"] = [
            "type": "post_processed", "boxes": "boxes", "classes": "classes", "scores": "scores", "count": "count",
            "labels": "labels.txt", "display_names": ["fr": "labels-fr.txt"],
        ] as JSONObject
        let files = ["assets/labels.txt": Data("cat\ndog\n".utf8), "assets/labels-fr.txt": Data("chat\nchien\n".utf8)]
        let bundle = try Self.open(document, files: files)
        #expect(try bundle.detection?.displayNames["fr"]?.values == ["chat", "chien"])
        let decoder = try DetectionDecoder(bundle: bundle, configuration: ModelConfiguration())
        let outputs = Self.outputs(boxes: [0, 0, 0.5, 0.5, 0.5, 0.5, 1, 1], classes: [0, 1], scores: [0.9, 0.8], count: 2)
        let photo = ImageSize(width: 10, height: 10)
        func labels(_ options: DetectionOptions) throws -> [String?] { try decoder.detections(in: outputs, photo: photo, options: options).map(\.label) }
        #expect(try labels(DetectionOptions()) == ["cat", "dog"])
        #expect(try labels(DetectionOptions(labelsLocale: "fr")) == ["chat", "chien"])
        #expect(try labels(DetectionOptions(categoryAllowlist: ["dog"], labelsLocale: "fr")) == ["chien"])
        #expect(try labels(DetectionOptions(labelsLocale: "de")) == ["cat", "dog"])
        // Written back, read back; a missing file or a bad entry is refused at its path.
        guard case .object(let members)? = try bundle.detection?.modelJSON else { Issue.record("no entry written"); return }
        #expect(members.first { $0.key == "display_names" }?.value == .object([.init(key: "fr", value: .string("labels-fr.txt"))]))
        #expect(Self.issues(document, files: ["assets/labels.txt": files["assets/labels.txt"]!]).map(\.path) == ["detection.display_names.fr"])
        var bad = document
        bad["detection"] = (document["detection"] as? JSONObject)?.merging(["display_names": ["fr": 3]]) { $1 }
        #expect(Self.issues(bad, files: files).map(\.path) == ["detection.display_names.fr"])
    }

    // MARK: - Outputs at run time

    static func postProcessedDecoder() throws -> DetectionDecoder {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = [["name": "image", "type": "image", "shape": [10, 10, 3], "format": "RGB"]]
        document["outputs"] = ["boxes", "classes", "scores", "count"].map { ["name": $0, "type": "array", "shape": [-1]] }
        document["detection"] = [
            "type": "post_processed", "boxes": "boxes", "classes": "classes", "scores": "scores", "count": "count",
        ] as JSONObject
        return try DetectionDecoder(bundle: open(document), configuration: ModelConfiguration())
    }

    static func outputs(boxes: [Float], classes: [Float], scores: [Float], count: Float) -> Outputs {
        Outputs([
            Output(name: "boxes", value: .numbers(.float32(boxes), shape: [1, boxes.count / 4, 4])),
            Output(name: "classes", value: .numbers(.float32(classes), shape: [1, classes.count])),
            Output(name: "scores", value: .numbers(.float32(scores), shape: [1, scores.count])),
            Output(name: "count", value: .numbers(.float32([count]), shape: [1])),
        ])
    }

    @Test("a count beyond the arrays, NaN, infinite or negative-size boxes and NaN scores give a bounded, clean result")
    func hostileOutputs() throws {
        let decoder = try Self.postProcessedDecoder()
        let photo = ImageSize(width: 100, height: 50)
        // top, left, bottom, right as fractions; the second box is NaN, the third upside down, the fourth infinite.
        let boxes: [Float] = [0.1, 0.2, 0.5, 0.6, .nan, 0, 1, 1, 0.9, 0.9, 0.1, 0.1, 0, 0, .infinity, 1, 0, 0, 1, 1]
        let outputs = Self.outputs(boxes: boxes, classes: [1, 0, 0, 0, 0], scores: [0.9, 0.8, 0.7, 0.6, .nan], count: 1e30)
        let detections = try decoder.detections(in: outputs, photo: photo, options: DetectionOptions())
        #expect(detections.count == 1)
        let box = try #require(detections.first?.box)
        // The 10×10 input took the photo's centre 50×50 (fill): tensor x 0.2 is photo x 25 + 0.2 × 50.
        #expect(abs(box.x - 35) < 1e-3 && abs(box.y - 5) < 1e-3 && abs(box.width - 20) < 1e-3 && abs(box.height - 20) < 1e-3, "\(box)")
        // A NaN or negative count is no detection at all.
        #expect(try decoder.detections(in: Self.outputs(boxes: boxes, classes: [1, 0, 0, 0, 0], scores: [0.9, 0.8, 0.7, 0.6, 0.5], count: .nan), photo: photo, options: DetectionOptions()).isEmpty)
        // Arrays that disagree are an error naming the description, not a read past their end.
        let mismatched = Self.outputs(boxes: Array(boxes.prefix(8)), classes: [1, 0, 0], scores: [0.9, 0.8, 0.7], count: 3)
        #expect(throws: TensorIOError.self) { try decoder.detections(in: mismatched, photo: photo, options: DetectionOptions()) }
    }

    @Test("boxes are clipped to the photo, and the options keep the best, above the threshold, of the allowed labels")
    func clippingAndOptions() throws {
        let decoder = try Self.postProcessedDecoder()
        let photo = ImageSize(width: 100, height: 50)
        let boxes: [Float] = [-0.5, -0.5, 2, 2, 0, 0, 0.5, 0.5, 0, 0, 0.2, 0.2]
        let outputs = Self.outputs(boxes: boxes, classes: [0, 1, 2], scores: [0.9, 0.6, 0.3], count: 3)
        let all = try decoder.detections(in: outputs, photo: photo, options: DetectionOptions())
        #expect(all.map(\.score) == [0.9, 0.6, 0.3])
        #expect(all[0].box == Detection.Box(x: 0, y: 0, width: 100, height: 50))
        #expect(all[0].normalizedBox == Detection.Box(x: 0, y: 0, width: 1, height: 1))
        #expect(try decoder.detections(in: outputs, photo: photo, options: DetectionOptions(maximumResults: 1)).count == 1)
        #expect(try decoder.detections(in: outputs, photo: photo, options: DetectionOptions(scoreThreshold: 0.5)).count == 2)
        // Without labels, an allow list keeps nothing.
        #expect(try decoder.detections(in: outputs, photo: photo, options: DetectionOptions(categoryAllowlist: ["cat"])).isEmpty)
    }
}
