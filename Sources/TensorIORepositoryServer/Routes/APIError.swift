#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
import TensorIO
import TensorIODelivery

/// An error answered as `{"error": {"code": …, "message": …}}` with its HTTP status.
struct APIError: HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: jsonHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jsonBody)))
    }

    /// The error's own headers with `Content-Type: application/json`.
    var jsonHeaders: HTTPFields {
        var fields = headers
        fields[.contentType] = "application/json"
        return fields
    }

    /// `{"error": {"code": …, "message": …}}`.
    var jsonBody: Data {
        (try? RepositoryAPI.makeEncoder().encode(APIErrorBody(code: code, message: message))) ?? Data()
    }

    static func badRequest(_ message: String, code: String = "bad-request") -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "not-found", message: message)
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer realm=\"tensorio\""])
    }

    /// The answer for a library error raised while handling an upload.
    static func from(_ error: TensorIOError) -> APIError {
        switch error.code {
        case .tooLarge: return APIError(status: .contentTooLarge, code: error.code.rawValue, message: error.description)
        // An archive or bundle past a limit (unpacked size, entries, ratio, time) is the upload's fault, and
        // so is a model that does not load: it disagrees with its layers, is broken, or crashed the runtime.
        case .invalidBundle, .invalidArchive, .unsafeArchive, .limitExceeded, .layerMismatch, .invalidModelFile,
             .runtimeCrashed, .runtimeFailure, .unsupported, .invalidSignature:
            return APIError(status: .unprocessableContent, code: error.code.rawValue, message: error.description)
        case .invalidIdentifier: return APIError(status: .badRequest, code: error.code.rawValue, message: error.description)
        // The server cannot load models (no runtime, no tensorio-load-check) or is shutting down: try later.
        case .runtimeUnavailable:
            return APIError(status: .serviceUnavailable, code: error.code.rawValue, message: error.description)
        default: return APIError(status: .internalServerError, code: error.code.rawValue, message: error.description)
        }
    }
}
#endif
