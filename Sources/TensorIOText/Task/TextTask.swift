@_spi(Internal) public import TensorIO
internal import TensorIOMetadata

/// The text task: the `text` entry (docs/model-json.md, "Text") — the tokenizer, its files in `assets/`,
/// which input takes what — read, checked, inferred from tokenizer metadata and written back.
package enum TextTask: ModelTask {
    package static let entryKey = "text"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> TextDescription? {
        reader.readText(entry, inputs: layers.inputs)
    }

    /// The tokenizer's files must be in `assets/`; they are read when the tokenizer is made.
    package static func readFiles(of description: TextDescription, layers: TaskLayers, from assets: inout TaskAssets) -> TextDescription {
        for file in description.files where !assets.contains(file) {
            assets.issue("text", "\"\(file)\" is not in the bundle's assets folder")
        }
        return description
    }

    package static func infer(_ inference: inout TFLiteBundleInference) throws -> TextDescription? {
        try inference.text(
            inputs: inference.inputs, metadata: inference.inputMetadata,
            subgraphUnits: inference.subgraph?.inputProcessUnits ?? [], attachments: inference.attachments
        )
    }
}

extension TextDescription: TaskDescription {}

extension ModelBundle {
    /// How the inputs take text (`text` in `model.json`), for text models; `nil` otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry is wrong or names
    ///   a file `assets/` lacks (read on first use when the bundle was opened without the text task registered).
    public var text: TextDescription? {
        get throws { try taskDescription(TextTask.self) }
    }
}
