/// The commands of `tensorio-repository` (serving, publishing, installing and signing model versions),
/// which the `tensorio` tool lists in its help and hands over to that program.
///
/// This enumeration is the one list of them: `tensorio` hands over exactly its cases and lists them in
/// `--help` in this order, each repository command takes its name and one-line help from its case, and
/// a test holds `tensorio-repository`'s subcommands to the cases. A new repository command is a case
/// here (the compiler then asks for its help line) and a subcommand there.
///
/// They live in a program of their own because they need the delivery client, whose HTTP stack
/// (Foundation's networking, libcurl and some thirty libraries it loads) costs every process about
/// 10 ms to start: `tensorio classify` of one photo does not pay for it (docs/performance.md).
package enum RepositoryCommand: String, CaseIterable, Sendable {
    case serve
    case push
    case models
    case pull
    case update
    case rollback
    case rollout
    case delete
    case collectGarbage = "collect-garbage"
    case keygen
    case verify

    /// The program that runs them, next to `tensorio`.
    package static let programName = "tensorio-repository"

    /// The name on the command line (`tensorio NAME`).
    package var name: String { rawValue }

    /// The one-line help.
    package var abstract: String {
        switch self {
        case .serve: "Run a model repository server (HTTP JSON API under /v1)."
        case .push: "Upload a bundle to a repository server as a new version."
        case .models: "List the models on a repository server."
        case .pull: "Download a model version into a local model store and make it current."
        case .update: "Install the version the server recommends, if it differs from the installed one."
        case .rollback: "Make the previously installed version of a model current again."
        case .rollout: "Show and change a model's rollout rules on a repository server; see a device's assignment."
        case .delete: "Delete a version from a repository server."
        case .collectGarbage: "Remove the files a repository server no longer indexes."
        case .keygen: "Create a publisher key pair for signing releases (Ed25519)."
        case .verify: "Check a bundle's or archive's release signature offline."
        }
    }
}
