/// The commands of `tensorio-repository` (serving, publishing, installing and signing model versions),
/// which the `tensorio` tool lists in its help and hands over to that program.
///
/// They live in a program of their own because they need the delivery client, whose HTTP stack
/// (Foundation's networking, libcurl and some thirty libraries it loads) costs every process about
/// 10 ms to start: `tensorio classify` of one photo does not pay for it (docs/performance.md).
package struct RepositoryCommandSummary: Sendable {
    /// The name on the command line (`tensorio NAME`).
    package let name: String
    /// The one-line help.
    package let abstract: String

    /// The program that runs them, next to `tensorio`.
    package static let programName = "tensorio-repository"

    package static let serve = RepositoryCommandSummary(
        name: "serve", abstract: "Run a model repository server (HTTP JSON API under /v1).")
    package static let push = RepositoryCommandSummary(
        name: "push", abstract: "Upload a bundle to a repository server as a new version.")
    package static let models = RepositoryCommandSummary(
        name: "models", abstract: "List the models on a repository server.")
    package static let pull = RepositoryCommandSummary(
        name: "pull", abstract: "Download a model version into a local model store and make it current.")
    package static let update = RepositoryCommandSummary(
        name: "update", abstract: "Install the version the server recommends, if it differs from the installed one.")
    package static let rollback = RepositoryCommandSummary(
        name: "rollback", abstract: "Make the previously installed version of a model current again.")
    package static let rollout = RepositoryCommandSummary(
        name: "rollout", abstract: "Show and change a model's rollout rules on a repository server; see a device's assignment.")
    package static let delete = RepositoryCommandSummary(
        name: "delete", abstract: "Delete a version from a repository server.")
    package static let collectGarbage = RepositoryCommandSummary(
        name: "collect-garbage", abstract: "Remove the files a repository server no longer indexes.")
    package static let keygen = RepositoryCommandSummary(
        name: "keygen", abstract: "Create a publisher key pair for signing releases (Ed25519).")
    package static let verify = RepositoryCommandSummary(
        name: "verify", abstract: "Check a bundle's or archive's release signature offline.")

    /// Every one, in the order the help lists them.
    package static let all = [serve, push, models, pull, update, rollback, rollout, delete, collectGarbage, keygen, verify]
}
