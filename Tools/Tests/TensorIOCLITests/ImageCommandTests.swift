import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio classify`, `tensorio run --image` and `tensorio eval` on the real example bundles and photos.
@Suite("CLI: image commands")
struct ImageCommandTests {
    static let float32 = "Examples/efficientnet-lite0-float32.tiobundle"
    static let uint8 = "Examples/efficientnet-lite0-uint8.tiobundle"
    static let cat = "Examples/photos/cat.jpg"
    static let coffee = "Examples/photos/coffee.jpg"
    static let catLabels: Set<String> = ["Egyptian cat", "tabby", "tiger cat"]
    static let digitsImages = "Examples/digits/test-images"

    /// One ranked line of the `classify` table: `  1. Egyptian cat  0.3907`.
    struct Entry: Equatable {
        var rank: Int
        var label: String
        var score: Double
    }

    /// Parses a table block's ranked lines; `nil` when a line does not look like one.
    static func entries(_ lines: some Collection<String>) -> [Entry]? {
        let pattern = /^  (\d+)\. (.+?) +(\d\.\d{4})$/
        var result: [Entry] = []
        for line in lines {
            guard let match = line.wholeMatch(of: pattern), let rank = Int(match.1), let score = Double(match.3) else {
                return nil
            }
            result.append(Entry(rank: rank, label: String(match.2), score: score))
        }
        return result
    }

    /// The table's blocks: a path line followed by ranked lines, blocks separated by an empty line.
    static func blocks(_ result: ProcessResult) -> [(path: String, entries: [Entry]?)] {
        result.stdoutLines.split(separator: "", omittingEmptySubsequences: false).map { block in
            (block.first ?? "", entries(block.dropFirst()))
        }
    }

    func expectRanked(_ entries: [Entry], count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(entries.map(\.rank) == Array(1...count), "\(entries)", sourceLocation: sourceLocation)
        #expect(entries.allSatisfy { (0...1).contains($0.score) }, "\(entries)", sourceLocation: sourceLocation)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.score >= $1.score }, "\(entries)",
                sourceLocation: sourceLocation)
    }

    // MARK: - classify

    @Test("classify --jobs 2 prints the same results in the same order as --jobs 1, failures at the end")
    func classifyJobs() async throws {
        let photos = ["cat.jpg", "china.jpg", "coffee.jpg", "flower.jpg", "grace_hopper.jpg", "retina.jpg"]
            .map { "Examples/photos/\($0)" }
        let paths = photos + photos.reversed() + ["Examples/photos/missing.jpg"] + photos
        let one = try await CLI.run(["classify", Self.uint8] + paths + ["--jobs", "1", "--top", "2"])
        let two = try await CLI.run(["classify", Self.uint8] + paths + ["--jobs", "2", "--top", "2"])
        #expect(one.exited && one.status == 1, "\(one)")
        #expect(two.exited && two.status == 1, "\(two)")
        #expect(two.stdout == one.stdout, "\(two)")
        #expect(Self.blocks(two).map(\.path) == paths.filter { !$0.hasSuffix("missing.jpg") })
        #expect(two.stderr.contains("missing.jpg"), "\(two)")
        let invalid = try await CLI.run("classify", Self.uint8, Self.cat, "--jobs", "0")
        #expect(invalid.exited && invalid.status != 0 && invalid.stderr.contains("--jobs"), "\(invalid)")
    }

    @Test("classify cat.jpg prints a table whose first entry is a cat", arguments: [float32, uint8])
    func classifyCat(_ bundle: String) async throws {
        let result = try await CLI.run("classify", bundle, Self.cat)
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let blocks = Self.blocks(result)
        #expect(blocks.count == 1, "\(result)")
        #expect(blocks.first?.path == Self.cat)
        let entries = try #require(blocks.first?.entries, "\(result)")
        #expect(entries.count == 5, "the default is --top 5: \(result)")
        expectRanked(entries, count: 5)
        #expect(Self.catLabels.contains(entries.first?.label ?? ""), "\(result)")
        // The three cat classes are the first three (the README's table, both models).
        #expect(Set(entries.prefix(3).map(\.label)) == Self.catLabels, "\(result)")
    }

    @Test("classify --json is one object parsed by JSONSerialization", arguments: [float32, uint8])
    func classifyJSON(_ bundle: String) async throws {
        let result = try await CLI.run("classify", bundle, Self.cat, "--json")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 1, "\(result)")
        let json = try jsonObject(result)
        let images = try #require(json["images"] as? [[String: Any]], "\(result)")
        #expect(images.count == 1)
        #expect(images.first?["path"] as? String == Self.cat)
        let classification = try #require(images.first?["classification"] as? [[String: Any]], "\(result)")
        #expect(classification.count == 5)
        let labels = classification.compactMap { $0["label"] as? String }
        let scores = classification.compactMap { ($0["score"] as? NSNumber)?.doubleValue }
        #expect(labels.count == 5 && scores.count == 5, "\(result)")
        #expect(Self.catLabels.contains(labels.first ?? ""), "\(result)")
        #expect(scores.allSatisfy { (0...1).contains($0) })
        #expect(scores == scores.sorted(by: >))
    }

    @Test("classify --top 1 prints one entry")
    func classifyTop1() async throws {
        let result = try await CLI.run("classify", Self.float32, Self.coffee, "--top", "1")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 2, "\(result)")
        let entries = try #require(Self.blocks(result).first?.entries, "\(result)")
        #expect(entries.map(\.label) == ["espresso"])
        #expect(entries.first.map { $0.score > 0.9 } == true, "\(result)")
    }

    @Test("classify --threshold 0.1 keeps only espresso for coffee; a high threshold says so")
    func classifyThreshold() async throws {
        let result = try await CLI.run("classify", Self.uint8, Self.coffee, "--threshold", "0.1")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(Self.blocks(result).first?.entries?.map(\.label) == ["espresso"], "\(result)")

        let none = try await CLI.run("classify", Self.float32, Self.cat, "--threshold", "0.99")
        #expect(none.exited && none.status == 0, "\(none)")
        #expect(none.stdoutLines == [Self.cat, "  (no label above the threshold)"], "\(none)")
    }

    @Test("classify several images: one block each, in order", arguments: [float32, uint8])
    func classifySeveral(_ bundle: String) async throws {
        let result = try await CLI.run("classify", bundle, Self.cat, Self.coffee, Self.cat, "--top", "3")
        #expect(result.exited && result.status == 0, "\(result)")
        let blocks = Self.blocks(result)
        #expect(blocks.map(\.path) == [Self.cat, Self.coffee, Self.cat], "\(result)")
        for block in blocks {
            let entries = try #require(block.entries, "\(result)")
            expectRanked(entries, count: 3)
        }
        #expect(Self.catLabels.contains(blocks.first?.entries?.first?.label ?? ""), "\(result)")
        #expect(blocks.dropFirst().first?.entries?.first?.label == "espresso", "\(result)")
        // The same image twice gives the same lines.
        #expect(blocks.first?.entries == blocks.last?.entries)

        let json = try jsonObject(try await CLI.run("classify", bundle, Self.cat, Self.coffee, "--json", "--top", "2"))
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.compactMap { $0["path"] as? String } == [Self.cat, Self.coffee])
        let coffeeTop = (images.last?["classification"] as? [[String: Any]])?.first?["label"] as? String
        #expect(coffeeTop == "espresso")
    }

    @Test("classify a PNG")
    func classifyOtherFiles() async throws {
        try await withTemporaryDirectory { folder in
            let original = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(Self.cat))
            // The cat re-encoded as PNG.
            let png = folder.appendingPathComponent("cat.png")
            try PixelBuffer(data: original).write(to: png)
            let result = try await CLI.run("classify", Self.float32, png.path, "--top", "1")
            #expect(result.exited && result.status == 0, "\(result)")
            #expect(Self.catLabels.contains(Self.blocks(result).first?.entries?.first?.label ?? ""), "\(result)")
        }
    }

    // MARK: - run --image

    @Test("run --image on EfficientNet with --top 5 prints JSON with labels", arguments: [float32, uint8])
    func runImageClassifier(_ bundle: String) async throws {
        for image in [Self.cat, "image=\(Self.cat)"] {
            let result = try await CLI.run("run", bundle, "--image", image, "--top", "5")
            #expect(result.exited && result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let json = try jsonObject(result)
            #expect(Array(json.keys) == ["classification"], "\(result)")
            let scores = try #require(json["classification"] as? [String: Any], "\(result)")
            #expect(scores.count == 5)
            let values = scores.compactMapValues { ($0 as? NSNumber)?.doubleValue }
            #expect(values.count == 5)
            let best = try #require(values.max { $0.value < $1.value })
            #expect(Self.catLabels.contains(best.key), "\(result)")
            // Best first, as printed.
            #expect(topLevelKeys(result.stdout) == ["classification"])
            #expect(result.stdout.hasPrefix("{\"classification\":{\"\(best.key)\":"), "\(result)")
        }
    }

    @Test("run --image on pixelbuffer_identity_test writes output.png, which re-reads as the input colour")
    func runImageOutput() async throws {
        try await withTemporaryDirectory { folder in
            let colour: [UInt8] = [12, 200, 99]
            let input = folder.appendingPathComponent("input.png")
            try PixelBuffer(width: 224, height: 224, format: .rgb,
                            bytes: Array([[UInt8]](repeating: colour, count: 224 * 224).joined())).write(to: input)
            let outputDirectory = folder.appendingPathComponent("out/nested")
            let result = try await CLI.run([
                "run", Fixtures.path("pixelbuffer_identity_test.tiobundle"), "--image", input.path,
                "--output-dir", outputDirectory.path,
            ])
            #expect(result.exited && result.status == 0, "\(result)")
            let json = try jsonObject(result)
            let path = try #require(json["output"] as? String, "\(result)")
            #expect(URL(fileURLWithPath: path).standardizedFileURL == outputDirectory.appendingPathComponent("output.png").standardizedFileURL,
                    "\(result)")
            let written = try PixelBuffer(contentsOf: URL(fileURLWithPath: path))
            #expect(written.width == 224 && written.height == 224)
            #expect(written.format == .rgba)
            let pixels = Set(stride(from: 0, to: written.bytes.count, by: 4).map { Array(written.bytes[$0..<($0 + 4)]) })
            #expect(pixels == [colour + [255]], "\(pixels.prefix(3))")
        }
    }

    @Test("run --image with a gray model writes a gray PNG")
    func runGrayOutput() async throws {
        try await withTemporaryDirectory { folder in
            let input = folder.appendingPathComponent("gray.png")
            try PixelBuffer(width: 8, height: 8, format: .gray, bytes: (0..<64).map { UInt8($0 * 4) }).write(to: input)
            let result = try await CLI.run([
                "run", Fixtures.path("image_gray_test.tiobundle"), "--image", "input=\(input.path)", "--output-dir", folder.path,
            ])
            #expect(result.exited && result.status == 0, "\(result)")
            let written = try PixelBuffer(contentsOf: folder.appendingPathComponent("output.png"))
            #expect(written.format == .gray)
            #expect(written.bytes == (0..<64).map { 255 - UInt8($0 * 4) })
        }
    }

    @Test("run --image NAME=PATH for each of two image inputs")
    func runTwoImages() async throws {
        try await withTemporaryDirectory { folder in
            let white = folder.appendingPathComponent("white.png")
            let colour = folder.appendingPathComponent("colour.png")
            try PixelBuffer(width: 4, height: 4, format: .gray, repeating: 255).write(to: white)
            try PixelBuffer(width: 4, height: 4, format: .rgb,
                            bytes: Array([[UInt8]](repeating: [51, 102, 153], count: 16).joined())).write(to: colour)
            let result = try await CLI.run([
                "run", Fixtures.path("two_images_test.tiobundle"), "--image", "right=\(colour.path)", "--image", "left=\(white.path)",
            ])
            #expect(result.exited && result.status == 0, "\(result)")
            let output = try numbers(try jsonObject(result)["output"])
            #expect(output.count == 2 && abs(output[0] - 1) < 1e-6 && abs(output[1] - 0.4) < 1e-6, "\(result)")
        }
    }

    @Test("run without --output-dir for a model with image outputs → one-line usage error, exit 64, nothing written")
    func runImageOutputWithoutDirectory() async throws {
        try await withTemporaryDirectory { folder in
            let result = try await CLI.run(
                ["run", Fixtures.url("pixelbuffer_identity_test.tiobundle").path, "--image", Fixtures.repositoryRoot.appendingPathComponent(Self.cat).path],
                currentDirectory: folder
            )
            expectUsageError(result, containing: ["--output-dir"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test("run --image for an array layer → one-line error naming the layer")
    func runImageToArrayLayer() async throws {
        let result = try await CLI.run("run", Fixtures.path("1_in_1_out_vectors_test.tiobundle"), "--image", Self.cat)
        expectOneLineError(result, containing: ["input", "not an image layer"])
    }

    // MARK: - eval

    static func expectedAccuracy(_ name: String) throws -> [String: Any] {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Examples/digits/expected-accuracy.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return try #require(json[name] as? [String: Any])
    }

    @Test("eval the digits bundles --top 3 --json: the accuracies of expected-accuracy.json",
          arguments: ["digits-float32", "digits-uint8"])
    func evalDigits(_ name: String) async throws {
        let expected = try Self.expectedAccuracy(name)
        let result = try await CLI.run("eval", "Examples/digits/\(name).tiobundle", Self.digitsImages, "--top", "3", "--json")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let json = try jsonObject(result)
        let images = try #require((json["images"] as? NSNumber)?.intValue, "\(result)")
        #expect(images == 360)
        #expect(images == expected["images"] as? Int)
        #expect((json["k"] as? NSNumber)?.intValue == 3)
        let top1 = try #require((json["top1"] as? NSNumber)?.doubleValue)
        let topK = try #require((json["top_k"] as? NSNumber)?.doubleValue)
        let correctTop1 = try #require(expected["correct_top1"] as? Int)
        let correctTop3 = try #require(expected["correct_top3"] as? Int)
        #expect(Int((top1 * Double(images)).rounded()) == correctTop1, "top1 \(top1)")
        #expect(Int((topK * Double(images)).rounded()) == correctTop3, "top_k \(topK)")
        #expect(abs(top1 - (expected["top1"] as? Double ?? -1)) < 1e-6)
        #expect(abs(topK - (expected["top3"] as? Double ?? -1)) < 1e-6)

        // The confusions are the off-diagonal cells of the expected confusion matrix.
        let matrix = try #require(expected["confusion"] as? [[Int]])
        var expectedConfusions: [String: Int] = [:]
        for (truth, row) in matrix.enumerated() {
            for (predicted, count) in row.enumerated() where truth != predicted && count > 0 {
                expectedConfusions["\(truth)→\(predicted)"] = count
            }
        }
        let confusions = try #require(json["confusions"] as? [[String: Any]], "\(result)")
        var actual: [String: Int] = [:]
        for entry in confusions {
            let label = try #require(entry["label"] as? String), predicted = try #require(entry["predicted"] as? String)
            actual["\(label)→\(predicted)"] = (entry["count"] as? NSNumber)?.intValue
        }
        #expect(actual == expectedConfusions)
        let counts = confusions.compactMap { ($0["count"] as? NSNumber)?.intValue }
        #expect(counts == counts.sorted(by: >), "most frequent first")

        let latency = try #require(json["latency_ms"] as? [String: Any])
        let p50 = try #require((latency["p50"] as? NSNumber)?.doubleValue)
        let p99 = try #require((latency["p99"] as? NSNumber)?.doubleValue)
        let maximum = try #require((latency["max"] as? NSNumber)?.doubleValue)
        #expect(p50 > 0 && p50 <= p99 && p99 <= maximum)
    }

    @Test("eval's text report gives the counts")
    func evalText() async throws {
        let result = try await CLI.run("eval", "Examples/digits/digits-float32.tiobundle", Self.digitsImages, "--top", "3")
        #expect(result.exited && result.status == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first == "images: 360", "\(result)")
        #expect(lines.contains("top-1 accuracy: 0.9806 (353/360)"), "\(result)")
        #expect(lines.contains("top-3 accuracy: 1.0000 (360/360)"), "\(result)")
        #expect(lines.contains("  4 → 9: 3"), "\(result)")
        // No progress bar when stderr is not a terminal.
        #expect(result.stderr.isEmpty, "\(result)")
    }

    // MARK: - Bad images

    @Test("classify / run --image with a missing file → one line naming the file as given, exit 1")
    func missingImage() async throws {
        let missing = "Examples/photos/no-such-photo.jpg"
        expectOneLineError(try await CLI.run("classify", Self.float32, missing), containing: ["error: \(missing): the image does not exist"])
        expectOneLineError(try await CLI.run("run", Self.float32, "--image", missing), containing: ["error: \(missing): the image does not exist"])
    }

    @Test("classify over good and bad inputs: each good result printed, then one line per failure, exit 1")
    func classifyKeepsTheGoodOnes() async throws {
        let missing = "Examples/photos/no-such-photo.jpg"
        let result = try await CLI.run("classify", Self.float32, missing, Self.cat, "Examples/photos", "--top", "1")
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("\(Self.cat)\n  1. "), "\(result)")
        #expect(result.stderrLines == [
            "error: \(missing): the image does not exist",
            "error: Examples/photos is a folder: give the image files in it, such as Examples/photos/*.jpg",
        ], "\(result)")
        // The JSON document stays whole: the good image in it, the failures on stderr.
        let json = try await CLI.run("classify", Self.float32, Self.cat, missing, "--json", "--top", "1")
        #expect(json.status == 1 && json.stderrLines.count == 1, "\(json)")
        let images = try #require(try jsonObject(json)["images"] as? [[String: Any]])
        #expect(images.map { $0["path"] as? String } == [Self.cat])
    }

    @Test("a truncated JPEG, a non-image and a GIF → one line naming the file, exit 1")
    func badImageFiles() async throws {
        try await withTemporaryDirectory { folder in
            let original = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(Self.cat))
            let truncated = folder.appendingPathComponent("half-cat.jpg")
            try original.prefix(original.count / 2).write(to: truncated)
            let gif = folder.appendingPathComponent("animation.gif")
            try Data(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]).write(to: gif)
            let json = Fixtures.path("pixelbuffer_identity_test.tiobundle") + "/model.json"

            expectOneLineError(try await CLI.run("classify", Self.float32, truncated.path), containing: ["half-cat.jpg"])
            expectOneLineError(try await CLI.run("run", Self.uint8, "--image", truncated.path), containing: ["half-cat.jpg"])
            expectOneLineError(try await CLI.run("classify", Self.float32, json), containing: ["model.json", "not a JPEG or PNG"])
            expectOneLineError(try await CLI.run("classify", Self.float32, gif.path), containing: ["animation.gif", "not a JPEG or PNG"])
            expectOneLineError(try await CLI.run("run", Self.float32, "--image", "image=\(gif.path)"), containing: ["animation.gif"])
        }
    }

    /// A PNG whose IHDR says 0 × 1 pixels (8-bit RGB), with valid CRCs, an empty zlib IDAT and IEND.
    static let zeroWidthPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x7F, 0xB5, 0x38,
        0xE0, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF,
        0x00, 0x00, 0x00, 0x01, 0x89, 0xD6, 0xAE, 0x5F, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
        0xAE, 0x42, 0x60, 0x82,
    ]

    @Test("a zero-sized PNG and an empty file → one line naming the file, exit 1")
    func zeroSizedImages() async throws {
        try await withTemporaryDirectory { folder in
            let zero = folder.appendingPathComponent("zero-width.png")
            try Data(Self.zeroWidthPNG).write(to: zero)
            let empty = folder.appendingPathComponent("empty.jpg")
            try Data().write(to: empty)
            expectOneLineError(try await CLI.run("classify", Self.float32, zero.path), containing: ["zero-width.png", "width"])
            expectOneLineError(try await CLI.run("run", Self.uint8, "--image", zero.path), containing: ["zero-width.png"])
            expectOneLineError(try await CLI.run("classify", Self.uint8, empty.path), containing: ["empty.jpg", "empty"])
        }
    }

    @Test("eval with a broken image in a label folder: the report covers the others, then one line naming the file, exit 1")
    func evalBrokenImage() async throws {
        try await withTemporaryDirectory { folder in
            let source = Fixtures.repositoryRoot.appendingPathComponent(Self.digitsImages)
            for label in ["3", "7"] {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(label), withIntermediateDirectories: true)
            }
            let good = try FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent("3").path).sorted().first!
            try FileManager.default.copyItem(at: source.appendingPathComponent("3/\(good)"), to: folder.appendingPathComponent("3/\(good)"))
            let png = try Data(contentsOf: folder.appendingPathComponent("3/\(good)"))
            try png.prefix(png.count / 2).write(to: folder.appendingPathComponent("7/broken.png"))

            let result = try await CLI.run("eval", "Examples/digits/digits-uint8.tiobundle", folder.path)
            #expect(result.exited && result.status == 1, "\(result)")
            #expect(result.stdout.hasPrefix("images: 1 (1 more could not be read; see below)\ntop-1 accuracy: 1.0000 (1/1)"), "\(result)")
            #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix("error: ")
                && result.stderrLines[0].contains("7/broken.png"), "\(result)")
            let json = try await CLI.run("eval", "Examples/digits/digits-uint8.tiobundle", folder.path, "--json")
            #expect(json.status == 1, "\(json)")
            #expect((try jsonObject(json)["unreadable"] as? NSNumber)?.intValue == 1, "\(json)")

            // Without the broken file the same folder evaluates.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("7/broken.png"))
            let fine = try await CLI.run("eval", "Examples/digits/digits-uint8.tiobundle", folder.path, "--json")
            #expect(fine.exited && fine.status == 0, "\(fine)")
            #expect((try jsonObject(fine)["images"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test("classify with a model that is not an image classifier → one-line error")
    func classifyNotAClassifier() async throws {
        expectOneLineError(try await CLI.run("classify", Fixtures.path("1_in_1_out_vectors_test.tiobundle"), Self.cat),
                           containing: ["image"])
        expectOneLineError(try await CLI.run("classify", Fixtures.path("pixelbuffer_identity_test.tiobundle"), Self.cat),
                           containing: ["labelled output"])
    }

    @Test("four classify processes at once share an empty --weight-cache folder: same answers, one whole cache, no partial files; TENSORIO_WEIGHT_CACHE names it too")
    func weightCacheAcrossProcesses() async throws {
        try await withTemporaryDirectory { folder in
            let cache = folder.appendingPathComponent("weights").path
            let plain = try await CLI.run("classify", Self.float32, Self.cat)
            #expect(plain.status == 0, "\(plain)")
            let running = try (0..<4).map { _ in
                try CLI.start(["classify", Self.float32, Self.cat, "--weight-cache", cache])
            }
            for process in running {
                let result = try await process.result()
                expectSuccess(result, stdout: String(plain.stdout.dropLast()))
            }
            var names = try FileManager.default.contentsOfDirectory(atPath: cache)
            #expect(names.count == 1 && names[0].hasSuffix(".xnnpack"), "\(names)")
            // The next process reads that file; the environment variable works like the option.
            let again = try await CLI.run(["classify", Self.float32, Self.cat], environment: ["TENSORIO_WEIGHT_CACHE": cache])
            expectSuccess(again, stdout: String(plain.stdout.dropLast()))
            names = try FileManager.default.contentsOfDirectory(atPath: cache)
            #expect(names.count == 1, "\(names)")
        }
    }
}
