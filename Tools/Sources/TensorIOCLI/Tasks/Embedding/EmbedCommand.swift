import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOText
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio embed MODEL FILE... [--normalize] [--quantize] [--json] [--jobs N]`, or `MODEL VIDEO...
/// [--every N | --fps F] [--start S] [--end S] [--json]`
struct EmbedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Turn photos or texts into embeddings: vectors to compare.",
        discussion: """
            MODEL is a bundle whose model.json has an "embedding" entry, or a model whose only output is a \
            vector (a feature-vector model). Prints one line per photo: its path, the vector's size and \
            length, and its first values. With --json one line: {"embeddings":[{"path":P,"values":[…]}]} \
            (quantized values are integers from -128 to 127). Photos that cannot be read are reported at \
            the end, one line each, and the exit status is then 1.

            A model with a "text" entry (or tokenizer metadata) embeds texts instead: --text "..." \
            (repeatable) or --text-file F (one text a line); with --json {"embeddings":[{"text":T,"values":[…]}]}.

            \(VideoOptionGroup.discussion(drawing: nil))
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Argument(help: "JPEG or PNG files.")
    var images: [String] = []

    @OptionGroup var text: TextOptionGroup

    @Flag(help: "Divide each vector by its length (L2 norm), as MediaPipe's l2_normalize.")
    var normalize = false

    @Flag(help: "Quantize each value to a byte, clamp(round(v × 128), -128, 127), as MediaPipe's quantize.")
    var quantize = false

    @Flag(help: "Print one JSON line instead of text.")
    var json = false

    @OptionGroup var jobOptions: JobsOptionGroup

    @OptionGroup var videoOptions: VideoOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        guard images.isEmpty != text.isEmpty else {
            throw ValidationError(images.isEmpty ? "give at least one image or --text" : "give images or --text/--text-file, not both")
        }
    }

    func run() async throws {
        let options = EmbeddingOptions(normalizes: normalize ? true : nil, quantizes: quantize ? true : nil)
        let videos = try videoOptions.videos(among: images)
        if !text.isEmpty { return try await embedTexts(options: options) }
        if let videos {
            // A video's frames run one after the other, on one compiled copy with every core.
            jobOptions.warnUnusedForVideos()
            let model = try PhotoEmbedder(model: model, images: imageOptions, jobs: jobOptions, count: 1).model
            return try await ClipTaskRunner(
                paths: videos, sampling: videoOptions.sampling, json: json, drawing: nil,
                task: { frame, _ in (try model.embed(frame.image, options: options), nil) },
                element: Self.json, block: { heading, embedding, _ in print(Self.summary(embedding, of: heading)) }
            ).run()
        }
        let embedder = try PhotoEmbedder(model: model, images: imageOptions, jobs: jobOptions, count: images.count)
        try await PhotoResultPrinter.print(
            embedder.embeddings(of: images.map { URL(fileURLWithPath: $0) }, options: options), paths: images,
            jsonKey: json ? "embeddings" : nil,
            element: Self.json,
            block: { path, embedding, _ in print(Self.summary(embedding, of: path)) }
        )
    }

    /// A photo's JSON object (a video frame's too, with the frame's index and time added).
    static func json(path: String, _ embedding: Embedding) -> JSONText.Value {
        .object([("path", .string(path)), ("values", values(embedding))])
    }

    /// One line: the vector's size, length and first values.
    static func summary(_ embedding: Embedding, of name: String) -> String {
        let floats = embedding.isQuantized ? embedding.quantizedValues.map(Float.init) : embedding.values
        let length = floats.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
        let first = floats.prefix(4).map { embedding.isQuantized ? String(Int($0)) : String(format: "%.4f", $0) }
        return "\(name): \(embedding.count) values\(embedding.isQuantized ? " (quantized)" : ""), length \(String(format: "%.4f", length)), [\(first.joined(separator: ", "))\(embedding.count > 4 ? ", …" : "")]"
    }

    /// The values as JSON: floats, or integers when quantized.
    static func values(_ embedding: Embedding) -> JSONText.Value {
        .array(embedding.isQuantized ? embedding.quantizedValues.map { .integer(Int64($0)) } : embedding.values.map { .float($0) })
    }

    /// `--text`/`--text-file`: each text embedded, printed in order.
    private func embedTexts(options: EmbeddingOptions) async throws {
        try await text.run(
            model: model, bundle: try model.openBundle(), jobs: jobOptions, jsonKey: json ? "embeddings" : nil,
            work: { model, text in try model.embed(text: text, options: options) },
            element: { text, embedding in .object([("text", .string(text)), ("values", Self.values(embedding))]) },
            block: { text, embedding, _ in print(Self.summary(embedding, of: text.count > 60 ? String(text.prefix(59)) + "…" : text)) }
        )
    }
}

/// A model ready to embed photos on several compiled copies at once: what `embed` and `similar` share.
struct PhotoEmbedder: Sendable {
    let model: any Model
    let jobs: Int

    init(model options: ModelOptionGroup, images: ImageOptionGroup, jobs jobOptions: JobsOptionGroup, count: Int) throws {
        let jobs = jobOptions.count(for: count)
        let (bundle, model) = try options.makeModel(
            images: images, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
        )
        guard bundle.inputs.count == 1, bundle.inputs[0].isImage else {
            throw CLIError("\(options.bundle) does not take one image: an embedder's one input is an image layer")
        }
        _ = try EmbeddingDescription.required(by: bundle)
        try RuntimeLog.capturing { try model.load() }
        self.model = model
        self.jobs = jobs
    }

    /// The embeddings of `files`, in order, each a result: a photo that cannot be read fails alone.
    func embeddings(of files: [URL], options: EmbeddingOptions) -> AsyncStream<Result<Embedding, any Error>> {
        model.results(for: files, concurrency: jobs) { url -> Embedding in
            _ = try InputFileURL.checked(url.relativePath, .image)
            return try model.embed(try PixelBuffer(contentsOf: url, limits: model.configuration.limits), options: options)
        }
    }
}
