import Foundation
import Logging

/// Checks a bundle folder, in the original's order, and opens it when it is sound.
///
/// The checks: the path is a directory; its extension is `.tiobundle` (`.tfbundle` is accepted with a
/// warning); `model.json` exists; it parses; it passes the schema; the model file exists (skipped for
/// placeholders); every labels file exists (for all outputs — the original stopped at the first output
/// without labels); then an optional check of your own. Every problem is reported with its JSON path.
public struct ModelBundleValidator: Sendable {
    /// A check of your own, run after the built-in ones on the opened bundle; whatever it throws is
    /// passed through unchanged.
    public typealias CustomValidation = @Sendable (ModelBundle) throws -> Void

    /// The folder being checked.
    public let url: URL

    private static let logger = Logger(label: "TensorIO.ModelBundleValidator")

    /// Creates a validator for the folder at `url`.
    public init(bundleAt url: URL) {
        self.url = url
    }

    /// Runs every check and returns the opened bundle.
    ///
    /// - Parameter custom: An extra check run last on the opened bundle.
    /// - Returns: The bundle, ready for ``ModelBundle/makeModel(configuration:)``.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidBundle``) with every issue found, or the
    ///   custom check's own error.
    @discardableResult
    public func validate(_ custom: CustomValidation? = nil) throws -> ModelBundle {
        let (bundle, issues) = check()
        guard let bundle else { throw TensorIOError.invalidBundle(issues) }
        try custom?(bundle)
        return bundle
    }

    /// Runs the built-in checks and lists what is wrong; empty when the bundle is valid.
    public func issues() -> [BundleIssue] {
        check().issues
    }

    private func check() -> (bundle: ModelBundle?, issues: [BundleIssue]) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return (nil, [BundleIssue(path: "", message: "\(url.path) is not a directory")])
        }
        switch url.pathExtension {
        case "tiobundle":
            break
        case "tfbundle":
            Self.logger.warning("\(url.lastPathComponent): the .tfbundle extension is deprecated; rename it to .tiobundle")
        default:
            return (nil, [BundleIssue(
                path: "", message: "\(url.lastPathComponent) does not have the .tiobundle extension"
            )])
        }

        let jsonURL = url.appendingPathComponent("model.json")
        guard fileManager.fileExists(atPath: jsonURL.path) else {
            return (nil, [BundleIssue(path: "model.json", message: "not found in \(url.lastPathComponent)")])
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: try Data(contentsOf: jsonURL))
        } catch {
            return (nil, [BundleIssue(path: "model.json", message: "is not valid JSON: \(Self.describe(error))")])
        }

        var reader = ModelJSONReader(knownBackends: ModelRegistry.shared.knownBackendNames)
        guard var description = reader.read(root) else {
            return (nil, reader.issues)
        }

        var issues: [BundleIssue] = []
        if !description.isPlaceholder, !exists(description.model.file) {
            issues.append(BundleIssue(
                path: "model.file", message: "\"\(description.model.file)\" is not in the bundle"
            ))
        }
        for index in description.outputs.indices {
            guard let file = description.outputs[index].labelsFile else { continue }
            let path = "outputs[\(index)].labels"
            guard exists("assets/" + file) else {
                issues.append(BundleIssue(path: path, message: "\"\(file)\" is not in the bundle's assets folder"))
                continue
            }
            do {
                let labels = try Self.readLabels(url.appendingPathComponent("assets").appendingPathComponent(file))
                let elementCount = description.outputs[index].elementCount
                if labels.count != elementCount {
                    issues.append(BundleIssue(
                        path: path,
                        message: "\"\(file)\" has \(labels.count) labels but the layer has \(elementCount) elements"
                    ))
                }
                description.outputs[index].labels = labels
            } catch {
                issues.append(BundleIssue(path: path, message: "\"\(file)\" cannot be read as UTF-8 text"))
            }
        }
        guard issues.isEmpty else { return (nil, issues) }
        return (ModelBundle(url: url, description: description), [])
    }

    /// Whether a relative path names something inside the bundle, after following symbolic links.
    private func exists(_ relativePath: String) -> Bool {
        let target = url.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: target.path) else { return false }
        let root = url.resolvingSymlinksInPath().path
        return target.resolvingSymlinksInPath().path.hasPrefix(root + "/")
    }

    /// One label per line; a trailing newline does not add an empty label (the original's did).
    static func readLabels(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw TensorIOError(.io, "not UTF-8 text", location: url.lastPathComponent)
        }
        // Swift reads "\r\n" as one Character, so splitting on "\n" alone would not split CRLF lines.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private static func describe(_ error: any Error) -> String {
        (error as? TensorIOError)?.message ?? error.localizedDescription
    }
}
