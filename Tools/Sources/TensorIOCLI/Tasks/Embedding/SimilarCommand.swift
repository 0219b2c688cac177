import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio similar MODEL QUERY FILE_OR_FOLDER... [--top K] [--json] [--jobs N]`
struct SimilarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "Rank photos by how similar they are to a query photo.",
        discussion: """
            Embeds QUERY and every photo given (a folder stands for the JPEG and PNG files in it, by name) \
            with MODEL (as for embed) and ranks them by the cosine similarity of their embeddings, best \
            first. Prints one line per match: rank, similarity, path. With --json one line: \
            {"query":P,"matches":[{"path":P2,"similarity":S}]}. Photos that cannot be read are reported at \
            the end, one line each, and the exit status is then 1.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Argument(help: "The query photo (JPEG or PNG).")
    var query: String

    @Argument(help: "Photos, or folders of photos, to rank.")
    var candidates: [String]

    @Option(help: "Show the K most similar (default: all).")
    var top: Int?

    @Flag(help: "Print one JSON line instead of text.")
    var json = false

    @OptionGroup var jobOptions: JobsOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        guard !candidates.isEmpty else { throw ValidationError("give at least one photo or folder to rank") }
        if let top, top < 1 { throw ValidationError("--top must be at least 1") }
    }

    /// The photos to rank: files as given, folders as their JPEG and PNG files sorted by name.
    static func photos(in paths: [String]) throws -> [URL] {
        var photos: [URL] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            guard UntrustedFile.kind(of: url) == .directory else {
                photos.append(url)
                continue
            }
            let files: [URL]
            do {
                files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            } catch {
                throw CLIError("cannot read the folder \(path): \(SystemErrorText.reason(of: error))")
            }
            photos += files.filter { ["jpg", "jpeg", "png"].contains($0.pathExtension.lowercased()) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
                .map { URL(fileURLWithPath: path).appendingPathComponent($0.lastPathComponent) }
        }
        guard !photos.isEmpty else { throw CLIError("no JPEG or PNG photos in \(paths.joined(separator: ", "))") }
        return photos
    }

    func run() async throws {
        let photos = try Self.photos(in: candidates)
        let embedder = try PhotoEmbedder(model: model, images: imageOptions, jobs: jobOptions, count: photos.count + 1)
        var failures = InputFailures()
        var embeddings: [(path: String, embedding: Embedding)] = []
        let files = [URL(fileURLWithPath: query)] + photos
        var index = 0
        for await result in embedder.embeddings(of: files, options: EmbeddingOptions()) {
            let path = files[index].relativePath
            index += 1
            do {
                embeddings.append((path, try result.get()))
            } catch {
                failures.record(error, path: path)
                // Without the query there is nothing to rank.
                if index == 1 { throw failures }
            }
        }
        guard let (_, queryEmbedding) = embeddings.first else { return }
        var matches: [(path: String, similarity: Double)] = []
        for (path, embedding) in embeddings.dropFirst() {
            do {
                matches.append((path, try queryEmbedding.cosineSimilarity(to: embedding)))
            } catch {
                failures.record(error, path: path)
            }
        }
        // Best first; equal similarities keep the order given.
        matches = matches.enumerated().sorted { ($0.element.similarity, -$0.offset) > ($1.element.similarity, -$1.offset) }.map(\.element)
        if let top { matches = Array(matches.prefix(top)) }
        if json {
            print(JSONText.render(.object([
                ("query", .string(query)),
                ("matches", .array(matches.map { .object([("path", .string($0.path)), ("similarity", .double($0.similarity))]) })),
            ])))
        } else {
            print("\(query):")
            for (rank, match) in matches.enumerated() {
                print("  \(rank + 1). \(String(format: "%.4f", match.similarity))  \(match.path)")
            }
        }
        if !failures.isEmpty { throw failures }
    }
}
