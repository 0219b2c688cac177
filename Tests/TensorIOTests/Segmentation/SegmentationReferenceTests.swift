import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// The same masks as MediaPipe 0.10.21's Python `ImageSegmenter` (issue 28, point 5) on its selfie
/// segmenters: confidences within 0.02 on at least 99% of pixels and the same foreground area within 1%
/// (`Tests/Fixtures/Segmentation/`, made once by `scripts/fixtures/make_segmentation_references.py`).
/// MediaPipe stretches the photo with OpenCV's corner-mapped bilinear warp (TensorIO's `bilinear`, which the
/// bare model's inferred bundle takes) and resizes the confidences with half-pixel bilinear, as TensorIO does.
@Suite("Segmentation: MediaPipe's answers")
struct SegmentationReferenceTests {
    struct Document: Decodable { var runs: [Run] }
    struct Run: Decodable {
        var name: String
        var model: String
        var images: [Image]
    }
    struct Image: Decodable {
        var path: String
        var displayed: [Int]
        var confidence_masks: [Mask]?
        var foreground_area: Double?
    }
    struct Mask: Decodable { var path: String }

    static func runs() throws -> [Run] {
        let url = Fixtures.repositoryURL("Tests/Fixtures/Segmentation/references.json")
        return try JSONDecoder().decode(Document.self, from: Data(contentsOf: url)).runs.filter { $0.name.hasPrefix("selfie") }
    }

    /// The test data the selfie runs' photos include.
    static let testData = ((try? runs()) ?? []).flatMap { $0.images.map(\.path) }.filter(TestData.isPinned)

    @Test("the selfie segmenters' confidence masks and foreground areas", TestData.required(testData),
          arguments: ["selfie-general", "selfie-landscape"])
    func selfie(_ name: String) throws {
        let run = try #require(try Self.runs().first { $0.name == name })
        let model = try ModelBundle(modelAt: Fixtures.repositoryURL(".build/zoo/mediapipe-modules/" + run.model), registry: .everyTask)
            .makeModel()  // as inferred from the file: stretched, bilinear
        var worstShare = 1.0, worstArea = 0.0
        for image in run.images {
            guard let file = image.confidence_masks?.first?.path, let area = image.foreground_area else { continue }
            let mask = try model.segment(contentsOf: TestData.referencedURL(image.path))
            let reference = try PixelBuffer(contentsOf: Fixtures.repositoryURL(file))
            #expect([mask.width, mask.height] == image.displayed && reference.width == mask.width && reference.height == mask.height)
            let confidences = try mask.confidences(forCategory: 1)
            var close = 0
            for y in 0..<mask.height {
                for x in 0..<mask.width where abs(Double(confidences[y * mask.width + x]) - Double(reference.pixel(x: x, y: y)?.first ?? 0) / 255) <= 0.02 {
                    close += 1
                }
            }
            let share = Double(close) / Double(mask.width * mask.height)
            let ours = mask.fractions[1]
            worstShare = min(worstShare, share)
            worstArea = max(worstArea, abs(ours - area))
            #expect(share >= 0.99, "\(image.path): \(share) of pixels within 0.02")
            #expect(abs(ours - area) <= 0.01, "\(image.path): foreground \(ours) against \(area)")
        }
        print("segmentation-reference | \(name) | \(run.images.count) photos | confidences within 0.02 on ≥ \(String(format: "%.2f", worstShare * 100))% of pixels | foreground area ≤ \(String(format: "%.4f", worstArea)) apart")
    }
}
