#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
import TensorIODelivery

/// Answers `GET …/archive`: the whole archive, or one byte range of it (`Range: bytes=a-b`, `a-`, `-n`),
/// with `ETag` (the quoted SHA-256), `If-None-Match` (304) and `If-Range` (a stale tag gets the whole file).
struct ArchiveResponder {
    let url: URL
    let details: VersionDetails
    let bytesPerSecond: Int?

    func respond(to request: Request) throws -> Response {
        let size = details.size
        let etag = RepositoryAPI.entityTag(sha256: details.sha256)
        var headers: HTTPFields = [
            .contentType: "application/zip", .eTag: etag, .acceptRanges: "bytes", .cacheControl: "no-cache",
            .contentDisposition: "attachment; filename=\"\(details.modelId)-\(details.version).zip\"",
        ]
        if let match = request.headers[.ifNoneMatch], match == "*" || match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == etag
        }) {
            return Response(status: .notModified, headers: headers)
        }
        var range: ClosedRange<Int64>? = nil
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true {
            switch Self.parse(header, size: size) {
            case .none: break  // not a single byte range: the whole file, as RFC 9110 allows
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                headers[.contentType] = "application/json"
                let body = (try? RepositoryAPI.makeEncoder().encode(APIErrorBody(
                    code: "range-not-satisfiable", message: "the range \(header) is outside the archive's \(size) bytes"))) ?? Data()
                return Response(status: .rangeNotSatisfiable, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
            case .range(let satisfiable):
                range = satisfiable
            }
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw APIError(status: .internalServerError, code: "io", message: "the archive of \(details.modelId) version \(details.version) is missing on the server")
        }
        let start = range?.lowerBound ?? 0
        let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? size
        if let range { headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)" }
        let url = self.url
        let rate = bytesPerSecond
        let body = ResponseBody(contentLength: Int(length)) { writer in
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(start))
            var remaining = length
            let chunkSize = rate.map { max(1024, min(256 * 1024, $0 / 20)) } ?? 256 * 1024
            while remaining > 0 {
                let count = Int(min(Int64(chunkSize), remaining))
                guard let chunk = try handle.read(upToCount: count), !chunk.isEmpty else {
                    throw APIError(status: .internalServerError, code: "io", message: "the archive ended early")
                }
                try await writer.write(ByteBuffer(bytes: chunk))
                remaining -= Int64(chunk.count)
                if let rate, rate > 0 {
                    try await Task.sleep(nanoseconds: UInt64(Double(chunk.count) / Double(rate) * 1_000_000_000))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: range == nil ? .ok : .partialContent, headers: headers, body: body)
    }

    enum ParsedRange: Equatable {
        case none
        case unsatisfiable
        case range(ClosedRange<Int64>)
    }

    /// Parses one `bytes=` range against a file of `size` bytes.
    static func parse(_ header: String, size: Int64) -> ParsedRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .none }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return .none }
        if parts[0].isEmpty {
            guard let suffix = Int64(parts[1]), suffix > 0 else { return parts[1].isEmpty ? .none : .unsatisfiable }
            guard size > 0 else { return .unsatisfiable }
            return .range(max(0, size - suffix)...(size - 1))
        }
        guard let first = Int64(parts[0]), first >= 0 else { return .none }
        guard first < size else { return .unsatisfiable }
        if parts[1].isEmpty { return .range(first...(size - 1)) }
        guard let last = Int64(parts[1]), last >= first else { return .none }
        return .range(first...min(last, size - 1))
    }
}
#endif
