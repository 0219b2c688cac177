import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// Segmentation (issue 28, first part): `model.json`'s `segmentation` entry, inferred from TFLite metadata,
/// and masks on the photo as displayed — checked against the TFLite Task Library's golden DeepLab masks.
@Suite("Segmentation")
struct SegmentationTests {
    static let vision = "task-models/tflite-support/vision/"

    /// The Task Library's pairs: the rotated photo is stored turned 90° and mirrored, its golden mask in the
    /// same stored frame; with EXIF orientation 7 (`rightMirrored`) the photo is upright, and so is the mask,
    /// which is compared pixel by pixel through the same orientation.
    @Test("DeepLab v3 as a bare model gives the Task Library's golden category mask on at least 99.5% of pixels",
          TestData.required((["deeplabv3.tflite"] + ["rotation0", "rotation90_flop"].flatMap { ["segmentation_input_\($0).jpg", "segmentation_golden_\($0).png"] }).map { vision + $0 }),
          arguments: [
        ("rotation0", ImageOrientation.up), ("rotation90_flop", .rightMirrored),
    ])
    func deepLabGolden(_ variant: String, _ orientation: ImageOrientation) throws {
        let bundle = try ModelBundle(modelAt: TestData.url(Self.vision + "deeplabv3.tflite"), registry: .everyTask)
        let segmentation = try #require(try bundle.segmentation)
        #expect(segmentation.labels?.values.count == 21 && segmentation.labels?.values[15] == "person")
        var photo = try PixelBuffer(contentsOf: TestData.url(Self.vision + "segmentation_input_\(variant).jpg"))
        photo.orientation = orientation
        let mask = try bundle.makeModel().segment(photo)
        let golden = try PixelBuffer(contentsOf: TestData.url(Self.vision + "segmentation_golden_\(variant).png"))
        #expect(mask.width * mask.height == golden.width * golden.height && mask.categoryCount == 21)
        var agreeing = 0
        for v in 0..<mask.height {
            for u in 0..<mask.width {
                let stored = orientation.storedPosition(u: u, v: v, width: photo.width, height: photo.height)
                if Int(golden.pixel(x: stored.x, y: stored.y)?.first ?? 0) == Int(mask.categoryIndices[v * mask.width + u]) * 10 { agreeing += 1 }
            }
        }
        let share = Double(agreeing) / Double(mask.width * mask.height)
        print("segmentation-reference | deeplabv3 \(variant) | \(String(format: "%.4f", share * 100))% of pixels equal to the golden mask")
        #expect(share >= 0.995, "\(share)")
        // The fractions say which categories are there: background and the person mostly.
        let fractions = mask.fractions
        #expect(abs(fractions.reduce(0, +) - 1) < 1e-9 && fractions[15] > 0.1)
    }

    /// A bundle over the number model with one image input and an output named "mask" of `shape`.
    /// Opened with the vision tasks registered (the entry read then), or with `.builtIn` and the entry read
    /// on first use (`firstUse`).
    static func bundle(
        _ segmentation: JSONObject?, shape: [Int] = [1, 4, 4, 3], files: [String: Data] = [:], firstUse: Bool = false
    ) throws -> ModelBundle {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = [["name": "image", "type": "image", "shape": [4, 4, 3], "format": "RGB", "resize": "stretch"]]
        document["outputs"] = [["name": "mask", "type": "array", "shape": shape]]
        if let segmentation { document["segmentation"] = segmentation }
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return try withBundle(json: String(decoding: data, as: UTF8.self), files: files) { url in
            guard firstUse else { return try ModelBundle(at: url, registry: .everyTask) }
            let bundle = try ModelBundle(at: url)
            _ = try bundle.segmentation
            return bundle
        }
    }

    static func issues(_ segmentation: JSONObject, shape: [Int] = [1, 4, 4, 3], files: [String: Data] = [:]) -> [String] {
        let error = #expect(throws: TensorIOError.self) { try bundle(segmentation, shape: shape, files: files) }
        // Opened without the vision tasks, the bundle keeps the entry; its first read finds the same problems.
        let later = #expect(throws: TensorIOError.self) { try bundle(segmentation, shape: shape, files: files, firstUse: true) }
        #expect(later?.issues == error?.issues)
        return error?.issues.map(\.path) ?? []
    }

    @Test("the description reads, writes back, and is refused at its JSON path when wrong")
    func description() throws {
        let entry: JSONObject = ["output": "mask", "activation": "softmax", "labels": "labels.txt", "threshold": 0.4]
        let bundle = try Self.bundle(entry, files: ["assets/labels.txt": Data("sky\nsea\nsand\n".utf8)])
        let segmentation = try #require(try bundle.segmentation)
        #expect(segmentation.activation == .softmax && segmentation.threshold == 0.4 && segmentation.labels?.values == ["sky", "sea", "sand"])
        #expect(segmentation.modelJSON == .object([
            .init(key: "output", value: .string("mask")), .init(key: "activation", value: .string("softmax")),
            .init(key: "labels", value: .string("labels.txt")), .init(key: "threshold", value: .number(Double(Float(0.4)))),
        ]))
        #expect(Self.issues(["output": "nothing"]) == ["segmentation.output"])
        #expect(Self.issues(["output": "mask"], shape: [1, 16]) == ["segmentation.output"])
        #expect(Self.issues(["output": "mask"], shape: [1, 4, 4, 300]) == ["segmentation.output"])
        #expect(Self.issues(["output": "mask", "activation": "relu"]) == ["segmentation.activation"])
        #expect(Self.issues(["output": "mask", "threshold": 2]) == ["segmentation.threshold"])
        #expect(Self.issues(["output": "mask", "labels": "../labels.txt"]).contains("segmentation.labels"))
        #expect(Self.issues(["output": "mask", "labels": "labels.txt"]) == ["segmentation.labels"])
        #expect(Self.issues(["output": "mask", "colour": "red"]) == ["segmentation.colour"])
    }

    static func decoder(_ entry: JSONObject, shape: [Int] = [1, 4, 4, 3]) throws -> SegmentationDecoder {
        try SegmentationDecoder(bundle: bundle(entry, shape: shape), configuration: ModelConfiguration())
    }

    static func outputs(_ values: [Float], shape: [Int]) -> Outputs {
        Outputs([Output(name: "mask", value: .numbers(.float32(values), shape: shape))])
    }

    @Test("a photo several times the tensor's size takes each decided cell's category and blends the rest, one of the tensor's size each tensor pixel's leader: the same categories as blending every pixel", arguments: [
        (ImageResizeMode.stretch, 3), (ImageResizeMode.aspectFill, 5), (ImageResizeMode.aspectFit, 4), (ImageResizeMode.stretch, 1),
    ] as [(ImageResizeMode, Int)])
    func decidedCells(_ mode: ImageResizeMode, _ scale: Int) {
        // 12×9 tensor, 7 channels of random scores with exact ties, near-ties, NaN and large magnitudes mixed in.
        var generator = SystemRandomNumberGenerator()
        let (width, height, channels) = (12, 9, 7)
        var values = (0..<(width * height * channels)).map { _ in Float.random(in: -4...4, using: &generator) }
        for index in stride(from: 0, to: values.count, by: 11) { values[index] = values[index + 1 < values.count ? index + 1 : 0] }
        for index in stride(from: 5, to: values.count, by: 17) { values[index] = values[index - 1].nextUp }
        values[40] = .nan
        values[200] = 900
        // Scale 1: the photo is the tensor's size, sampled pixel for pixel (the one-to-one path).
        let photo = scale == 1 ? ImageSize(width: width, height: height) : ImageSize(width: width * scale + 1, height: height * scale - 2)
        let fit = ImageFit(photo: photo, target: ImageSize(width: width, height: height), mode: mode, filter: .bilinear)
        let field = ConfidenceField(tensorWidth: width, tensorHeight: height, channels: channels, values: values, fit: fit, photo: photo)
        let blended = field.rows.flatMap { row in field.columns.map { field.blendedLeader(row: row, column: $0) } }
        #expect(field.categories(threshold: 0.5) == blended)
        #expect(ConfidenceField.isOneToOne(field.rows, size: height) == (scale == 1))
    }

    @Test("RowResampler: each column blends its two values as the checked loop did, for any channel of a row", arguments: [1, 3])
    func rowResampler(_ channels: Int) {
        var generator = SystemRandomNumberGenerator()
        let width = 9, photoWidth = 23, rows = 4
        var values = (0..<(rows * width * channels)).map { _ in Float(Int.random(in: -40...40, using: &generator)) / 8 }
        values[5] = .nan
        values[7] = .infinity
        let taps = ConfidenceField.taps(count: photoWidth, origin: 1.5, extent: 20, size: width)
        let resampler = RowResampler(
            first: taps.map { $0.first * channels }, second: taps.map { $0.second * channels }, weights: taps.map(\.weight)
        )
        #expect(resampler.count == photoWidth)
        for row in 0..<rows {
            for channel in 0..<channels {
                let base = row * width * channels + channel
                var line = [Float](repeating: -1, count: photoWidth + 2)
                resampler.resample(values, from: base, into: &line)
                let expected = taps.map { tap -> Float in
                    let a = values[base + tap.first * channels], b = values[base + tap.second * channels]
                    return a + (b - a) * tap.weight
                }
                #expect(zip(line.prefix(photoWidth), expected).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) })
                #expect(line.suffix(2) == [-1, -1])
            }
        }
    }

    @Test("ChannelArgmax: each pixel's leader, lead and the largest magnitude as a plain loop finds them, NaN ignored", arguments: [1, 2, 7, 21])
    func channelArgmax(_ channels: Int) {
        var generator = SystemRandomNumberGenerator()
        let pixels = 8 * 5 + 3  // both the eight-lane loop and the rest
        var values = (0..<(pixels * channels)).map { _ in Float(Int.random(in: -40...40, using: &generator)) / 8 }
        values[3 % values.count] = .nan
        let (leader, lead, largest) = ChannelArgmax.find(in: values, channels: channels)
        for pixel in 0..<pixels {
            let scores = values[(pixel * channels)..<((pixel + 1) * channels)].filter { !$0.isNaN }.sorted(by: >)
            guard let first = scores.first else { continue }
            let second = scores.count > 1 ? scores[1] : -Float.infinity
            #expect(lead[pixel] == first - second)
            if first > second { #expect(values[pixel * channels + Int(leader[pixel])] == first) }
        }
        #expect(largest == values.filter { !$0.isNaN }.map(abs).max())
    }

    @Test("softmax and argmax per pixel, confidences resized onto a photo twice the tensor's size; one channel splits at the threshold")
    func masks() throws {
        // 2×2 tensor, 2 categories: the left column prefers category 1, the right one category 0.
        let decoder = try Self.decoder(["output": "mask", "activation": "softmax"], shape: [1, 2, 2, 2])
        let values: [Float] = [0, 3, 2, 0, 0, 3, 2, 0]
        let mask = try decoder.mask(in: Self.outputs(values, shape: [1, 2, 2, 2]), photo: ImageSize(width: 4, height: 4))
        #expect(mask.categoryIndices == [1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0])
        let confidence = try mask.confidences(forCategory: 1)
        #expect(abs(confidence[0] - 1 / (1 + exp(-3))) < 1e-6 && confidence[0] > confidence[1] && confidence[1] > confidence[2])
        #expect(throws: TensorIOError.self) { try mask.confidences(forCategory: 2) }
        // One channel, sigmoid: foreground (1) above the threshold.
        let single = try Self.decoder(["output": "mask", "activation": "sigmoid", "threshold": 0.6], shape: [1, 2, 2, 1])
        let foreground = try single.mask(in: Self.outputs([2, -2, 0, 0.5], shape: [1, 2, 2, 1]), photo: ImageSize(width: 2, height: 2))
        #expect(foreground.categoryIndices == [1, 0, 0, 1] && foreground.categoryCount == 2 && foreground.labels == ["background", "foreground"])
        #expect(try foreground.confidences(forCategory: 0)[0] < 0.2)
    }

    @Test("no segmentation entry: one error at the entry's key saying how to get one — the registry that infers it for a bare model, the entry for a bundle")
    func missingEntry() throws {
        let selfie = Fixtures.repositoryURL("Tests/Fixtures/Metadata/selfie_segmentation.tflite")
        let photo = try PixelBuffer(width: 8, height: 8, format: .gray, repeating: 128)
        let bare = try ModelBundle(modelAt: selfie).makeModel()  // the built-in registry infers no segmentation
        expectTensorIOError(.unsupported, location: "segmentation", containing: ["describes no segmentation output", "registry: .vision"]) {
            try bare.segment(photo)
        }
        _ = try ModelBundle(modelAt: selfie, registry: .vision).makeModel().segment(photo)
        let written = try Self.bundle(nil)
        expectTensorIOError(.unsupported, location: "segmentation", containing: ["add a \"segmentation\" entry to model.json"]) {
            try written.makeModel().segment(photo)
        }
    }

    @Test("a photo 20 times the model's size gives a mask of the photo's size, every pixel a category")
    func largePhoto() throws {
        let model = try ModelBundle(modelAt: Fixtures.repositoryURL("Tests/Fixtures/Metadata/selfie_segmentation.tflite"), registry: .everyTask).makeModel()
        let photo = try PixelBuffer(width: 5120, height: 5120, format: .gray, repeating: 128)
        let mask = try model.segment(photo)
        #expect(mask.width == 5120 && mask.height == 5120 && mask.categoryIndices.count == 5120 * 5120)
        #expect(mask.categoryIndices.allSatisfy { $0 < 2 })
    }

    @Test("NaN or infinite scores, and an output that disagrees with the description, give a bounded result or one error")
    func hostile() throws {
        let decoder = try Self.decoder(["output": "mask", "activation": "softmax"], shape: [1, 2, 2, 2])
        let values: [Float] = [.nan, 1, .nan, .nan, .infinity, 0, -.infinity, 5]
        let mask = try decoder.mask(in: Self.outputs(values, shape: [1, 2, 2, 2]), photo: ImageSize(width: 3, height: 3))
        #expect(mask.categoryIndices.count == 9 && mask.categoryIndices.allSatisfy { $0 < 2 })
        // Fewer values than the shape says, too many categories, the wrong rank: an output-mismatch error.
        for (values, shape) in [([Float](repeating: 0, count: 7), [1, 2, 2, 2]), ([Float](repeating: 0, count: 300), [1, 1, 1, 300]), ([Float](repeating: 0, count: 8), [8])] {
            let error = #expect(throws: TensorIOError.self) { try decoder.mask(in: Self.outputs(values, shape: shape), photo: ImageSize(width: 3, height: 3)) }
            #expect(error?.code == .outputMismatch)
        }
    }
}
