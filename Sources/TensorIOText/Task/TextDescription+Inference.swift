import Foundation
import TensorIO
internal import TensorIOMetadata

/// The `text` entry of a bundle inferred from a bare model, read from its tokenizer metadata as MediaPipe's
/// text tasks read it (`text_model_utils.cc`, `text_preprocessing_graph.cc`): one int32 input with a
/// `RegexTokenizerOptions` unit on its tensor is a regex model; three int32 inputs named `ids`, `mask` and
/// `segment_ids` by their metadata, with a `BertTokenizerOptions` or `SentencePieceTokenizerOptions` unit
/// first among the subgraph's input units, are a BERT model. The tokenizer's file, packed in the model, goes
/// to `assets/`.
extension TFLiteBundleInference {
    /// The text description the metadata implies, or `nil` when it names no tokenizer for these inputs.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidModelFile`) when the metadata names a
    ///   tokenizer whose file the model does not carry, or BERT inputs it does not name.
    mutating func text(
        inputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?], subgraphUnits: [TFLiteMetadata.ProcessUnit],
        attachments: ModelAttachments
    ) throws -> TextDescription? {
        guard !inputs.isEmpty, inputs.allSatisfy({ $0.declaredDataType == .int32 && TextDescription.shapeProblem($0.shape) == nil }) else {
            return nil
        }
        func invalid(_ message: String) -> TensorIOError {
            TensorIOError(.invalidModelFile, "the tokenizer metadata \(message)", location: "model.file")
        }
        /// The first of `files`, packed in the model, as an asset.
        func packed(_ files: [TFLiteMetadata.AssociatedFile], _ what: String) throws -> String {
            guard let file = files.first else { throw invalid("names no \(what)") }
            guard let data = attachments[file.name] else { throw invalid("names the \(what) \"\(file.name)\", which the model does not carry") }
            addAsset(file.name, data)
            return file.name
        }
        if inputs.count == 1 {
            for unit in metadata.first??.processUnits ?? [] {
                guard case .regexTokenizer(let pattern, let vocabulary) = unit else { continue }
                guard !pattern.isEmpty, pattern.utf8.count <= TextDescription.maximumPatternBytes else {
                    throw invalid("has a delimiter pattern of \(pattern.utf8.count) bytes (1 to \(TextDescription.maximumPatternBytes))")
                }
                let description = TextDescription(tokenizer: .regex(pattern: pattern, vocabulary: try packed(vocabulary, "vocabulary")), ids: inputs[0].name)
                note(.inferred, layer: inputs[0].name, "text: regex tokenizer, delimiter \(pattern), vocabulary \(description.files[0]) (RegexTokenizerOptions)")
                return description
            }
            return nil
        }
        guard inputs.count == 3, let unit = subgraphUnits.first else { return nil }
        let tokenizer: TextDescription.Tokenizer
        switch unit {
        case .bertTokenizer(let vocabulary): tokenizer = .wordPiece(vocabulary: try packed(vocabulary, "vocabulary"))
        case .sentencePieceTokenizer(let model, _): tokenizer = .sentencePiece(model: try packed(model, "SentencePiece model"))
        default: return nil
        }
        // MediaPipe finds each input by its metadata name, whatever the tensors' order and names.
        func input(_ role: String) throws -> String {
            guard let index = metadata.firstIndex(where: { $0?.name == role }) else {
                throw invalid("is BERT's, but no input's metadata is named \"\(role)\" (the inputs must be named ids, mask and segment_ids)")
            }
            return inputs[index].name
        }
        let description = TextDescription(tokenizer: tokenizer, ids: try input("ids"), mask: try input("mask"), segmentIDs: try input("segment_ids"))
        guard Set(description.inputs).count == 3 else { throw invalid("names one input for two of ids, mask and segment_ids") }
        note(.inferred, "text: \(tokenizer.name) tokenizer (\(description.files[0])), ids \(description.ids), mask \(description.mask ?? ""), segment ids \(description.segmentIDs ?? "")")
        return description
    }
}
