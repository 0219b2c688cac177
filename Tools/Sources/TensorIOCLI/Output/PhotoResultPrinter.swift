import Foundation
import TensorIO
import TensorIOToolSupport

/// How `detect`, `segment` and `embed` report photos: each result as soon as it is ready, in the order
/// given — a text block, or one element of a JSON array streamed as `{"KEY":[…]}` on one line — after
/// writing what the photo produced (a drawing, a mask); a photo that failed is one line at the end, and
/// the command then exits 1.
enum PhotoResultPrinter {
    /// Prints `results` (one per path, in order).
    ///
    /// - Parameters:
    ///   - results: The results, in the order of `paths`.
    ///   - paths: The photos' paths as given.
    ///   - jsonKey: The key of the JSON array; `nil` for text.
    ///   - write: Writes the files a result produced; a failure counts as the photo's.
    ///   - element: The photo's JSON element.
    ///   - block: Prints the photo's text block (`first` for the first one printed).
    /// - Throws: ``InputFailures`` when a photo failed.
    static func print<Value: Sendable>(
        _ results: AsyncStream<Result<Value, any Error>>, paths: [String], jsonKey: String?,
        write: (String, Value) throws -> Void = { _, _ in },
        element: (String, Value) -> JSONText.Value, block: (String, Value, _ first: Bool) -> Void
    ) async throws {
        var failures = InputFailures()
        var printed = 0
        if let jsonKey { Swift.print("{\"\(jsonKey)\":[", terminator: "") }
        var remaining = paths.makeIterator()
        for await result in results {
            guard let path = remaining.next() else { break }
            let value: Value
            do {
                value = try result.get()
                try write(path, value)
            } catch {
                failures.record(error, path: path)
                continue
            }
            if jsonKey != nil {
                Swift.print((printed > 0 ? "," : "") + JSONText.render(element(path, value)), terminator: "")
            } else {
                block(path, value, printed == 0)
            }
            printed += 1
        }
        if jsonKey != nil { Swift.print("]}") }
        if !failures.isEmpty { throw failures }
    }
}

/// A photo's result that may carry its drawing, a JPEG, for `--draw DIR` (`detect`, `landmarks`).
protocol DrawnPhotoResult: Sendable {
    /// The drawn photo, or `nil` when nothing is to be drawn.
    var drawing: Data? { get }
}

extension PhotoResultPrinter {
    /// Prints `results` as ``print(_:paths:jsonKey:write:element:block:)`` does, writing each drawing first
    /// as `folder/NAME.jpg` (`NAME-2.jpg` for a second photo of the same name).
    ///
    /// - Parameters:
    ///   - results: The results, in the order of `paths`.
    ///   - paths: The photos' paths as given.
    ///   - json: Whether to print one JSON line under `"images"` rather than text.
    ///   - folder: Where the drawings go; `nil` without `--draw`.
    ///   - element: The photo's JSON element.
    ///   - block: Prints the photo's text block (`first` for the first one printed).
    /// - Throws: ``InputFailures`` when a photo failed.
    static func print<Value: DrawnPhotoResult>(
        _ results: AsyncStream<Result<Value, any Error>>, paths: [String], json: Bool, drawingInto folder: URL?,
        element: (String, Value) -> JSONText.Value, block: (String, Value, _ first: Bool) -> Void
    ) async throws {
        var drawnNames = Set<String>()
        try await print(
            results, paths: paths, jsonKey: json ? "images" : nil,
            write: { path, photo in
                if let folder, let jpeg = photo.drawing {
                    try jpeg.write(to: PhotoFileName.destination(for: path, in: folder, extension: "jpg", taken: &drawnNames), options: .atomic)
                }
            },
            element: element, block: block
        )
    }
}
