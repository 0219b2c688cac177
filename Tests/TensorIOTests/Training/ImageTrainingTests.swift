import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// A training step on photos: the core prepares a batch's images (orients and scales them to the layer)
/// before the step, as it does for runs, so the step sees exactly what `LayerDescription.writeImage`
/// writes. An image reaching the tensor unprepared fails an assertion in debug builds.
@Suite("Training on images")
struct ImageTrainingTests {
    @Test("photos larger than the layer train as the same pixels writeImage writes")
    func photosArePreparedForTheStep() throws {
        try withTemporaryDirectory { folder in
            // The digits trainer with its 64 inputs declared as an 8×8 gray image layer.
            let copy = try copyFixture(
                "digits-train-tflite.tiobundle",
                from: Fixtures.examplesDirectory.appendingPathComponent("digits-training"), into: folder
            ) { json in
                var inputs = try #require(json["inputs"] as? [JSONObject])
                inputs[0] = [
                    "name": "image", "type": "image", "shape": [-1, 8, 8, 1], "format": "GRAY",
                    "normalize": ["standard": "[0,1]"],
                ]
                json["inputs"] = inputs
            }
            let bundle = try ModelBundle(at: copy)
            let layer = try bundle.inputs["image"]
            // 16×16 photos, so the step must scale them: a diagonal stroke and a bar.
            let photos = try [(0..<256).map { UInt8($0 % 17 == 0 ? 255 : 0) }, (0..<256).map { UInt8(($0 / 16) % 4 < 2 ? 200 : 30) }]
                .map { try PixelBuffer(width: 16, height: 16, format: .gray, bytes: $0) }
            let labels: [InputValue] = [.numbers(.float32((0..<10).map { $0 == 1 ? 1 : 0 })),
                                        .numbers(.float32((0..<10).map { $0 == 7 ? 1 : 0 }))]
            // What a run writes for each photo, through the public helper.
            let written = try photos.map { photo in
                var floats = [Float](repeating: -1, count: 64)
                try floats.withUnsafeMutableBytes { try layer.writeImage(photo, into: $0, dataType: .float32) }
                return floats
            }

            // One item a step (an image layer's items are checked against the tensor one by one), two steps
            // each, on two fresh models: the same weights must follow from the same pixels.
            let onPhotos = try bundle.makeTrainableModel()
            let onNumbers = try bundle.makeTrainableModel()
            for item in 0..<2 {
                let photoLoss = try onPhotos.train(Batch(item: ["image": .image(photos[item]), "label": labels[item]]))
                let numberLoss = try onNumbers.train(Batch(item: ["image": .numbers(.float32(written[item])), "label": labels[item]]))
                let loss = try photoLoss["loss"].values(as: Float.self)
                #expect(loss.allSatisfy { $0.isFinite })
                #expect(loss == (try numberLoss["loss"].values(as: Float.self)), "step \(item)")
            }
            #expect(written.allSatisfy { $0.contains { $0 > 0 } && $0.allSatisfy { (0...1).contains($0) } })
        }
    }
}
