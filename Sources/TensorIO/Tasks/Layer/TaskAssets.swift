package import Foundation

/// The bundle's `assets/` folder as a task reads it when opening: files a task entry names (labels,
/// anchors, score calibration, a vocabulary), each bounded by ``ModelLimits/maximumLabelsFileBytes``,
/// with every problem recorded at the JSON path of the field that named the file.
package struct TaskAssets {
    /// The bundle folder.
    package let bundleURL: URL
    let limits: ModelLimits
    /// The problems found so far.
    package private(set) var issues: [BundleIssue] = []

    init(bundleURL: URL, limits: ModelLimits) {
        self.bundleURL = bundleURL
        self.limits = limits
    }

    /// Records a problem at a JSON path.
    package mutating func issue(_ path: String, _ message: String) {
        issues.append(BundleIssue(path: path, message: message))
    }

    /// Checks that a bundle a task names inside this one (a landmarker's detector, a classification head's
    /// base) is there: a folder inside this bundle, not a link out of it, holding a `model.json`; an issue at
    /// `path` otherwise. The nested bundle itself is read and checked when the task opens it.
    ///
    /// - Parameters:
    ///   - folder: The folder, relative to the bundle (its `..` and absolute forms already refused).
    ///   - role: What the nested bundle is, for the message ("detector").
    ///   - path: The JSON path of the field that named it.
    package mutating func checkNestedBundle(_ folder: String, role: String, at path: String) {
        let url = bundleURL.appendingPathComponent(folder, isDirectory: true)
        let inside = bundleURL.resolvingSymlinksInPath().path + "/"
        switch UntrustedFile.kind(of: url) {
        case .directory where !url.resolvingSymlinksInPath().path.hasPrefix(inside):
            issue(path, "\"\(folder)\" leads out of the bundle (a link)")
        case .directory:
            if case .regularFile = UntrustedFile.kind(of: url.appendingPathComponent("model.json")) { break }
            issue(path, "\"\(folder)\" holds no model.json: not a \(role) bundle")
        case .missing:
            issue(path, "\"\(folder)\" is not in the bundle")
        case let kind:
            issue(path, "\"\(folder)\" is \(UntrustedFile.describe(kind)), not a bundle folder")
        }
    }

    /// Whether `assets/FILE` exists.
    package func contains(_ file: String) -> Bool {
        FileManager.default.fileExists(atPath: url(of: file).path)
    }

    /// The text of `assets/FILE`; `nil` with an issue at `path` when it is missing, too large or not UTF-8.
    package mutating func text(_ file: String, at path: String) -> String? {
        guard contains(file) else {
            issue(path, "\"\(file)\" is not in the bundle's assets folder")
            return nil
        }
        do {
            let data = try UntrustedFile.read(
                url(of: file), limit: limits.maximumLabelsFileBytes, name: "\"\(file)\"", limitName: "maximumLabelsFileBytes"
            )
            guard let text = String(data: data, encoding: .utf8) else {
                issue(path, "\"\(file)\" cannot be read as UTF-8 text")
                return nil
            }
            return text
        } catch {
            issue(path, ModelBundleValidator.describe(error))
            return nil
        }
    }

    /// The labels of `assets/FILE`, one per line; `nil` with an issue at `path` when it cannot be read.
    package mutating func labels(_ file: String, at path: String) -> LayerLabels? {
        text(file, at: path).map { LayerLabels(file: file, values: ModelBundleValidator.labels(inText: $0)) }
    }

    private func url(of file: String) -> URL {
        bundleURL.appendingPathComponent("assets").appendingPathComponent(file)
    }
}
