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
