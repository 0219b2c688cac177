import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio train BUNDLE --data PATH --epochs N --batch-size B [--shuffle] [--seed S]
/// [--placeholder NAME=VALUE]... [--export DIR] [--json]`, on the trainable TensorFlow and TensorFlow
/// Lite bundles.
@Suite("tensorio train")
struct TrainCommandTests {
    private let linear = "Tests/Fixtures/TensorFlowBundles/tf_trainable_linear_test.tiobundle"
    private let digitsTFLite = "Examples/digits-training/digits-train-tflite.tiobundle"
    private let digitsImage = "Examples/digits-training/digits-train-tensorflow-image.tiobundle"
    private let digitsData = "Examples/digits-training/data"

    /// Writes the items `{"x": [x], "y": [2x + 1]}` for each x as a JSON file in `folder`.
    private func writeLine(_ xs: [Double], in folder: URL, name: String = "line.json") throws -> String {
        let items = xs.map { x in #"{"x": [\#(x)], "y": [\#(2 * x + 1)]}"# }
        let url = folder.appendingPathComponent(name)
        try Data(("[\n" + items.joined(separator: ",\n") + "\n]\n").utf8).write(to: url)
        return url.path
    }

    /// Eight points on y = 2x + 1.
    private let points: [Double] = [-2, -1, 0, 0.5, 1, 1.5, 2, 3]

    /// The `epochs` array of a --json run: each entry's numbers by key.
    private func epochs(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Double]] {
        #expect(result.exited && result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdoutLines.count == 1, "one JSON line: \(result)", sourceLocation: sourceLocation)
        let object = try jsonObject(result, sourceLocation: sourceLocation)
        #expect(Set(object.keys) == ["epochs", "steps", "step_seconds", "steps_per_second"], "\(result)", sourceLocation: sourceLocation)
        let entries = try #require(object["epochs"] as? [[String: Any]], "\(result)", sourceLocation: sourceLocation)
        return try entries.map { entry in
            try entry.mapValues { try #require(($0 as? NSNumber)?.doubleValue, "\(result)", sourceLocation: sourceLocation) }
        }
    }

    private func isFalling(_ values: [Double]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $1 < $0 }
    }

    // MARK: TensorFlow linear regression

    @Test("--json prints one object {\"epochs\": [{\"epoch\": 1, \"loss\": …}, …]} with a falling loss")
    func jsonLinear() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let result = try await CLI.run(
                "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.1", "--epochs", "5"
            )
            #expect(result.stderr.isEmpty, "\(result)")
            let entries = try epochs(result)
            #expect(entries.count == 5)
            #expect(entries.map { $0["epoch"] } == [1, 2, 3, 4, 5])
            #expect(entries.allSatisfy { Set($0.keys) == ["epoch", "loss", "seconds"] }, "\(result)")
            let losses = entries.compactMap { $0["loss"] }
            #expect(isFalling(losses), "\(losses)")
            // w = b = 0 before the first step: the mean of y² over the eight points, 114 / 8.
            #expect(abs(losses[0] - 14.25) < 1e-5, "\(losses)")
        }
    }

    @Test("--json reports the training speed: steps, the epochs' seconds added up, and their ratio")
    func jsonSpeed() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let result = try await CLI.run(
                "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.1", "--epochs", "3",
                "--batch-size", "3"
            )
            let object = try jsonObject(result)
            let entries = try epochs(result)
            let seconds = entries.compactMap { $0["seconds"] }
            #expect(seconds.count == 3 && seconds.allSatisfy { $0 > 0 }, "\(result)")
            // Eight items in batches of three: three steps an epoch.
            #expect((object["steps"] as? NSNumber)?.intValue == 9, "\(result)")
            let total = try #require((object["step_seconds"] as? NSNumber)?.doubleValue, "\(result)")
            let rate = try #require((object["steps_per_second"] as? NSNumber)?.doubleValue, "\(result)")
            #expect(abs(total - seconds.reduce(0, +)) <= 1e-9 * max(1, total), "\(result)")
            #expect(abs(rate - 9 / total) <= 1e-6 * rate, "\(result)")
        }
    }

    @Test("the README's batch (x = 1…4) gives the README's losses: 41, 18.414999, 8.274352, …")
    func readmeLosses() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine([1, 2, 3, 4], in: folder)
            let result = try await CLI.run(
                "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.1", "--epochs", "5",
                "--batch-size", "4"
            )
            let losses = try epochs(result).compactMap { $0["loss"] }
            let expected = [41.0, 18.414999, 8.274352, 3.721012, 1.676291]
            #expect(losses.count == 5)
            #expect(zip(losses, expected).allSatisfy { abs($0 - $1) <= 1e-5 * $1 }, "\(losses)")
        }
    }

    @Test("text mode prints a line per epoch: epoch N/E, the loss to 4 decimals and the time")
    func textLinear() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let arguments = ["train", linear, "--data", data, "--placeholder", "learning_rate=0.1", "--epochs", "3", "--batch-size", "2"]
            let text = try await CLI.run(arguments)
            #expect(text.exited && text.status == 0, "\(text)")
            #expect(text.stderr.isEmpty, "\(text)")
            let lines = text.stdoutLines
            #expect(lines.count == 3, "\(text)")
            let json = try epochs(try await CLI.run(arguments + ["--json"]))
            for (index, line) in lines.enumerated() {
                let loss = try #require(json[index]["loss"])
                #expect(line.hasPrefix("epoch \(index + 1)/3  loss \(String(format: "%.4f", loss))  ("), "\(line)")
                #expect(line.hasSuffix(" ms)") || line.hasSuffix(" s)"), "\(line)")
            }
        }
    }

    @Test("text mode pads the epoch number to the width of the count")
    func textPadding() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let result = try await CLI.run(
                "train", linear, "--data", data, "--placeholder", "learning_rate=0.05", "--epochs", "10"
            )
            #expect(result.status == 0, "\(result)")
            let lines = result.stdoutLines
            #expect(lines.count == 10, "\(result)")
            #expect(lines.first?.hasPrefix("epoch  1/10  loss ") == true, "\(result)")
            #expect(lines.last?.hasPrefix("epoch 10/10  loss ") == true, "\(result)")
        }
    }

    @Test("--shuffle --seed repeats a run; another seed shuffles differently")
    func seededShuffle() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            func run(seed: String) async throws -> [Double] {
                try epochs(try await CLI.run(
                    "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.05", "--epochs", "3",
                    "--batch-size", "3", "--shuffle", "--seed", seed
                )).compactMap { $0["loss"] }
            }
            let first = try await run(seed: "11")
            let again = try await run(seed: "11")
            let other = try await run(seed: "12")
            #expect(first.count == 3)
            #expect(first == again)
            #expect(first != other)
        }
    }

    @Test("--export writes a bundle that predicts y = 2x + 1; the original bundle stays untrained")
    func exportLinear() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let exported = folder.appendingPathComponent("trained.tiobundle").path
            let result = try await CLI.run(
                "train", linear, "--data", data, "--placeholder", "learning_rate=0.1", "--epochs", "60",
                "--batch-size", "4", "--export", exported
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdoutLines.count == 61, "\(result)")
            #expect(result.stdoutLines.last == "exported the trained bundle to \(exported)", "\(result)")
            #expect(FileManager.default.fileExists(atPath: exported + "/model.json"))
            // Nothing half-written is left next to it.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") }
            #expect(leftovers.isEmpty, "\(leftovers)")

            for x in [2.0, -1.0, 10.0] {
                let run = try await CLI.run("run", exported, "--input", "x=\(x)")
                #expect(run.status == 0, "\(run)")
                let prediction = try #require(try numbers(jsonObject(run)["prediction"].map { [$0] }).first, "\(run)")
                #expect(abs(prediction - (2 * x + 1)) < 0.05, "x = \(x): \(run)")
            }
            let untrained = try await CLI.run("run", linear, "--input", "x=2")
            #expect(try numbers(jsonObject(untrained)["prediction"].map { [$0] }) == [0], "\(untrained)")
        }
    }

    @Test("--export with --json prints only the JSON object")
    func exportJSON() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let exported = folder.appendingPathComponent("trained.tiobundle").path
            let result = try await CLI.run(
                "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.1", "--export", exported
            )
            #expect(try epochs(result).count == 1)
            #expect(FileManager.default.fileExists(atPath: exported + "/model.json"))
        }
    }

    @Test("--export into an empty folder is allowed")
    func exportIntoEmptyFolder() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let exported = folder.appendingPathComponent("empty.tiobundle")
            try FileManager.default.createDirectory(at: exported, withIntermediateDirectories: true)
            let result = try await CLI.run(
                "train", linear, "--data", data, "--json", "--placeholder", "learning_rate=0.1", "--export", exported.path
            )
            #expect(result.status == 0, "\(result)")
            #expect(FileManager.default.fileExists(atPath: exported.appendingPathComponent("model.json").path))
        }
    }

    // MARK: Digits

    @Test("the TFLite digits bundle trains on train.csv: the loss falls from the untrained 2.48")
    func tfliteCSV() async throws {
        let result = try await CLI.run("train", digitsTFLite, "--data", "\(digitsData)/train.csv", "--epochs", "2", "--json")
        #expect(result.stderr.isEmpty, "\(result)")
        let entries = try epochs(result)
        #expect(entries.map { $0["epoch"] } == [1, 2])
        #expect(entries.allSatisfy { Set($0.keys) == ["epoch", "loss", "seconds"] }, "\(result)")
        let losses = entries.compactMap { $0["loss"] }
        #expect(isFalling(losses), "\(losses)")
        #expect(losses.first.map { $0 < 2.4756 } == true, "\(losses)")
    }

    @Test("a TFLite bundle exported after training predicts differently from the untrained one")
    func tfliteExport() async throws {
        try await withTemporaryDirectory { folder in
            let exported = folder.appendingPathComponent("digits.tiobundle").path
            let result = try await CLI.run(
                "train", digitsTFLite, "--data", "\(digitsData)/train.csv", "--epochs", "1", "--json", "--export", exported
            )
            #expect(result.status == 0, "\(result)")
            #expect(FileManager.default.fileExists(atPath: exported + "/weights.safetensors"))
            let input = "image=[" + (0..<64).map { String(Double($0 % 16) / 16) }.joined(separator: ",") + "]"
            let before = try await CLI.run("run", digitsTFLite, "--input", input)
            let after = try await CLI.run("run", exported, "--input", input)
            #expect(before.status == 0 && after.status == 0, "\(before)\n\(after)")
            #expect(!before.stdout.isEmpty && before.stdout != after.stdout, "\(before)\n\(after)")
        }
    }

    @Test("the GRAY image bundle trains on the train-images folders")
    func imageFolder() async throws {
        let result = try await CLI.run(
            "train", digitsImage, "--data", "\(digitsData)/train-images", "--epochs", "2", "--shuffle", "--seed", "1",
            "--placeholder", "learning_rate=0.3", "--json"
        )
        #expect(result.stderr.isEmpty, "\(result)")
        let entries = try epochs(result)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { Set($0.keys) == ["epoch", "loss", "accuracy", "seconds"] }, "\(result)")
        let losses = entries.compactMap { $0["loss"] }
        #expect(isFalling(losses), "\(losses)")
        // The README measured 1.378 then 0.446 with its shuffle; unshuffled (sorted by label) it stalls above 1.
        #expect(losses.last.map { $0 < 0.8 } == true, "\(losses)")
        let accuracy = entries.compactMap { $0["accuracy"] }
        #expect(accuracy.allSatisfy { (0...1).contains($0) } && accuracy[1] > accuracy[0], "\(accuracy)")
    }

    // MARK: Errors

    @Test("a data path that does not exist")
    func missingData() async throws {
        expectOneLineError(
            try await CLI.run("train", linear, "--data", "no/such/data.json", "--placeholder", "learning_rate=0.1"),
            containing: ["--data no/such/data.json", "no such file"]
        )
    }

    @Test("a data file that is neither .json nor .csv", arguments: ["data.txt", "data", "data.jsonl"])
    func unsupportedExtension(name: String) async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent(name)
            try Data("[]".utf8).write(to: url)
            expectOneLineError(
                try await CLI.run("train", linear, "--data", url.path, "--placeholder", "learning_rate=0.1"),
                containing: ["--data", name, ".json or a .csv"]
            )
        }
    }

    @Test("an unknown --placeholder, or one without a value")
    func badPlaceholder() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            expectOneLineError(
                try await CLI.run("train", linear, "--data", data, "--placeholder", "rate=0.1"),
                containing: ["--placeholder rate=0.1", #"no placeholder named "rate""#, "learning_rate"], status: 64
            )
            expectOneLineError(
                try await CLI.run("train", linear, "--data", data, "--placeholder", "learning_rate"),
                containing: ["--placeholder learning_rate", "NAME=VALUE"], status: 64
            )
            expectOneLineError(
                try await CLI.run("train", linear, "--data", data, "--placeholder", "learning_rate=fast"),
                containing: ["learning_rate=fast"]
            )
        }
        expectOneLineError(
            try await CLI.run("train", digitsTFLite, "--data", "\(digitsData)/test.csv", "--placeholder", "learning_rate=0.3"),
            containing: [#"no placeholder named "learning_rate""#, "none"], status: 64
        )
    }

    @Test("a placeholder the training graph needs but was not given")
    func missingPlaceholder() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            expectOneLineError(try await CLI.run("train", linear, "--data", data), containing: ["learning_rate"])
        }
    }

    @Test("a bundle that does not train")
    func bundleWithoutTrainMode() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder.appendingPathComponent("data.json")
            try Data(#"[{"input": 1}]"#.utf8).write(to: data)
            expectOneLineError(
                try await CLI.run("train", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--data", data.path),
                containing: ["1_in_1_out_number_test.tiobundle", "does not train", "model.modes"]
            )
        }
    }

    @Test("a CSV file with a column that names no input layer")
    func csvUnknownColumn() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder.appendingPathComponent("data.csv")
            try Data("x,z\n1,3\n2,5\n".utf8).write(to: data)
            expectOneLineError(
                try await CLI.run("train", linear, "--data", data.path, "--placeholder", "learning_rate=0.1"),
                containing: ["data.csv", #""z""#, "matches no input layer"]
            )
        }
    }

    @Test("training data that does not fit: not an array, a class index out of range")
    func badData() async throws {
        try await withTemporaryDirectory { folder in
            let object = folder.appendingPathComponent("object.json")
            try Data(#"{"x": [1], "y": [3]}"#.utf8).write(to: object)
            expectOneLineError(
                try await CLI.run("train", linear, "--data", object.path, "--placeholder", "learning_rate=0.1"),
                containing: ["object.json", "array"]
            )
            let pixels = (0..<64).map { _ in "0" }.joined(separator: ",")
            let labels = folder.appendingPathComponent("labels.json")
            try Data(#"[{"image": [\#(pixels)], "label": 3}, {"image": [\#(pixels)], "label": 12}]"#.utf8).write(to: labels)
            expectOneLineError(
                try await CLI.run("train", digitsTFLite, "--data", labels.path),
                containing: ["labels.json[1].label", "0 to 9"]
            )
        }
    }

    @Test("--epochs or --batch-size below 1", arguments: [["--epochs", "0"], ["--epochs=-2"], ["--batch-size", "0"], ["--batch-size=-1"]])
    func badCounts(option: [String]) async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            expectUsageError(
                try await CLI.run(["train", linear, "--data", data, "--placeholder", "learning_rate=0.1"] + option),
                containing: [String(option[0].prefix { $0 != "=" }), "at least 1"]
            )
        }
    }

    @Test("exporting into a folder that is not empty fails before training and leaves the folder alone", arguments: [false, true])
    func exportIntoNonEmptyFolder(json: Bool) async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let taken = folder.appendingPathComponent("taken.tiobundle")
            try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: taken.appendingPathComponent("notes.txt"))
            let result = try await CLI.run(
                ["train", linear, "--data", data, "--placeholder", "learning_rate=0.1", "--export", taken.path]
                    + (json ? ["--json"] : [])
            )
            expectOneLineError(result, containing: [taken.path, "not an empty folder"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: taken.path) == ["notes.txt"])
            #expect(try Data(contentsOf: taken.appendingPathComponent("notes.txt")) == Data("mine".utf8))
        }
    }

    @Test("exporting onto an existing file fails")
    func exportOntoFile() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let file = folder.appendingPathComponent("file.tiobundle")
            try Data("x".utf8).write(to: file)
            expectOneLineError(
                try await CLI.run("train", linear, "--data", data, "--placeholder", "learning_rate=0.1", "--export", file.path, "--json"),
                containing: [file.path]
            )
            #expect(try Data(contentsOf: file) == Data("x".utf8))
        }
    }

    @Test("a TensorFlow bundle without the TensorFlow runtime names the install script")
    func missingTensorFlow() async throws {
        try await withTemporaryDirectory { folder in
            let data = try writeLine(points, in: folder)
            let result = try await CLI.run(
                ["train", linear, "--data", data, "--placeholder", "learning_rate=0.1"],
                environment: ["TENSORIO_TENSORFLOW_LIBRARY": "/nonexistent/libtensorflow_cc.so.2"]
            )
            expectOneLineError(result, containing: ["install-tensorflow.sh", "/nonexistent/libtensorflow_cc.so.2"])
        }
    }
}
