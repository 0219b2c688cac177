import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

// MARK: - Helpers

/// Writes `text` to `name` in `directory` and returns its URL.
@discardableResult
private func write(_ text: String, to name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}

/// The digits bundle whose image input is 64 numbers, and its GRAY image twin.
private let digitsArrayBundle = "digits-train-tensorflow.tiobundle"
private let digitsImageBundle = "digits-train-tensorflow-image.tiobundle"

/// Layers `v` (3 numbers) and `label` (one-hot over 4 classes).
private let vectorLayers = LayerList([
    LayerDescription(name: "v", shape: [-1, 3], kind: .array()),
    LayerDescription(name: "label", shape: [-1, 4], kind: .array()),
])

/// The items of a JSON file, parsed by Foundation rather than TensorIO, with every value flattened.
private func referenceItems(_ url: URL) throws -> [[String: [Double]]] {
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
    func flatten(_ value: Any) -> [Double] {
        if let array = value as? [Any] { return array.flatMap(flatten) }
        return [(value as! NSNumber).doubleValue]
    }
    return parsed.map { $0.mapValues(flatten) }
}

/// A PNG of the test set, by class folder and file name.
private func testImage(_ label: String, _ name: String) -> URL {
    TrainingFixtures.digitsData("test-images").appendingPathComponent(label).appendingPathComponent(name)
}

/// The first PNG (by name) in class folder `label` of the test set.
private func firstTestImage(_ label: String) throws -> URL {
    let folder = TrainingFixtures.digitsData("test-images").appendingPathComponent(label)
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted().first)
    return folder.appendingPathComponent(name)
}

private func image(of value: InputValue?) -> PixelBuffer? {
    guard case .image(let buffer)? = value else { return nil }
    return buffer
}

private func describe(_ error: TensorIOError?) -> String { error.map(\.description) ?? "no error" }

// MARK: - JSON

@Suite("Training: JSONDataSource")
struct JSONDataSourceTests {
    @Test("test.json: 360 items keyed image and label, with the file's values")
    func digitsTestSet() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        let url = TrainingFixtures.digitsData("test.json")
        let source = try JSONDataSource(contentsOf: url, layers: bundle.inputs)
        #expect(source.count == 360)
        #expect(source.keys == ["image", "label"])

        let reference = try referenceItems(url)
        #expect(reference.count == 360)
        var perClass = [Int](repeating: 0, count: 10)
        for index in 0..<source.count {
            let item = try source.item(at: index)
            #expect(Set(item.keys) == ["image", "label"])
            let image = try #require(numbers(of: item["image"]))
            let label = try #require(numbers(of: item["label"]))
            #expect(image == reference[index]["image"], "item \(index)")
            #expect(label == reference[index]["label"], "item \(index)")
            #expect(image.count == 64 && image.allSatisfy { (0...1).contains($0) })
            #expect(label.count == 10 && label.reduce(0, +) == 1)
            if let hot = label.firstIndex(of: 1) { perClass[hot] += 1 }
        }
        // The stratified split is not exactly 36 per class; the image folders hold the same counts.
        #expect(perClass == [36, 37, 35, 37, 36, 36, 36, 36, 35, 36])
        let folderCounts = try (0...9).map {
            try FileManager.default.contentsOfDirectory(
                atPath: TrainingFixtures.digitsData("test-images").appendingPathComponent(String($0)).path
            ).filter { $0.hasSuffix(".png") }.count
        }
        #expect(perClass == folderCounts)
        // The README's first value of the first item.
        #expect(numbers(of: try source.item(at: 0)["image"])?[2] == 0.7490196)
    }

    @Test("a class index for a one-hot layer becomes the one-hot vector; a full vector stays as it is")
    func classIndexToOneHot() throws {
        try withTemporaryDirectory { directory in
            let url = try write("""
                [{"v": [1, 2, 3], "label": 2},
                 {"v": [[4], [5], [6]], "label": [3]},
                 {"v": [7, 8, 9], "label": [0, 1, 0, 0]},
                 {"v": [true, false, 1], "label": 0}]
                """, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: vectorLayers)
            #expect(source.count == 4)
            #expect(source.keys == ["label", "v"])
            #expect(numbers(of: try source.item(at: 0)["label"]) == oneHot(2, count: 4))
            #expect(numbers(of: try source.item(at: 1)["label"]) == oneHot(3, count: 4))
            #expect(numbers(of: try source.item(at: 2)["label"]) == oneHot(1, count: 4))
            #expect(numbers(of: try source.item(at: 3)["label"]) == oneHot(0, count: 4))
            // Nested arrays are flattened, booleans are 1 and 0.
            #expect(numbers(of: try source.item(at: 0)["v"]) == [1, 2, 3])
            #expect(numbers(of: try source.item(at: 1)["v"]) == [4, 5, 6])
            #expect(numbers(of: try source.item(at: 3)["v"]) == [1, 0, 1])
        }
    }

    @Test("a digit's class index in a JSON file labels the digits bundle one-hot")
    func digitsClassIndex() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        try withTemporaryDirectory { directory in
            let pixels = (0..<64).map { String(Double($0) / 64) }.joined(separator: ", ")
            let url = try write(#"[{"image": [\#(pixels)], "label": 7}]"#, to: "one.json", in: directory)
            let item = try JSONDataSource(contentsOf: url, layers: bundle.inputs).item(at: 0)
            #expect(numbers(of: item["label"]) == oneHot(7, count: 10))
            #expect(numbers(of: item["image"])?.count == 64)
        }
    }

    @Test("a single number for a one-element layer stays a number")
    func singleElementLayer() throws {
        let bundle = try ModelBundle(at: Fixtures.tensorFlowURL("tf_trainable_linear_test.tiobundle"))
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"x": 3, "y": 7}, {"x": [0.5], "y": [[2]]}]"#, to: "line.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: bundle.inputs)
            #expect(numbers(of: try source.item(at: 0)["y"]) == [7])
            #expect(numbers(of: try source.item(at: 0)["x"]) == [3])
            #expect(numbers(of: try source.item(at: 1)["x"]) == [0.5])
            #expect(numbers(of: try source.item(at: 1)["y"]) == [2])
        }
    }

    @Test("keys without a layer pass their numbers through")
    func keyWithoutLayer() throws {
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"v": [1, 2, 3], "label": 1, "weight": 5}]"#, to: "data.json", in: directory)
            let item = try JSONDataSource(contentsOf: url, layers: vectorLayers).item(at: 0)
            #expect(numbers(of: item["weight"]) == [5])
        }
    }

    @Test("a class index out of range, negative or fractional throws invalidInput naming the item and key", arguments: ["4", "-1", "2.5", "[9]"])
    func classIndexOutOfRange(label: String) throws {
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"v": [1, 2, 3], "label": 0}, {"v": [1, 2, 3], "label": \#(label)}]"#, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: vectorLayers)
            #expect(numbers(of: try source.item(at: 0)["label"]) == oneHot(0, count: 4))
            let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: 1) }
            #expect(error?.message.contains("data.json[1].label") == true, "\(describe(error))")
            #expect(error?.message.contains("0 to 3") == true, "\(describe(error))")
            #expect(error?.location == "layer \"label\"", "\(describe(error))")
        }
    }

    @Test("a string for an image layer is an image path, relative to the JSON file or absolute")
    func imagePaths() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        let three = try firstTestImage("3")
        let five = try firstTestImage("5")
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("images"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: three, to: directory.appendingPathComponent("images/three.png"))
            let url = try write(
                #"[{"image": "images/three.png", "label": 3}, {"image": "\#(five.path)", "label": 5}]"#,
                to: "data.json", in: directory
            )
            let source = try JSONDataSource(contentsOf: url, layers: bundle.inputs)
            let first = try source.item(at: 0)
            let second = try source.item(at: 1)
            let firstImage = try #require(image(of: first["image"]), "\(first)")
            let secondImage = try #require(image(of: second["image"]), "\(second)")
            #expect(firstImage == (try PixelBuffer(contentsOf: three)))
            #expect(secondImage == (try PixelBuffer(contentsOf: five)))
            #expect(firstImage.width == 8 && firstImage.height == 8)
            #expect(firstImage != secondImage)
            #expect(numbers(of: first["label"]) == oneHot(3, count: 10))
            #expect(numbers(of: second["label"]) == oneHot(5, count: 10))
        }
    }

    @Test("an image that cannot be read throws, naming the item and key")
    func missingImage() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"image": "missing.png", "label": 1}]"#, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: bundle.inputs)
            let error = #expect(throws: TensorIOError.self) { try source.item(at: 0) }
            #expect(error?.description.contains("missing.png") == true, "\(describe(error))")
            #expect(error?.description.contains("data.json[0].image") == true, "\(describe(error))")
        }
    }

    @Test("a string for a layer that is not an image throws invalidInput naming the item and key")
    func stringForArrayLayer() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        try withTemporaryDirectory { directory in
            let png = try firstTestImage("0")
            let url = try write(#"[{"image": "\#(png.path)", "label": 0}]"#, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: bundle.inputs)
            let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: 0) }
            #expect(error?.message.contains("data.json[0].image") == true, "\(describe(error))")
            #expect(error?.message.contains("image path") == true, "\(describe(error))")
        }
    }

    @Test(
        "content that is not an array of objects with the same keys throws invalidInput naming the item",
        arguments: [
            (#"{"v": [1, 2, 3], "label": 0}"#, ["data.json", "an array of items", "an object"]),
            (#"[{"v": [1, 2, 3], "label": 0}, 5]"#, ["data.json[1]", "a number"]),
            (#"[{"v": [1, 2, 3], "label": 0}, [1, 2]]"#, ["data.json[1]", "an array"]),
            (#"[{"v": [1, 2, 3], "label": 0}, {"v": [1, 2, 3], "label": 1}, {"v": [1, 2, 3]}]"#, ["data.json[2]", "label"]),
            (#"[{"v": [1, 2, 3], "label": 0}, {"v": [1, 2, 3], "label": 1, "w": 2}]"#, ["data.json[1]", "\"w\""]),
            ("[]", ["data.json", "no items"]),
            (#"[{"v": [1, 2, 3], "label": 0}"#, ["data.json", "not valid JSON"]),
        ]
    )
    func badContent(text: String, fragments: [String]) throws {
        try withTemporaryDirectory { directory in
            let url = try write(text, to: "data.json", in: directory)
            let error = expectTensorIOError(.invalidInput) { _ = try JSONDataSource(contentsOf: url, layers: vectorLayers) }
            for fragment in fragments {
                #expect(error?.message.contains(fragment) == true, "missing \"\(fragment)\": \(describe(error))")
            }
        }
    }

    @Test(
        "a value that is not numbers throws invalidInput naming the item and key",
        arguments: [
            (#"null"#, "null"),
            (#"{"a": 1}"#, "an object"),
            (#"[1, "2", 3]"#, "a string"),
            (#"[1, null, 3]"#, "null"),
            (#""1 2 3""#, "image path"),
        ]
    )
    func notNumbers(value: String, fragment: String) throws {
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"v": [1, 2, 3], "label": 0}, {"v": \#(value), "label": 1}]"#, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: vectorLayers)
            _ = try source.item(at: 0)
            let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: 1) }
            #expect(error?.message.contains("data.json[1].v") == true, "\(describe(error))")
            #expect(error?.message.contains(fragment) == true, "missing \"\(fragment)\": \(describe(error))")
        }
    }

    @Test("a missing file throws io naming it")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("nope.json")
            let error = expectTensorIOError(.io) { _ = try JSONDataSource(contentsOf: url, layers: vectorLayers) }
            #expect(error?.message.contains("nope.json") == true, "\(describe(error))")
        }
    }

    @Test("a first item with many numbers and many items with one each reads without reserving their product (regression)")
    func crafted_columnReservation() throws {
        // 100,000 numbers, then 100,000 items of one: a column reserved as the first item's count times the
        // number of items asked for 10^10 doubles (80 GB) before the second item showed the widths differ.
        try withTemporaryDirectory { directory in
            let wide = Array(repeating: "0", count: 100_000).joined(separator: ",")
            let narrow = Array(repeating: #"{"w":[1]}"#, count: 100_000).joined(separator: ",")
            let url = try write("[{\"w\":[\(wide)]},\(narrow)]", to: "crafted.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: vectorLayers)
            #expect(source.count == 100_001)
            #expect(numbers(of: try source.item(at: 0)["w"])?.count == 100_000)
            #expect(numbers(of: try source.item(at: 7)["w"]) == [1])
            let batch = try source.batch(at: [0, 5])
            #expect(batch.count == 2)
            #expect(numbers(of: batch[1]["w"]) == [1])
        }
    }

    @Test("a batch holds the rows of the source's table, equal to the same items appended one by one")
    func batchRowsEqualItems() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        let source = try JSONDataSource(contentsOf: TrainingFixtures.digitsData("test.json"), layers: bundle.inputs)
        let indices = [3, 0, 359, 3]
        let batch = try source.batch(at: indices)
        var appended = Batch(keys: source.keys)
        for index in indices { try appended.append(try source.item(at: index)) }
        #expect(batch == appended)
        #expect(batch.hashValue == appended.hashValue)
        // Items of the batch keep the file's doubles, as item(at:) gives them.
        #expect(numbers(of: batch[1]["image"]) == numbers(of: try source.item(at: 0)["image"]))
        #expect(batch.gathering([3, 2]) == (try source.batch(at: [3, 359])))
    }

    @Test("a table's float32 copy is each double converted to the nearest float, or none when one overflows")
    func tableFloat32() {
        let doubles = [0.1, 0.7490196, -3, .infinity, 1e-50]
        #expect(NumberTable(numbers: .float64(doubles), width: 1, rowCount: 5).float32 == doubles.map { Float($0) })
        #expect(NumberTable(numbers: .float64([1, 1e39]), width: 2, rowCount: 1).float32 == nil)
        #expect(NumberTable(numbers: .int32([1, 2]), width: 1, rowCount: 2).float32 == nil)
    }

    @Test("an item index out of range throws invalidInput", arguments: [-1, 2])
    func outOfRange(index: Int) throws {
        try withTemporaryDirectory { directory in
            let url = try write(#"[{"v": 1, "label": 0}, {"v": 2, "label": 1}]"#, to: "data.json", in: directory)
            let source = try JSONDataSource(contentsOf: url, layers: vectorLayers)
            let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: index) }
            #expect(error?.message.contains("2 items") == true, "\(describe(error))")
        }
    }
}

// MARK: - CSV

@Suite("Training: CSVDataSource")
struct CSVDataSourceTests {
    @Test("test.csv holds the same 360 items as test.json")
    func digitsTestSet() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        let csv = try CSVDataSource(contentsOf: TrainingFixtures.digitsData("test.csv"), layers: bundle.inputs)
        let json = try JSONDataSource(contentsOf: TrainingFixtures.digitsData("test.json"), layers: bundle.inputs)
        #expect(csv.count == 360)
        #expect(csv.keys == ["image", "label"])
        for index in 0..<csv.count {
            let item = try csv.item(at: index)
            #expect(item == (try json.item(at: index)), "item \(index)")
        }
        #expect(numbers(of: try csv.item(at: 0)["image"])?.count == 64)
        #expect(numbers(of: try csv.item(at: 0)["label"])?.count == 10)
    }

    @Test("a trainable model's inputs include its label layer, so CSVDataSource(layers: model.inputs) takes the label column")
    func modelInputsTakeTheLabelColumn() throws {
        let model = try TrainingFixtures.digitsBundle("digits-train-tflite.tiobundle").makeModel()
        #expect(model.inputs.names == ["image", "label"])
        #expect(model.predictionInputs.names == ["image"])
        #expect(model.outputs.names == ["probabilities", "loss"])
        #expect(model.predictionOutputs.names == ["probabilities"])

        let csv = try CSVDataSource(contentsOf: TrainingFixtures.digitsData("test.csv"), layers: model.inputs)
        #expect(csv.count == 360)
        #expect(csv.keys == ["image", "label"])
        #expect(numbers(of: try csv.item(at: 0)["label"])?.count == 10)

        // The prediction inputs alone have no layer for the label column.
        let error = expectTensorIOError(.invalidInput) {
            _ = try CSVDataSource(contentsOf: TrainingFixtures.digitsData("test.csv"), layers: model.predictionInputs)
        }
        #expect(error?.message.contains("matches no input layer") == true, "\(String(describing: error))")
    }

    @Test("a column of the layer's own name holds space-separated numbers, or a class index")
    func ownNameColumn() throws {
        try withTemporaryDirectory { directory in
            let url = try write("v,label\n1 2 3,2\n 4  5 6 ,0 0 0 1\n", to: "data.csv", in: directory)
            let source = try CSVDataSource(contentsOf: url, layers: vectorLayers)
            #expect(source.count == 2)
            #expect(source.keys == ["label", "v"])
            #expect(numbers(of: try source.item(at: 0)["v"]) == [1, 2, 3])
            #expect(numbers(of: try source.item(at: 0)["label"]) == oneHot(2, count: 4))
            #expect(numbers(of: try source.item(at: 1)["v"]) == [4, 5, 6])
            #expect(numbers(of: try source.item(at: 1)["label"]) == oneHot(3, count: 4))
        }
    }

    @Test("numbered columns are joined in index order (numerically), whatever the header's order")
    func numberedColumns() throws {
        let layers = LayerList([
            LayerDescription(name: "w", shape: [-1, 11], kind: .array()),
            LayerDescription(name: "y", shape: [-1, 1], kind: .array()),
        ])
        try withTemporaryDirectory { directory in
            let header = ["y"] + (0...10).reversed().map { "w_\($0)" }
            let row = ["42"] + (0...10).reversed().map { String($0 * 10) }
            let url = try write(header.joined(separator: ",") + "\n" + row.joined(separator: ",") + "\n", to: "data.csv", in: directory)
            let source = try CSVDataSource(contentsOf: url, layers: layers)
            #expect(source.keys == ["w", "y"])
            #expect(numbers(of: try source.item(at: 0)["w"]) == (0...10).map { Double($0 * 10) })
            #expect(numbers(of: try source.item(at: 0)["y"]) == [42])
        }
    }

    @Test("quoted fields and headers, CRLF line ends and blank lines")
    func quotedFields() throws {
        try withTemporaryDirectory { directory in
            let url = try write("\"v\",\"label\"\r\n\"1 2 3\",\"1\"\r\n\r\n\"-4.5 5e1 6\",0\r\n", to: "data.csv", in: directory)
            let source = try CSVDataSource(contentsOf: url, layers: vectorLayers)
            #expect(source.count == 2)
            #expect(numbers(of: try source.item(at: 0)["v"]) == [1, 2, 3])
            #expect(numbers(of: try source.item(at: 0)["label"]) == oneHot(1, count: 4))
            #expect(numbers(of: try source.item(at: 1)["v"]) == [-4.5, 50, 6])
            #expect(numbers(of: try source.item(at: 1)["label"]) == oneHot(0, count: 4))
        }
    }

    @Test(
        "a bad file throws invalidInput naming the line and column",
        arguments: [
            ("v,label,w\n1 2 3,0,1\n", ["data.csv", "column 3", "\"w\"", "matches no input layer"]),
            ("v,label,label_a\n1 2 3,0,1\n", ["\"label_a\""]),
            ("v,label\n1 2 3,0\n4 5 6,1,2\n", ["data.csv line 3", "3 fields", "the header has 2"]),
            ("v,label\n1 2 3\n", ["data.csv line 2", "1 fields"]),
            ("v,label\n1 2 3,0\n1 x 3,1\n", ["data.csv line 3", "\"v\"", "\"1 x 3\"", "not a number"]),
            ("v,label\n1 2 3,\n", ["data.csv line 2", "\"label\"", "empty field"]),
            ("v,label,label_0\n1 2 3,0,1\n", ["\"label\"", "both"]),
            ("", ["data.csv", "empty"]),
            ("\n\n", ["data.csv", "empty"]),
        ]
    )
    func badFile(text: String, fragments: [String]) throws {
        try withTemporaryDirectory { directory in
            let url = try write(text, to: "data.csv", in: directory)
            let error = expectTensorIOError(.invalidInput) { _ = try CSVDataSource(contentsOf: url, layers: vectorLayers) }
            for fragment in fragments {
                #expect(error?.message.contains(fragment) == true, "missing \"\(fragment)\": \(describe(error))")
            }
        }
    }

    @Test("a class index out of range throws when the item is read, naming the line")
    func classIndexOutOfRange() throws {
        try withTemporaryDirectory { directory in
            let url = try write("v,label\n1 2 3,1\n1 2 3,4\n", to: "data.csv", in: directory)
            let source = try CSVDataSource(contentsOf: url, layers: vectorLayers)
            _ = try source.item(at: 0)
            let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: 1) }
            #expect(error?.message.contains("data.csv line 3") == true, "\(describe(error))")
        }
    }

    @Test("a missing file throws io; an index out of range throws invalidInput")
    func missingFileAndRange() throws {
        try withTemporaryDirectory { directory in
            expectTensorIOError(.io) {
                _ = try CSVDataSource(contentsOf: directory.appendingPathComponent("nope.csv"), layers: vectorLayers)
            }
            let url = try write("v,label\n1 2 3,1\n", to: "data.csv", in: directory)
            let source = try CSVDataSource(contentsOf: url, layers: vectorLayers)
            expectTensorIOError(.invalidInput) { _ = try source.item(at: 1) }
            expectTensorIOError(.invalidInput) { _ = try source.item(at: -1) }
        }
    }
}

// MARK: - Image folders

@Suite("Training: ImageFolderDataSource")
struct ImageFolderDataSourceTests {
    @Test("test-images with the GRAY bundle: 360 gray 8×8 images, one-hot labels, classes 0…9, pixels as test.json")
    func digitsTestImages() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        let labels = try #require(bundle.outputs.lazy.compactMap(\.labels).first?.values)
        let directory = TrainingFixtures.digitsData("test-images")
        let source = try ImageFolderDataSource(directory: directory, inputs: bundle.inputs, labels: labels)
        #expect(source.count == 360)
        #expect(source.classes == (0...9).map(String.init))
        #expect(source.keys == ["image", "label"])

        // The items come folder by folder, files in name order; test.json lists the same items by
        // scikit-learn index, which is the file name.
        var files: [(label: Int, index: Int)] = []
        for label in 0...9 {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(String(label)).path)
            files += names.filter { $0.hasSuffix(".png") }.sorted().map { (label, Int($0.dropLast(4))!) }
        }
        #expect(files.count == 360)
        let jsonPosition = Dictionary(uniqueKeysWithValues: files.map(\.index).sorted().enumerated().map { ($1, $0) })
        let reference = try referenceItems(TrainingFixtures.digitsData("test.json"))

        for (position, file) in files.enumerated() {
            let item = try source.item(at: position)
            let label = try #require(numbers(of: item["label"]))
            #expect(label == oneHot(file.label, count: 10), "item \(position)")
            let buffer = try #require(image(of: item["image"]), "item \(position)")
            #expect(buffer.width == 8 && buffer.height == 8 && buffer.format == .gray)
            let expected = try #require(reference[jsonPosition[file.index]!]["image"])
            let pixels = buffer.bytes.map { Double($0) / 255 }
            #expect(isClose(pixels, expected, tolerance: 1e-6), "item \(position) (\(file.label)/\(file.index).png)")
            #expect(label == reference[jsonPosition[file.index]!]["label"])
        }
    }

    @Test("without labels the classes are the folders in sorted order; a one-element label layer gets the class index")
    func foldersAsClasses() throws {
        let imageLayer = try TrainingFixtures.digitsBundle(digitsImageBundle).inputs[0]
        try withTemporaryDirectory { directory in
            for (folder, source) in [("dog", "1"), ("cat", "2"), ("cat", "3")] {
                let url = directory.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: try firstTestImage(source), to: url.appendingPathComponent("\(source).png"))
            }
            // Hidden folders and other files are ignored.
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(".cache"), withIntermediateDirectories: true)
            try write("notes", to: "cat/readme.txt", in: directory)
            try write("notes", to: "index.txt", in: directory)

            let oneHotSource = try ImageFolderDataSource(
                directory: directory, inputs: LayerList([imageLayer, LayerDescription(name: "label", shape: [-1, 2], kind: .array())])
            )
            #expect(oneHotSource.classes == ["cat", "dog"])
            #expect(oneHotSource.count == 3)
            #expect(try (0..<3).map { numbers(of: try oneHotSource.item(at: $0)["label"]) } == [[1, 0], [1, 0], [0, 1]])
            #expect(image(of: try oneHotSource.item(at: 2)["image"]) == (try PixelBuffer(contentsOf: try firstTestImage("1"))))

            let indexSource = try ImageFolderDataSource(
                directory: directory, inputs: LayerList([LayerDescription(name: "class", shape: [1], kind: .array()), imageLayer])
            )
            #expect(indexSource.keys == ["class", "image"])
            #expect(try (0..<3).map { numbers(of: try indexSource.item(at: $0)["class"]) } == [[0], [0], [1]])
        }
    }

    @Test("a folder that is not one of the labels throws invalidInput naming it")
    func unknownFolder() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        let labels = bundle.outputs.lazy.compactMap(\.labels).first?.values
        try withTemporaryDirectory { directory in
            for folder in ["3", "x"] {
                let url = directory.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: try firstTestImage("3"), to: url.appendingPathComponent("a.png"))
            }
            let error = expectTensorIOError(.invalidInput) {
                _ = try ImageFolderDataSource(directory: directory, inputs: bundle.inputs, labels: labels)
            }
            #expect(error?.message.contains("\"x\"") == true, "\(describe(error))")
        }
    }

    @Test("label folders without images, or no label folders at all, throw invalidInput")
    func noImages() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        try withTemporaryDirectory { directory in
            let noFolders = expectTensorIOError(.invalidInput) {
                _ = try ImageFolderDataSource(directory: directory, inputs: bundle.inputs)
            }
            #expect(noFolders?.message.contains("no label folders") == true, "\(describe(noFolders))")

            try FileManager.default.createDirectory(at: directory.appendingPathComponent("3"), withIntermediateDirectories: true)
            try write("not an image", to: "3/notes.txt", in: directory)
            let noImages = expectTensorIOError(.invalidInput) {
                _ = try ImageFolderDataSource(directory: directory, inputs: bundle.inputs)
            }
            #expect(noImages?.message.contains("no PNG or JPEG images") == true, "\(describe(noImages))")
        }
    }

    @Test("a missing folder throws io")
    func missingFolder() throws {
        let bundle = try TrainingFixtures.digitsBundle(digitsImageBundle)
        try withTemporaryDirectory { directory in
            _ = expectTensorIOError(.io) {
                _ = try ImageFolderDataSource(directory: directory.appendingPathComponent("nope"), inputs: bundle.inputs)
            }
        }
    }

    @Test("inputs that are not one image and one label layer throw invalidInput")
    func wrongLayers() throws {
        let arrays = try TrainingFixtures.digitsBundle(digitsArrayBundle)
        let error = expectTensorIOError(.invalidInput) {
            _ = try ImageFolderDataSource(directory: TrainingFixtures.digitsData("test-images"), inputs: arrays.inputs)
        }
        #expect(error?.message.contains("one image input") == true, "\(describe(error))")
    }

    @Test("a label layer whose size is neither 1 nor the class count throws invalidInput")
    func labelLayerSize() throws {
        let imageLayer = try TrainingFixtures.digitsBundle(digitsImageBundle).inputs[0]
        let error = expectTensorIOError(.invalidInput) {
            _ = try ImageFolderDataSource(
                directory: TrainingFixtures.digitsData("test-images"),
                inputs: LayerList([imageLayer, LayerDescription(name: "label", shape: [-1, 5], kind: .array())])
            )
        }
        #expect(error?.message.contains("5 elements") == true, "\(describe(error))")
    }
}

// MARK: - Safetensors

@Suite("Training: safetensors files")
struct SafetensorsFileTests {
    private func tensor(_ type: DataType, _ shape: [Int], _ bytes: [UInt8]) -> SafetensorsFile.Tensor {
        SafetensorsFile.Tensor(dataType: type, shape: shape, bytes: Data(bytes))
    }

    private var sample: SafetensorsFile {
        SafetensorsFile(tensors: [
            "w1": SafetensorsFile.Tensor(dataType: .float32, shape: [2, 3], bytes: Data(float32LittleEndian: [1, -2, 3.5, 0, 1e-7, 6])),
            "step": tensor(.int64, [], [42, 0, 0, 0, 0, 0, 0, 0]),
            "mask": tensor(.uint8, [4], [0, 1, 254, 255]),
            "half": tensor(.float16, [1, 2], [0x00, 0x3C, 0x00, 0xC0]),
            "flags": tensor(.bool, [3], [1, 0, 1]),
            "empty": tensor(.float32, [0, 5], []),
            "we\"ird\\name\n é": tensor(.int32, [1], [1, 2, 3, 4]),
        ])
    }

    @Test("write then read gives the same tensors")
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("weights.safetensors")
            try sample.write(to: url)
            let read = try SafetensorsFile(contentsOf: url)
            #expect(read == sample)
            #expect(read.tensors["w1"]?.bytes.float32LittleEndian == [1, -2, 3.5, 0, 1e-7, 6])
        }
    }

    @Test("the file is the format: little-endian header length, padded JSON header, contiguous data")
    func layout() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("weights.safetensors")
            try sample.write(to: url)
            let data = try Data(contentsOf: url)
            let length = data.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            #expect((8 + length) % 8 == 0)
            let header = try #require(try JSONSerialization.jsonObject(with: data[8..<(8 + length)]) as? [String: [String: Any]])
            #expect(Set(header.keys) == Set(sample.tensors.keys))
            #expect(header["w1"]?["dtype"] as? String == "F32")
            #expect(header["step"]?["dtype"] as? String == "I64")
            #expect(header["mask"]?["dtype"] as? String == "U8")
            #expect(header["half"]?["dtype"] as? String == "F16")
            #expect(header["flags"]?["dtype"] as? String == "BOOL")
            #expect(header["w1"]?["shape"] as? [Int] == [2, 3])
            #expect(header["step"]?["shape"] as? [Int] == [])
            var total = 0
            for (name, entry) in header {
                let offsets = try #require(entry["data_offsets"] as? [Int], "\(name)")
                let bytes = data[(8 + length + offsets[0])..<(8 + length + offsets[1])]
                #expect(Data(bytes) == sample.tensors[name]?.bytes, "\(name)")
                total += offsets[1] - offsets[0]
            }
            #expect(data.count == 8 + length + total)
        }
    }

    @Test("reads a file written by another tool: unpadded header with __metadata__")
    func foreignFile() throws {
        try withTemporaryDirectory { directory in
            let header = #"{"__metadata__":{"format":"pt"},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#
            var data = Data()
            withUnsafeBytes(of: UInt64(header.utf8.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: header.utf8)
            data.append(Data(float32LittleEndian: [1.5, -2, 7]))
            let url = directory.appendingPathComponent("foreign.safetensors")
            try data.write(to: url)
            let file = try SafetensorsFile(contentsOf: url)
            #expect(Set(file.tensors.keys) == ["a", "b"])
            #expect(file.tensors["a"]?.bytes.float32LittleEndian == [1.5, -2])
            #expect(file.tensors["b"]?.bytes.float32LittleEndian == [7])
            #expect(file.tensors["a"]?.shape == [2])
        }
    }

    /// A file of `header` (with its true length unless `claimedLength` is given) and then `body`.
    private func file(header: String, claimedLength: UInt64? = nil, body: Data = Data()) -> Data {
        var data = Data()
        withUnsafeBytes(of: (claimedLength ?? UInt64(header.utf8.count)).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: header.utf8)
        data.append(body)
        return data
    }

    @Test(
        "a corrupt file throws io naming the file and the problem",
        arguments: [
            ("too short", Data([1, 2, 3, 4]), "4 bytes long"),
            ("empty", Data(), "0 bytes long"),
            ("header longer than the file", Data([0xE8, 0x03, 0, 0, 0, 0, 0, 0]) + Data("{}".utf8), "claims 1000 bytes"),
            ("huge header length", Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) + Data("{}".utf8), "claims"),
            ("header not JSON", Data([4, 0, 0, 0, 0, 0, 0, 0]) + Data("nope".utf8), "not JSON"),
            ("header not an object", Data([2, 0, 0, 0, 0, 0, 0, 0]) + Data("[]".utf8), "not a JSON object"),
        ] as [(String, Data, String)]
    )
    func corruptFile(name: String, contents: Data, fragment: String) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("bad.safetensors")
            try contents.write(to: url)
            let error = expectTensorIOError(.io) { _ = try SafetensorsFile(contentsOf: url) }
            #expect(error?.message.contains("bad.safetensors") == true, "\(name): \(describe(error))")
            #expect(error?.message.contains(fragment) == true, "\(name): \(describe(error))")
        }
    }

    @Test(
        "a malformed tensor entry throws io naming the tensor",
        arguments: [
            #"{"t":{"dtype":"F8","shape":[2],"data_offsets":[0,8]}}"#,
            #"{"t":{"shape":[2],"data_offsets":[0,8]}}"#,
            #"{"t":{"dtype":"F32","shape":[2],"data_offsets":[0]}}"#,
            #"{"t":{"dtype":"F32","shape":[2],"data_offsets":[0,16]}}"#,
            #"{"t":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}}"#,
            #"{"t":{"dtype":"F32","shape":[2],"data_offsets":[-4,4]}}"#,
            #"{"t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#,
            #"{"t":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}"#,
            #"{"t":{"dtype":"F32","shape":[1.5],"data_offsets":[0,8]}}"#,
            #"{"t":[1,2]}"#,
        ]
    )
    func malformedEntry(header: String) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("bad.safetensors")
            try file(header: header, body: Data(float32LittleEndian: [1, 2])).write(to: url)
            let error = expectTensorIOError(.io) { _ = try SafetensorsFile(contentsOf: url) }
            #expect(error?.message.contains("\"t\"") == true, "\(describe(error))")
        }
    }

    @Test("a missing file, or writing into a missing folder, throws io")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("nope.safetensors")
            let readError = expectTensorIOError(.io) { _ = try SafetensorsFile(contentsOf: missing) }
            #expect(readError?.message.contains("nope.safetensors") == true, "\(describe(readError))")
            expectTensorIOError(.io) { try sample.write(to: directory.appendingPathComponent("no/such/folder/w.safetensors")) }
        }
    }
}
