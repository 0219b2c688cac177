#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation

/// The JSON documents of the repository API (`/v1/…`), shared by the server and the client.
///
/// Dates are ISO 8601 strings in UTC; see `docs/repository-api.md` for every endpoint.
public enum RepositoryAPI {
    /// The API's path prefix.
    public static let prefix = "/v1"

    /// An encoder producing the API's JSON (ISO 8601 dates, sorted keys for stable output).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder reading the API's JSON.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The quoted entity tag of an archive: its SHA-256 in hex.
    public static func entityTag(sha256: String) -> String { "\"\(sha256)\"" }
}

/// `GET /v1/health`.
public struct HealthResponse: Codable, Sendable, Hashable {
    /// `SERVING` when the server answers requests.
    public var status: String
    /// How many models the index holds.
    public var models: Int
    /// How many versions the index holds.
    public var versions: Int
    /// Inconsistencies found at start-up (an indexed version whose archive is missing or has the wrong
    /// size); empty when all is well, and then ``status`` is `SERVING`, else `DEGRADED`.
    public var problems: [String]

    /// Creates a health document.
    public init(status: String, models: Int, versions: Int, problems: [String] = []) {
        self.status = status
        self.problems = problems
        self.models = models
        self.versions = versions
    }
}

/// A model in a listing, and `GET /v1/models/{id}`.
public struct ModelSummary: Codable, Sendable, Hashable {
    /// The model's identifier.
    public var id: String
    /// The version clients should use; `nil` only while a model has no versions (never, in practice).
    public var canonicalVersion: String?
    /// How many versions the model has.
    public var versionCount: Int
    /// When the model's first version was uploaded.
    public var createdAt: Date
    /// When a version was last uploaded or the canonical pointer last moved.
    public var updatedAt: Date

    /// Creates a model summary.
    public init(id: String, canonicalVersion: String?, versionCount: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.canonicalVersion = canonicalVersion
        self.versionCount = versionCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/models?limit=&after=`: one page of models, in identifier order.
public struct ModelPage: Codable, Sendable, Hashable {
    /// The models on this page.
    public var models: [ModelSummary]
    /// The `after` value for the next page; `nil` on the last page.
    public var next: String?

    /// Creates a page.
    public init(models: [ModelSummary], next: String?) {
        self.models = models
        self.next = next
    }
}

/// One version of a model: `GET /v1/models/{id}/versions/{v}`, and the answer to an upload.
public struct VersionDetails: Codable, Sendable, Hashable {
    /// The model's identifier.
    public var modelId: String
    /// The version's identifier.
    public var version: String
    /// The archive's SHA-256, lowercase hex.
    public var sha256: String
    /// The archive's size in bytes.
    public var size: Int64
    /// When the version was uploaded.
    public var createdAt: Date
    /// Free text given at upload.
    public var notes: String?
    /// A version clients on this one should move to, whatever the canonical version is.
    public var upgradeTo: String?
    /// Whether this is the model's canonical version.
    public var canonical: Bool
    /// The name of the bundle folder inside the archive, such as `number.tiobundle`.
    public var bundleName: String
    /// The upload order on this server: a later upload has a larger number (dates may tie).
    public var sequence: Int64

    /// Creates version details.
    public init(
        modelId: String, version: String, sha256: String, size: Int64, createdAt: Date, notes: String?,
        upgradeTo: String?, canonical: Bool, bundleName: String, sequence: Int64
    ) {
        self.sequence = sequence
        self.modelId = modelId
        self.version = version
        self.sha256 = sha256
        self.size = size
        self.createdAt = createdAt
        self.notes = notes
        self.upgradeTo = upgradeTo
        self.canonical = canonical
        self.bundleName = bundleName
    }
}

/// `GET /v1/models/{id}/versions`: every version, oldest first.
public struct VersionList: Codable, Sendable, Hashable {
    /// The model's identifier.
    public var modelId: String
    /// The canonical version.
    public var canonicalVersion: String?
    /// The versions, in upload order.
    public var versions: [VersionDetails]

    /// Creates a version list.
    public init(modelId: String, canonicalVersion: String?, versions: [VersionDetails]) {
        self.modelId = modelId
        self.canonicalVersion = canonicalVersion
        self.versions = versions
    }
}

/// `PUT /v1/models/{id}/canonical`'s body.
public struct CanonicalRequest: Codable, Sendable, Hashable {
    /// The version to make canonical.
    public var version: String

    /// Creates the request.
    public init(version: String) { self.version = version }
}

/// `PATCH /v1/models/{id}/versions/{v}`'s body: sets (or, with `null`, clears) the version's `upgradeTo`.
public struct VersionPatch: Codable, Sendable, Hashable {
    /// The version clients on this one should move to; `nil` clears it.
    public var upgradeTo: String?

    /// Creates the request.
    public init(upgradeTo: String?) { self.upgradeTo = upgradeTo }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(upgradeTo, forKey: .upgradeTo)  // an explicit null clears
    }
}

/// Every error the server answers: `{"error": {"code": "...", "message": "..."}}`.
public struct APIErrorBody: Codable, Sendable, Hashable {
    /// The error.
    public struct Detail: Codable, Sendable, Hashable {
        /// A stable code such as `invalid-bundle`, `unsafe-archive`, `not-found`.
        public var code: String
        /// A sentence naming what was wrong.
        public var message: String

        /// Creates the detail.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The error.
    public var error: Detail

    /// Creates an error body.
    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}
#endif
