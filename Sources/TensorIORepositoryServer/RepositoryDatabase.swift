#if Server  // built with the Server trait only (Package.swift)
public import Foundation

/// Where a repository server keeps its index of models and versions.
public enum RepositoryDatabase: Sendable, Hashable {
    /// A SQLite file in the server's root folder (`index.sqlite`): one server instance, nothing else to
    /// run. The default.
    case sqlite
    /// A PostgreSQL database that several server instances share, each with the same archive folder
    /// (a shared mount) as its root: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]`.
    /// The password may come from the `TENSORIO_POSTGRES_PASSWORD` environment variable instead.
    case postgres(URL)
}
#endif
