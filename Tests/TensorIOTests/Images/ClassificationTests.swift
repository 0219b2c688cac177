import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Real photos through the EfficientNet-Lite0 bundles in `Examples/` (float32 and uint8), run with LiteRT.
@Suite("Images: classification of real photos")
struct ClassificationTests {
    static let precisions = ["float32", "uint8"]

    static func model(_ precision: String) throws -> any Model {
        let model = try ModelBundle(at: ImageFixtures.efficientNet(precision)).makeModel()
        try model.load()
        return model
    }

    static func scores(_ outputs: Outputs) throws -> LabeledScores {
        #expect(outputs.names == ["classification"])
        return try outputs["classification"].labeled
    }

    @Test("the bundles describe a 224 × 224 RGB input and 1000 labelled scores", arguments: precisions)
    func bundle(_ precision: String) throws {
        let bundle = try ModelBundle(at: ImageFixtures.efficientNet(precision))
        #expect(bundle.inputs.count == 1)
        guard case .image(format: .rgb, _) = bundle.inputs[0].kind else {
            Issue.record("not an RGB image input: \(bundle.inputs[0].kind)")
            return
        }
        #expect(bundle.inputs[0].imageVolume == ImageVolume(height: 224, width: 224, channels: 3))
        #expect(bundle.outputs[0].labels?.values.count == 1000)
        #expect(bundle.outputs[0].labels?.values.first == "tench")
    }

    @Test("cat.jpg's top label is Egyptian cat, tabby or tiger cat", arguments: precisions)
    func cat(_ precision: String) throws {
        let model = try Self.model(precision)
        let photo = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"))
        let scores = try Self.scores(try model.run(photo))
        #expect(scores.count == 1000)
        let top = try #require(scores.top(5).first)
        #expect(ImageFixtures.catLabels.contains(top.label), "\(scores.top(5))")
        // The three cat classes hold most of the probability (0.89 and 0.90 in the README).
        let cats = ImageFixtures.catLabels.compactMap { scores[$0] }.reduce(0, +)
        #expect(cats > 0.7, "\(scores.top(5))")
    }

    @Test("coffee.jpg → espresso; top 5 above 0.1 is exactly one entry in [0, 1]", arguments: precisions)
    func coffee(_ precision: String) throws {
        let model = try Self.model(precision)
        let photo = try PixelBuffer(contentsOf: ImageFixtures.photo("coffee.jpg"))
        let scores = try Self.scores(try model.run(photo))
        #expect(scores.top(1).first?.label == "espresso", "\(scores.top(5))")
        let best = scores.top(5, threshold: 0.1)
        #expect(best.count == 1, "\(best)")
        #expect(best.first?.label == "espresso")
        let score = try #require(best.first?.score)
        #expect((0...1).contains(score))
        #expect(score > 0.9, "the README: 0.950 float32, 0.953 uint8")
        #expect(scores.top(5).count == 5)
    }

    @Test("through a dictionary input: [\"image\": photo]", arguments: precisions)
    func dictionary(_ precision: String) throws {
        let model = try Self.model(precision)
        let cat = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"))
        let coffee = try PixelBuffer(contentsOf: ImageFixtures.photo("coffee.jpg"))
        let catScores = try Self.scores(try model.run(["image": cat]))
        #expect(ImageFixtures.catLabels.contains(catScores.top(1).first?.label ?? ""), "\(catScores.top(5))")
        let coffeeScores = try Self.scores(try model.run(["image": InputValue.image(coffee)]))
        #expect(coffeeScores.top(5, threshold: 0.1).map(\.label) == ["espresso"])
        // The same scores as the single value.
        #expect(try Self.scores(try model.run(coffee)) == coffeeScores)
    }

    @Test("a reduced-size decode gives the same answers", arguments: precisions)
    func reducedDecode(_ precision: String) throws {
        let model = try Self.model(precision)
        let target = ImageSize(width: 224, height: 224)
        let cat = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"), targetSize: target)
        #expect(ImageFixtures.catLabels.contains(try Self.scores(try model.run(cat)).top(1).first?.label ?? ""))
        let coffee = try PixelBuffer(contentsOf: ImageFixtures.photo("coffee.jpg"), targetSize: target)
        #expect(try Self.scores(try model.run(coffee)).top(5, threshold: 0.1).map(\.label) == ["espresso"])
    }

    @Test("float32 scores are probabilities that sum to 1")
    func probabilities() throws {
        let scores = try Self.scores(try Self.model("float32").run(try PixelBuffer(contentsOf: ImageFixtures.photo("coffee.jpg"))))
        #expect(scores.scores.allSatisfy { (0...1).contains($0) })
        #expect(abs(scores.scores.reduce(0, +) - 1) < 1e-3)
    }

    @Test("uint8 scores are multiples of 1/256 (dequantized with the tensor's own scale)")
    func uint8Quanta() throws {
        let scores = try Self.scores(try Self.model("uint8").run(try PixelBuffer(contentsOf: ImageFixtures.photo("coffee.jpg"))))
        #expect(scores.scores.allSatisfy { ($0 * 256).rounded() == $0 * 256 && (0...1).contains($0) })
    }

    /// The top-1 label of every other photo agrees with `Examples/efficientnet-lite0-expected.json` (its
    /// margins between first and second are large: 0.08 or more).
    @Test("the other photos' top-1 labels match efficientnet-lite0-expected.json", arguments: precisions)
    func expectedTopLabels(_ precision: String) throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: ImageFixtures.examples.appendingPathComponent("efficientnet-lite0-expected.json"))) as? [String: Any]
        )
        let photos = try #require(json["photos"] as? [String: Any])
        let model = try Self.model(precision)
        for name in ["coffee.jpg", "grace_hopper.jpg", "china.jpg", "flower.jpg", "retina.jpg"] {
            let entry = try #require(photos[name] as? [String: Any])
            let top5 = try #require(entry["\(precision)_top5"] as? [[String: Any]])
            let expected = try #require(top5.first?["label"] as? String)
            let photo = try PixelBuffer(contentsOf: ImageFixtures.photo(name))
            #expect(photo.width == entry["width"] as? Int && photo.height == entry["height"] as? Int, "\(name)")
            let scores = try Self.scores(try model.run(photo))
            #expect(scores.top(1).first?.label == expected, "\(name): \(scores.top(3))")
        }
    }

    @Test("classifying with several threads gives the same scores")
    func threads() throws {
        let bundle = try ModelBundle(at: ImageFixtures.efficientNet("float32"))
        let photo = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"))
        let one = try Self.scores(try bundle.makeModel(configuration: ModelConfiguration(threadCount: 1)).run(photo))
        let two = try Self.scores(try bundle.makeModel(configuration: ModelConfiguration(threadCount: 2)).run(photo))
        #expect(one.top(3).map(\.label) == two.top(3).map(\.label))
        #expect(zip(one.scores, two.scores).allSatisfy { abs($0 - $1) < 1e-4 })
    }
}
