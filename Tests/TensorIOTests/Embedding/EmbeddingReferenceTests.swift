import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
import TensorIOTestSupport

/// The same embeddings as MediaPipe 0.10.21's Python `ImageEmbedder` (issue 28, points 4 and 5) on the
/// EfficientNet-Lite0 feature-vector bundle of `Examples/`: cosine ≥ 1 − 1e-4 against MediaPipe's vectors, quantized
/// bytes within ±1, and `Embedding.cosineSimilarity` equal to MediaPipe's `cosine_similarity`
/// (`Tests/Fixtures/Embedding/`, made once by `scripts/fixtures/make_embedding_references.py`). MediaPipe stretches
/// the photo with OpenCV's corner-mapped bilinear warp, which the bundle's `"resize": "stretch", "scaling":
/// "bilinear"` reproduces.
@Suite("Embeddings: MediaPipe's answers")
struct EmbeddingReferenceTests {
    static let bundlePath = "Examples/efficientnet-lite0-embedding.tiobundle"

    struct Document: Decodable, Sendable {
        var model: ModelEntry
        var images: [Image]
        var cosine_similarity: [Pair]
    }
    struct ModelEntry: Decodable, Sendable { var path: String; var sha256: String }
    struct Image: Decodable, Sendable {
        var path: String
        var plain: [Double]
        var normalized: [Double]
        var quantized: [Int]
        var normalized_quantized: [Int]
    }
    struct Pair: Decodable, Sendable {
        var a: String
        var b: String
        var plain: Double
        var normalized: Double
        var quantized: Double
        var normalized_quantized: Double
    }

    /// The four option sets of the references, as `EmbeddingOptions`.
    enum Variant: String, CaseIterable, Sendable {
        case plain, normalized, quantized, normalizedQuantized = "normalized_quantized"

        var options: EmbeddingOptions {
            switch self {
            case .plain: EmbeddingOptions(normalizes: false, quantizes: false)
            case .normalized: EmbeddingOptions(normalizes: true, quantizes: false)
            case .quantized: EmbeddingOptions(normalizes: false, quantizes: true)
            case .normalizedQuantized: EmbeddingOptions(normalizes: true, quantizes: true)
            }
        }

        func reference(_ image: Image) -> Embedding {
            switch self {
            case .plain: Embedding(values: image.plain.map(Float.init))
            case .normalized: Embedding(values: image.normalized.map(Float.init))
            case .quantized: Embedding(quantizedValues: image.quantized.map(Int8.init))
            case .normalizedQuantized: Embedding(quantizedValues: image.normalized_quantized.map(Int8.init))
            }
        }

        func similarity(_ pair: Pair) -> Double {
            switch self {
            case .plain: pair.plain
            case .normalized: pair.normalized
            case .quantized: pair.quantized
            case .normalizedQuantized: pair.normalized_quantized
            }
        }
    }

    /// The references and TensorIO's embeddings of every photo with every option set: one model load, each photo
    /// decoded once, shared by the tests below.
    struct Computed: Sendable {
        var document: Document
        var bundle: ModelBundle
        /// ours[variant][photo path]
        var ours: [Variant: [String: Embedding]]
    }

    static let computed: Result<Computed, any Error> = Result {
        let document = try JSONDecoder().decode(
            Document.self, from: Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Embedding/references.json"))
        )
        let bundle = try ModelBundle(at: Fixtures.repositoryURL(bundlePath))
        let model = try bundle.makeModel()
        var ours: [Variant: [String: Embedding]] = [:]
        for image in document.images {
            let photo = try PixelBuffer(contentsOf: Fixtures.repositoryURL(image.path))
            for variant in Variant.allCases {
                ours[variant, default: [:]][image.path] = try model.embed(photo, options: variant.options)
            }
        }
        return Computed(document: document, bundle: bundle, ours: ours)
    }

    static func cosine(_ a: Embedding, _ b: Embedding) throws -> Double { try a.cosineSimilarity(to: b) }

    @Test("the bundle: the referenced model, stretched with the bilinear filter, its output named as the embedding")
    func bundle() throws {
        let computed = try Self.computed.get()
        let model = Fixtures.repositoryURL(computed.document.model.path)
        #expect(computed.document.model.path == Self.bundlePath + "/model.tflite")
        #expect(try Data(contentsOf: model).count == 13_446_496)
        #expect(try computed.bundle.embedding == EmbeddingDescription(output: "embedding", normalizes: false, quantizes: false))
        #expect(computed.bundle.inputs[0].isImage && computed.bundle.outputs.map(\.name) == ["embedding"])
        // The bare model (no metadata, no model.json) implies the same embedding output.
        let bare = try ModelBundle(modelAt: model, registry: .everyTask)
        #expect(try EmbeddingDescription.implied(by: bare) == EmbeddingDescription(output: "embedding", normalizes: false, quantizes: false))
    }

    @Test("float embeddings: cosine to MediaPipe's ≥ 1 − 1e-4 on every photo; normalized ones have length 1", arguments: [Variant.plain, .normalized])
    func floats(_ variant: Variant) throws {
        let computed = try Self.computed.get()
        var worst = 1.0, worstLength = 0.0
        for image in computed.document.images {
            let ours = try #require(computed.ours[variant]?[image.path])
            let theirs = variant.reference(image)
            #expect(!ours.isQuantized && ours.count == 1280 && theirs.count == 1280)
            let cosine = try Self.cosine(ours, theirs)
            worst = min(worst, cosine)
            #expect(cosine >= 1 - 1e-4, "\(image.path): cosine \(cosine) to MediaPipe's \(variant.rawValue) embedding")
            if variant == .normalized {
                let length = ours.values.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
                worstLength = max(worstLength, abs(length - 1))
                #expect(abs(length - 1) <= 1e-5, "\(image.path): length \(length)")
            }
        }
        print("embedding-reference | \(variant.rawValue) | \(computed.document.images.count) photos | cosine to MediaPipe's ≥ 1 − \(String(format: "%.2e", 1 - worst))\(variant == .normalized ? " | length 1 within \(String(format: "%.1e", worstLength))" : "")")
    }

    @Test("the bare model.tflite as ModelBundle(modelAt:, registry: .everyTask) infers it: stretched bilinearly as MediaPipe's ImageEmbedder, cosine to its plain embeddings ≥ 1 − 1e-4 on every photo")
    func bareModel() throws {
        let computed = try Self.computed.get()
        // The file carries no metadata: the input is named an image, with the (x − 127.5) / 127.5 that
        // MediaPipe's metadata copy of it says (Tests/Fixtures/Embedding/README.md).
        let normalization = try #require(NormalizationSpec.meanAndStandardDeviation(mean: [127.5], std: [127.5]))
        let bare = try ModelBundle(
            modelAt: Fixtures.repositoryURL(computed.document.model.path),
            options: BundleInferenceOptions(imageInputs: ["image"], normalization: normalization)
        )
        #expect(try bare.embedding == nil && EmbeddingDescription.implied(by: bare) == computed.bundle.embedding)
        #expect(bare.inputs[0].imageResizeMode == .stretch && bare.inputs[0].imageScalingFilter == .bilinear)
        let model = try bare.makeModel()
        var worst = 1.0
        for image in computed.document.images {
            let ours = try model.embed(PixelBuffer(contentsOf: Fixtures.repositoryURL(image.path)), options: Variant.plain.options)
            let cosine = try Self.cosine(ours, Variant.plain.reference(image))
            worst = min(worst, cosine)
            #expect(cosine >= 1 - 1e-4, "\(image.path): cosine \(cosine) to MediaPipe's plain embedding")
        }
        print("embedding-reference | bare model.tflite | \(computed.document.images.count) photos | cosine to MediaPipe's ≥ 1 − \(String(format: "%.2e", 1 - worst))")
    }

    @Test("quantized embeddings: every byte within ±1 of MediaPipe's", arguments: [Variant.quantized, .normalizedQuantized])
    func quantized(_ variant: Variant) throws {
        let computed = try Self.computed.get()
        var differing = 0, total = 0
        for image in computed.document.images {
            let ours = try #require(computed.ours[variant]?[image.path])
            let theirs = variant.reference(image)
            #expect(ours.isQuantized && ours.count == theirs.count)
            for (a, b) in zip(ours.quantizedValues, theirs.quantizedValues) {
                #expect(abs(Int(a) - Int(b)) <= 1, "\(image.path): byte \(a) against MediaPipe's \(b)")
                if a != b { differing += 1 }
            }
            total += theirs.count
        }
        print("embedding-reference | \(variant.rawValue) | \(differing) of \(total) bytes differ from MediaPipe's (by at most 1)")
    }

    @Test("cosine similarity: on MediaPipe's vectors = its cosine_similarity within 1e-6; on ours within 1e-4 (float) / 2e-3 (quantized)", arguments: Variant.allCases)
    func similarity(_ variant: Variant) throws {
        let computed = try Self.computed.get()
        let images = Dictionary(uniqueKeysWithValues: computed.document.images.map { ($0.path, $0) })
        #expect(computed.document.cosine_similarity.count == images.count * (images.count - 1) / 2)
        let tolerance = variant == .plain || variant == .normalized ? 1e-4 : 2e-3
        var worstReference = 0.0, worstOurs = 0.0
        for pair in computed.document.cosine_similarity {
            let a = try #require(images[pair.a]), b = try #require(images[pair.b])
            let expected = variant.similarity(pair)
            let onReference = try Self.cosine(variant.reference(a), variant.reference(b))
            worstReference = max(worstReference, abs(onReference - expected))
            #expect(abs(onReference - expected) <= 1e-6, "\(pair.a) ~ \(pair.b): \(onReference) against \(expected)")
            let ours = try Self.cosine(try #require(computed.ours[variant]?[pair.a]), try #require(computed.ours[variant]?[pair.b]))
            worstOurs = max(worstOurs, abs(ours - expected))
            #expect(abs(ours - expected) <= tolerance, "\(pair.a) ~ \(pair.b): ours \(ours) against \(expected)")
        }
        print("embedding-reference | \(variant.rawValue) | cosine_similarity of \(computed.document.cosine_similarity.count) pairs: on MediaPipe's vectors within \(String(format: "%.1e", worstReference)), on ours within \(String(format: "%.1e", worstOurs))")
    }
}
