#if Server  // built with the Server trait only (Package.swift)
public import Foundation
public import TensorIO

/// How a repository server runs.
public struct RepositoryServerConfiguration: Sendable {
    /// The folder holding the archives (and the SQLite index, when that is the database).
    public var root: URL
    /// Where the index lives: SQLite in `root` by default, or a PostgreSQL database shared by several
    /// instances whose roots are one shared folder.
    public var database: RepositoryDatabase
    /// The address to listen on.
    public var host: String
    /// The port; 0 picks a free one (see ``RepositoryServer/run(handlesSignals:onRunning:)``).
    public var port: Int
    /// The bearer token that uploads and canonical moves need; `nil` makes the server read-only.
    public var writeToken: String?
    /// When set, reads (everything but `/v1/health`) need this token or the write token.
    public var readToken: String?
    /// The largest upload accepted, in bytes.
    public var maximumUploadBytes: Int64
    /// Bounds on what an uploaded archive may unpack to.
    public var maximumUnpackedBytes: UInt64
    /// Limits each download to this many bytes per second (for tests and shared links); `nil` for none.
    public var downloadBytesPerSecond: Int?
    /// How an upload's model is loaded before the upload is acknowledged: in a child process with a time
    /// and memory limit by default, so that no upload can crash or hang the server.
    public var loadCheck: LoadCheck

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - root: The folder holding the index and the archives.
    ///   - host: The address to listen on.
    ///   - port: The port; 0 for any free one.
    ///   - writeToken: The token for writes; `nil` for a read-only server.
    ///   - readToken: The token for reads; `nil` for open reads.
    ///   - maximumUploadBytes: The largest upload (default 512 MiB).
    ///   - maximumUnpackedBytes: The most an archive may unpack to (default 4 GiB).
    ///   - downloadBytesPerSecond: A per-download rate limit.
    ///   - loadCheck: How uploads are loaded before they are acknowledged (default: isolated).
    ///   - database: Where the index lives (default: SQLite in `root`).
    public init(
        root: URL, host: String = "127.0.0.1", port: Int = 8080, writeToken: String? = nil, readToken: String? = nil,
        maximumUploadBytes: Int64 = 512 << 20, maximumUnpackedBytes: UInt64 = 4 << 30, downloadBytesPerSecond: Int? = nil,
        loadCheck: LoadCheck = .isolated, database: RepositoryDatabase = .sqlite
    ) {
        self.loadCheck = loadCheck
        self.database = database
        self.root = root
        self.host = host
        self.port = port
        self.writeToken = writeToken
        self.readToken = readToken
        self.maximumUploadBytes = maximumUploadBytes
        self.maximumUnpackedBytes = maximumUnpackedBytes
        self.downloadBytesPerSecond = downloadBytesPerSecond
    }
}
#endif
