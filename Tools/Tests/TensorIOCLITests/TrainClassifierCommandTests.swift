#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio train-classifier` and `tensorio classify` on what it writes (issue 40): a hand landmarker base on
/// the gesture photos, the EfficientNet-Lite0 embedder on the example photos, feature vectors from a CSV file,
/// the command lines it refuses, and Ctrl-C.
@Suite("CLI: train-classifier")
struct TrainClassifierCommandTests {
    static let gestures = ["call", "four", "none", "rock"]
    static let photoNames = gestures.flatMap { TestData.names(under: "task-data/gestures/\($0)") }
    static let embedder = "Examples/efficientnet-lite0-embedding.tiobundle"

    /// The gesture class `label`'s folder in the test-data cache.
    static func folder(_ label: String) -> String { TestData.cacheDirectory.appendingPathComponent("task-data/gestures/\(label)").path }

    /// `--class NAME=FOLDER` for every gesture class.
    static var gestureClasses: [String] { gestures.flatMap { ["--class", "\($0)=\(folder($0))"] } }

    /// A hand landmarker bundle in `folder`, made by `tensorio init` from MediaPipe's models (`make setup-zoo`).
    static func handBundle(in folder: URL) async throws -> String {
        let bundle = folder.appendingPathComponent("hand.tiobundle").path
        let written = try await CLI.run(
            "init", LandmarksCommandTests.palm, LandmarksCommandTests.hand, "--landmarker", "hand", "-o", bundle)
        #expect(written.status == 0, "\(written)")
        return bundle
    }

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    /// The top-level keys of train-classifier's JSON line are in the documented order.
    static func expectKeyOrder(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var rest = line[...]
        for part in [#"{"output":"#, #","base":"#, #","backend":"#, #","classes":["#, #"],"skipped":["#, #"],"epochs":"#,
                     #","learning_rate":"#, #","weight_decay":"#, #","training":{"accuracy":"#, #"},"validation":"#] {
            guard let range = rest.range(of: part) else {
                Issue.record("\(part) missing or out of order in \(line)", sourceLocation: sourceLocation)
                return
            }
            rest = rest[range.upperBound...]
        }
    }

    /// Nothing at `output`, and no hidden staging folder (`.NAME.partial-*`) beside it.
    static func expectNothingWritten(_ output: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(output.path) was written", sourceLocation: sourceLocation)
        let beside = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
        #expect(!beside.contains { $0.hasPrefix(".\(output.lastPathComponent).partial-") }, "left behind: \(beside)", sourceLocation: sourceLocation)
    }

    @Test("a hand landmarker base: --json reports the 4 gesture classes and the 3 photos without a hand; classify gives each photo's class first, per hand",
          TestData.required(photoNames))
    func handBase() async throws {
        try await withTemporaryDirectory { folder in
            let base = try await Self.handBundle(in: folder)
            let output = folder.appendingPathComponent("gestures.tiobundle").path
            let trained = try await CLI.run(["train-classifier", base] + Self.gestureClasses + ["--output", output, "--json"])
            #expect(trained.status == 0 && trained.stdoutLines.count == 1, "\(trained)")
            Self.expectKeyOrder(trained.stdout)
            let report = try Self.json(trained)
            #expect(report["output"] as? String == output && report["base"] as? String == "hand_world_landmarks")
            #expect(report["backend"] as? String == "tflite" && report["epochs"] as? Int == 200)
            let classes = try #require(report["classes"] as? [[String: Any]])
            #expect(classes.map { $0["label"] as? String } == Self.gestures)
            #expect(classes.allSatisfy { $0["photos"] as? Int == 7 && $0["training"] as? Int == $0["used"] as? Int && $0["validation"] as? Int == 0 })
            #expect(classes.reduce(0) { $0 + ($1["used"] as? Int ?? 0) } == 25)
            let skipped = try #require(report["skipped"] as? [[String: String]])
            #expect(skipped.count == 3 && skipped.allSatisfy { $0["reason"] == "the base finds no hand" }, "\(skipped)")
            // Named as the folders were given, each also said on stderr as it happened (in the order the
            // photos were done).
            #expect(skipped.allSatisfy { entry in Self.gestures.contains { entry["path"]?.hasPrefix(Self.folder($0) + "/") == true } })
            #expect(trained.stderrLines.sorted() == skipped.map { "skipped \($0["path"]!): the base finds no hand" }.sorted(), "\(trained)")
            #expect(((report["training"] as? [String: Double])?["accuracy"] ?? 0) >= 0.95)
            #expect(report["validation"] is NSNull)

            // One photo with a hand per class, and one without.
            let skippedPaths = Set(skipped.compactMap { $0["path"] })
            let photos = try Self.gestures.map { label in
                try #require(try FileManager.default.contentsOfDirectory(atPath: Self.folder(label)).sorted()
                    .map { "\(Self.folder(label))/\($0)" }.first { !skippedPaths.contains($0) })
            }
            let noHand = try #require(skipped.first?["path"])
            let classified = try await CLI.run(["classify", output] + photos + [noHand, "--json", "--jobs", "2", "--top", "2"])
            #expect(classified.status == 0 && classified.stdoutLines.count == 1, "\(classified)")
            #expect(classified.stdout.hasPrefix(#"{"images":[{"path":"#) && classified.stdout.contains(#"{"handedness":{"label":"#))
            let images = try #require(try Self.json(classified)["images"] as? [[String: Any]])
            #expect(images.map { $0["path"] as? String } == photos + [noHand])
            for (image, label) in zip(images, Self.gestures) {
                let instances = try #require(image["instances"] as? [[String: Any]])
                #expect(!instances.isEmpty && instances.allSatisfy { Set($0.keys) == ["handedness", "box", "classification"] }, "\(image)")
                let box = try #require(instances.first?["box"] as? [String: Double])
                #expect(Set(box.keys) == ["x", "y", "width", "height"])
                let best = try #require(instances.first?["classification"] as? [[String: Any]])
                #expect(best.count == 2 && best.first?["label"] as? String == label, "\(image)")
            }
            #expect((images.last?["instances"] as? [Any])?.isEmpty == true)

            let text = try await CLI.run("classify", output, photos[0], "--top", "1")
            let lines = text.stdoutLines
            #expect(text.status == 0 && lines.count >= 3, "\(text)")
            #expect(lines.first == photos[0] && lines.dropFirst().first?.hasPrefix("  hand 1: ") == true, "\(text)")
            #expect(lines.dropFirst(2).first?.hasPrefix("    1. call  0.") == true, "\(text)")

            let inspected = try await CLI.run("inspect", output)
            #expect(inspected.stdoutLines.contains("Classifier head:"), "\(inspected)")
            #expect(inspected.stdoutLines.contains { $0.hasPrefix("  base base.tiobundle, 63 hand_world_landmarks features into features, 4 classes (labels.txt: call, four, none, rock)") }, "\(inspected)")
        }
    }

    @Test("an embedder base with a validation split: the JSON's validation, and classify's one classification per photo")
    func embedderBase() async throws {
        try await withTemporaryDirectory { folder in
            for (label, names) in [("things", ["cat", "coffee"]), ("people", ["grace_hopper", "flower"])] {
                let classFolder = folder.appendingPathComponent(label)
                try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
                for name in names {
                    try FileManager.default.copyItem(atPath: "\(Fixtures.repositoryRoot.path)/Examples/photos/\(name).jpg", toPath: classFolder.appendingPathComponent("\(name).jpg").path)
                }
            }
            let output = folder.appendingPathComponent("mine.tiobundle").path
            let trained = try await CLI.run([
                "train-classifier", Self.embedder, "--class", "things=\(folder.path)/things", "--class", "people=\(folder.path)/people",
                "--output", output, "--validation-split", "0.5", "--json",
            ])
            #expect(trained.status == 0 && trained.stdoutLines.count == 1 && trained.stderr.isEmpty, "\(trained)")
            Self.expectKeyOrder(trained.stdout)
            let report = try Self.json(trained)
            #expect(report["base"] as? String == "embedding" && (report["skipped"] as? [Any])?.isEmpty == true)
            let classes = try #require(report["classes"] as? [[String: Any]])
            #expect(classes.allSatisfy { $0["photos"] as? Int == 2 && $0["used"] as? Int == 2 && $0["training"] as? Int == 1 && $0["validation"] as? Int == 1 })
            let validation = try #require(report["validation"] as? [String: Double])
            #expect(Set(validation.keys) == ["accuracy", "loss"])

            let classified = try await CLI.run("classify", output, "Examples/photos/china.jpg", "Examples/photos/cat.jpg", "--json", "--top", "1")
            #expect(classified.status == 0 && classified.stdoutLines.count == 1, "\(classified)")
            let images = try #require(try Self.json(classified)["images"] as? [[String: Any]])
            #expect(images.count == 2 && images.allSatisfy { Set($0.keys) == ["path", "classification"] })
            for image in images {
                let entries = try #require(image["classification"] as? [[String: Any]])
                #expect(entries.count == 1 && ["things", "people"].contains(entries[0]["label"] as? String ?? "") && entries[0]["score"] is Double)
            }
        }
    }

    @Test("--features-csv: rows grouped by label in the order they first appear; a malformed file is one line naming FILE:LINE, nothing written")
    func featuresCSV() async throws {
        try await withTemporaryDirectory { folder in
            let csv = folder.appendingPathComponent("features.csv")
            try Data("label,x,y\nhigh,0.9,1\nlow,0,0.1\nhigh,1,0.8\nlow,0.1,0\n\"low\", 0.2 ,0.1\r\n\n".utf8).write(to: csv)
            let output = folder.appendingPathComponent("given.tiobundle")
            let trained = try await CLI.run("train-classifier", "--features-csv", csv.path, "--output", output.path, "--json", "--epochs", "50")
            #expect(trained.status == 0 && trained.stdoutLines.count == 1, "\(trained)")
            let report = try Self.json(trained)
            #expect(report["base"] as? String == "given" && report["epochs"] as? Int == 50)
            let classes = try #require(report["classes"] as? [[String: Any]])
            #expect(classes.map { $0["label"] as? String } == ["high", "low"] && classes.map { $0["photos"] as? Int } == [2, 3])

            let text = try await CLI.run("train-classifier", "--features-csv", csv.path, "-o", folder.appendingPathComponent("text.tiobundle").path, "--epochs", "50")
            #expect(text.status == 0 && text.stdoutLines.first?.hasPrefix("high  used 2/2 rows, training 2, validation 0") == true, "\(text)")
            #expect(text.stdoutLines.last?.hasPrefix("wrote \(folder.path)/text.tiobundle: a tflite head on 2 given features, 50 epochs") == true, "\(text)")

            for (name, contents, message) in [
                ("word.csv", "label,x,y\nhigh,0.9,1\nlow,0,0.1\nlow,0.1,abc\n", #"word.csv:4: column 3 (y) is "abc", not a number"#),
                ("ragged.csv", "label,x,y\nhigh,0.9,1\nlow,0\n", "ragged.csv:3: 2 columns where the header has 3"),
                ("infinite.csv", "label,x\nhigh,1e39\nlow,0\n", #"infinite.csv:2: column 2 (x) is "1e39", not a finite number"#),
                ("header.csv", "class,x\nhigh,1\nlow,0\n", #"header.csv:1: the header's first column must be "label""#),
            ] {
                let file = folder.appendingPathComponent(name)
                try Data(contents.utf8).write(to: file)
                let bad = folder.appendingPathComponent("bad.tiobundle")
                let result = try await CLI.run("train-classifier", "--features-csv", file.path, "--output", bad.path)
                #expect(result.status == 1 && result.stdout.isEmpty && result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.hasPrefix("error: \(folder.path)/\(message)"), "\(result)")
                try Self.expectNothingWritten(bad)
            }
        }
    }

    @Test("refused, each with one error line and nothing written: an empty class folder, one class, NAME without =, an output in use, a base that gives no features, --epochs 0, BASE with --features-csv")
    func refusals() async throws {
        try await withTemporaryDirectory { folder in
            let (photos, empty) = (folder.appendingPathComponent("photos"), folder.appendingPathComponent("empty"))
            for created in [photos, empty] { try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true) }
            try FileManager.default.copyItem(atPath: "\(Fixtures.repositoryRoot.path)/Examples/photos/cat.jpg", toPath: photos.appendingPathComponent("cat.jpg").path)
            let used = folder.appendingPathComponent("used.tiobundle")
            try FileManager.default.createDirectory(at: used, withIntermediateDirectories: true)
            try Data("mine\n".utf8).write(to: used.appendingPathComponent("notes.txt"))
            let output = folder.appendingPathComponent("out.tiobundle").path
            let two = ["--class", "a=\(photos.path)", "--class", "b=\(photos.path)"]
            let cases: [(arguments: [String], status: Int32, message: String)] = [
                ([Self.embedder, "--class", "a=\(empty.path)", "--class", "b=\(photos.path)", "-o", output], 1,
                 #"\#(empty.path) (class "a") holds no JPEG or PNG file"#),
                ([Self.embedder, "--class", "a=\(photos.path)", "-o", output], 64, "give at least two classes"),
                ([Self.embedder, "--class", "a", "--class", "b=\(photos.path)", "-o", output], 64, "--class a: expected NAME=FOLDER"),
                ([Self.embedder, "--class", "a=", "--class", "b=\(photos.path)", "-o", output], 64, "--class a=: expected NAME=FOLDER, the folder is empty"),
                ([Self.embedder] + two + ["-o", used.path], 1, "--output \(used.path) already exists and is not an empty folder"),
                (["Examples/efficientnet-lite0-float32.tiobundle"] + two + ["-o", output], 1,
                 "efficientnet-lite0-float32.tiobundle is neither an embedder"),
                ([Self.embedder] + two + ["-o", output, "--epochs", "0"], 64, "--epochs must be from 1 to 100000"),
                ([Self.embedder, "--features-csv", "x.csv", "-o", output], 64, "give a BASE bundle with --class folders, or --features-csv, not both"),
            ]
            for (arguments, status, message) in cases {
                let result = try await CLI.run(["train-classifier"] + arguments)
                #expect(result.exited && result.status == status && result.stdout.isEmpty && result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.hasPrefix("error: \(message)"), "\(result)")
                try Self.expectNothingWritten(URL(fileURLWithPath: output))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: used.path) == ["notes.txt"])
        }
    }

    @Test("Ctrl-C while training: exit status 130, one line, nothing at --output and no staging folder beside it", TestData.required(photoNames))
    func interrupted() async throws {
        try await withTemporaryDirectory { folder in
            let base = try await Self.handBundle(in: folder)
            let output = folder.appendingPathComponent("long.tiobundle")
            let child = try CLI.start(["train-classifier", base] + Self.gestureClasses + ["--output", output.path, "--epochs", "100000"])
            // Its 3 skipped photos are said while the photos are read; the 100,000 epochs (seconds) follow.
            let deadline = ContinuousClock.now + .seconds(20)
            while child.process.isRunning, child.stderrSoFar.split(separator: "\n").count < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(child.process.isRunning, "it ended before the signal: \(child.stderrSoFar)")
            kill(child.process.processIdentifier, SIGINT)
            let result = try await child.result()
            #expect(result.exited && result.status == 130, "\(result)")
            #expect(result.stdout.isEmpty && result.stderrLines.last == "cancelled: nothing written at \(output.path)", "\(result)")
            try Self.expectNothingWritten(output)
        }
    }
}
