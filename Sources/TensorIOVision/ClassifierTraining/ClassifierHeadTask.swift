import Foundation
@_spi(Internal) public import TensorIO

/// The classification head task: the `classifier_head` entry (docs/model-json.md, "Classification heads")
/// of a bundle `tensorio train-classifier` wrote — its base bundle, its features and its class names — read
/// and checked. Nothing is inferred from a bare model.
package enum ClassifierHeadTask: ModelTask {
    package static let entryKey = "classifier_head"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> ClassifierHeadDescription? {
        reader.readClassifierHead(entry, inputs: layers.inputs, outputs: layers.outputs)
    }

    /// Reads the class names (2 to ``ClassifierHeadDescription/maximumClasses``, distinct, no wider than the
    /// output) and checks that the base bundle is there.
    package static func readFiles(
        of description: ClassifierHeadDescription, layers: TaskLayers, from assets: inout TaskAssets
    ) -> ClassifierHeadDescription {
        var description = description
        let path = "\(entryKey).labels"
        if let labels = assets.labels(description.labelsFile, at: path)?.values {
            let width = layers.outputs.first { $0.name == description.output }.map(ModelJSONReader.itemWidth) ?? 0
            let most = min(width, ClassifierHeadDescription.maximumClasses)
            if labels.count < 2 || labels.count > most {
                assets.issue(path, "\"\(description.labelsFile)\" names \(labels.count) classes; a head has 2 to \(most)")
            } else if Set(labels).count != labels.count || labels.contains(where: \.isEmpty) {
                assets.issue(path, "\"\(description.labelsFile)\" names a class twice or has an empty line")
            } else {
                description.labels = labels
            }
        }
        if let base = description.base {
            assets.checkNestedBundle(base, role: "base", at: "\(entryKey).base")
        }
        return description
    }
}

extension ModelBundle {
    /// The bundle's classification head (`classifier_head` in `model.json`), for bundles
    /// `tensorio train-classifier` wrote; `nil` otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry is wrong (read on
    ///   first use when the bundle was opened without the vision tasks registered).
    public var classifierHead: ClassifierHeadDescription? {
        get throws { try taskDescription(ClassifierHeadTask.self) }
    }
}
