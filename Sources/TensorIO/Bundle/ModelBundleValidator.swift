public import Foundation
public import Logging
internal import TensorIOSupport

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
    /// Bounds on the sizes `model.json` and the bundle's files may declare or have.
    public let limits: ModelLimits
    /// The backends `model.backend` may name: the registry's, and `tflite` and `tensorflow` always.
    public let registry: ModelRegistry
    /// Where notes that are not problems go (a deprecated `.tfbundle` extension).
    public let logger: Logger

    /// Creates a validator for the folder at `url`.
    ///
    /// - Parameters:
    ///   - url: The bundle folder.
    ///   - limits: Bounds on layer sizes, `model.json`, labels and model files (defaults documented in
    ///     ``ModelLimits``).
    ///   - registry: The backends `model.backend` may name besides the built-in ones.
    ///   - logger: Where notes that are not problems go; swift-log's task-local `Logger.current` by default.
    public init(
        bundleAt url: URL, limits: ModelLimits = ModelLimits(), registry: ModelRegistry = .builtIn,
        logger: Logger = Logger.current
    ) {
        self.url = url
        self.limits = limits
        self.registry = registry
        self.logger = logger
    }

    /// Runs every check and returns the opened bundle.
    ///
    /// - Parameter custom: An extra check run last on the opened bundle.
    /// - Returns: The bundle, ready for ``ModelBundle/makeModel(configuration:registry:)``.
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
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return (nil, [BundleIssue(path: "", message: "\(url.relativePath) does not exist: give a .tiobundle folder")])
        }
        guard isDirectory.boolValue else {
            return (nil, [BundleIssue(path: "", message: "\(url.relativePath) is a file, not a bundle folder: give a .tiobundle folder")])
        }
        switch url.pathExtension {
        case "tiobundle":
            break
        case "tfbundle":
            logger.warning("\(url.lastPathComponent): the .tfbundle extension is deprecated; rename it to .tiobundle")
        default:
            return (nil, [BundleIssue(
                path: "", message: "\(url.lastPathComponent) does not have the .tiobundle extension"
            )])
        }

        let jsonURL = url.appendingPathComponent("model.json")
        guard fileManager.fileExists(atPath: jsonURL.path) else {
            return (nil, [BundleIssue(path: "model.json", message: "not found in \(url.lastPathComponent)")])
        }
        let text: Data
        do {
            text = try UntrustedFile.read(
                jsonURL, limit: limits.maximumModelJSONBytes, name: "model.json", limitName: "maximumModelJSONBytes"
            )
        } catch {
            // The message names model.json already.
            return (nil, [BundleIssue(path: "", message: Self.describe(error))])
        }
        let (parsed, readerIssues) = Self.read(modelJSON: text, limits: limits, registry: registry)
        guard var description = parsed else { return (nil, readerIssues) }

        var issues: [BundleIssue] = []
        if !description.isPlaceholder {
            if let problem = modelFileProblem(description.modelFile.path) {
                issues.append(BundleIssue(path: "model.file", message: problem))
            }
        }
        for index in description.outputs.indices {
            guard let file = description.labelsFiles[index] else { continue }
            let path = "outputs[\(index)].labels"
            guard exists("assets/" + file) else {
                issues.append(BundleIssue(path: path, message: "\"\(file)\" is not in the bundle's assets folder"))
                continue
            }
            do {
                let labels = try Self.readLabels(
                    url.appendingPathComponent("assets").appendingPathComponent(file), limit: limits.maximumLabelsFileBytes
                )
                let elementCount = description.outputs[index].elementCount
                if labels.count != elementCount {
                    issues.append(BundleIssue(
                        path: path,
                        message: "\"\(file)\" has \(labels.count) labels but the layer has \(elementCount) elements"
                    ))
                }
                description.outputs[index] = description.outputs[index].with(labels: LayerLabels(file: file, values: labels))
            } catch let error as TensorIOError where error.code != .invalidBundle {
                issues.append(BundleIssue(path: path, message: error.message))
            } catch {
                issues.append(BundleIssue(path: path, message: "\"\(file)\" cannot be read as UTF-8 text"))
            }
        }
        var assets = TaskAssets(bundleURL: url, limits: limits)
        let layers = TaskLayers(inputs: description.inputs, outputs: description.outputs)
        for task in registry.tasks.tasks {
            description.tasks.readFiles(of: task, layers: layers, from: &assets)
        }
        issues += assets.issues
        guard issues.isEmpty else { return (nil, issues) }
        return (ModelBundle(url: url, description: description), [])
    }

    /// Checks a `model.json` document without a bundle folder around it: the JSON syntax, the schema,
    /// and the limits on sizes it declares. Files it names are not looked at.
    ///
    /// - Parameters:
    ///   - data: The text of a `model.json`.
    ///   - limits: Bounds on the layer sizes it may declare.
    ///   - registry: The backends `model.backend` may name besides the built-in ones.
    /// - Returns: Every problem found, with its JSON path; empty when the document is sound.
    public static func issues(
        inModelJSON data: Data, limits: ModelLimits = ModelLimits(), registry: ModelRegistry = .builtIn
    ) -> [BundleIssue] {
        guard data.count <= limits.maximumModelJSONBytes else {
            return [BundleIssue(
                path: "model.json",
                message: "has \(data.count) bytes, more than the limit of \(limits.maximumModelJSONBytes) (ModelLimits.maximumModelJSONBytes)"
            )]
        }
        return read(modelJSON: data, limits: limits, registry: registry).issues
    }

    private static func read(
        modelJSON data: Data, limits: ModelLimits, registry: ModelRegistry
    ) -> (ModelJSON?, issues: [BundleIssue]) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            return (nil, [BundleIssue(path: "model.json", message: "is not valid JSON: \(describe(error))")])
        }
        var reader = ModelJSONReader(knownBackends: registry.knownBackendNames, tasks: registry.tasks, limits: limits)
        let description = reader.read(root)
        return (description, reader.issues)
    }

    /// Why `model.file` cannot be given to a runtime, or `nil` when it can: it must be inside the bundle
    /// (after following links) and a regular file, or a folder for backends that load SavedModels; a FIFO
    /// or device would block or never end.
    private func modelFileProblem(_ relativePath: String) -> String? {
        guard exists(relativePath) else { return "\"\(relativePath)\" is not in the bundle" }
        switch UntrustedFile.kind(of: url.appendingPathComponent(relativePath)) {
        case .regularFile(let size) where size > limits.maximumModelFileBytes:
            return "\"\(relativePath)\" has \(size) bytes, more than the limit of \(limits.maximumModelFileBytes) (ModelLimits.maximumModelFileBytes)"
        case .regularFile, .directory:
            return nil
        case let kind:
            return "\"\(relativePath)\" is \(UntrustedFile.describe(kind)), not a regular file or folder"
        }
    }

    /// Whether a relative path names something inside the bundle, after following symbolic links.
    private func exists(_ relativePath: String) -> Bool {
        let target = url.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: target.path) else { return false }
        let root = url.resolvingSymlinksInPath().path
        return target.resolvingSymlinksInPath().path.hasPrefix(root + "/")
    }

    /// One label per line; a trailing newline does not add an empty label (the original's did).
    static func readLabels(_ url: URL, limit: Int = ModelLimits().maximumLabelsFileBytes) throws -> [String] {
        let data = try UntrustedFile.read(
            url, limit: limit, name: "\"\(url.lastPathComponent)\"", limitName: "maximumLabelsFileBytes"
        )
        guard let text = String(data: data, encoding: .utf8) else {
            throw TensorIOError(.io, "not UTF-8 text", location: url.lastPathComponent)
        }
        return labels(inText: text)
    }

    /// The labels of a labels file's text: one per line, LF or CRLF; a trailing newline adds no empty label.
    ///
    /// - Parameter text: The file's text.
    /// - Returns: The labels in order.
    @_spi(Internal) public static func labels(inText text: String) -> [String] {
        // Swift reads "\r\n" as one Character, so splitting on "\n" alone would not split CRLF lines.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func describe(_ error: any Error) -> String {
        (error as? TensorIOError)?.message ?? SystemErrorText.reason(of: error)
    }
}
