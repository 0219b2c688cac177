public import Foundation
public import TensorIO

/// The tokenizer a bundle's `text` entry describes, with its files read and checked: what a ``TextModel``
/// feeds its model with.
///
/// ```swift
/// let tokenizer = try TextTokenizer(bundle: model.bundle)
/// print(try tokenizer.tokenize("an absolute masterpiece").ids.prefix(5))
/// ```
public final class TextTokenizer: Sendable {

    /// What the bundle says: the tokenizer and which inputs take its ids, mask and segment ids.
    public let description: TextDescription
    /// The inputs' length: every text becomes this many ids.
    public let sequenceLength: Int
    /// The limits the files were read with, and texts are held to.
    public let limits: TextLimits
    // An existential, not an enum of the three: LeakSanitizer does not see class references an enum
    // payload carries with its tag in their spare bits, and would report the tokenizers of a long-lived
    // model as leaks.
    private let tokenizer: any SequenceTokenizer

    /// Reads the tokenizer's files from the bundle's `assets/`.
    ///
    /// - Parameters:
    ///   - bundle: A bundle with a `text` entry.
    ///   - limits: The largest text, vocabulary and SentencePiece model accepted.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsupported` when the bundle has no `text` entry;
    ///   `TensorIOError.Code.invalidBundle` when a file is not what its tokenizer needs (a vocabulary
    ///   without `<PAD>` or `<UNKNOWN>`, a line that is not `TOKEN ID`, a SentencePiece model that is not one);
    ///   `TensorIOError.Code.invalidInput` for a delimiter pattern RE2 refuses;
    ///   `TensorIOError.Code.limitExceeded` past a limit.
    public convenience init(bundle: ModelBundle, limits: TextLimits = TextLimits()) throws {
        let description = try bundle.requiredTaskDescription(TextTask.self, missing: "text input", registry: ".text")
        guard let layer = bundle.inputs.first(where: { $0.name == description.ids }) else {
            throw TensorIOError(.invalidBundle, "no input named \"\(description.ids)\"", location: "text.ids")
        }
        var files: [String: Data] = [:]
        for file in description.files {
            let limit = if case .sentencePiece = description.tokenizer { limits.maximumSentencePieceModelBytes } else { limits.maximumVocabularyBytes }
            files[file] = try bundle.assetData(named: file, limit: limit, limitName: "TextLimits")
        }
        try self.init(description, sequenceLength: TextDescription.sequenceLength(layer.shape), files: files, limits: limits)
    }

    /// Builds the tokenizer of a description from its files' bytes, without a bundle.
    ///
    /// - Parameters:
    ///   - description: The tokenizer and the inputs' names.
    ///   - sequenceLength: How many ids each text becomes (the inputs' length), 1 to
    ///     `TextDescription.maximumSequenceLength`.
    ///   - files: The bytes of the files `TextDescription.files` names, by name.
    ///   - limits: The largest text, vocabulary and SentencePiece model accepted.
    /// - Throws: As ``init(bundle:limits:)``.
    public init(_ description: TextDescription, sequenceLength: Int, files: [String: Data], limits: TextLimits = TextLimits()) throws {
        guard (1...TextDescription.maximumSequenceLength).contains(sequenceLength) else {
            throw TensorIOError(.invalidInput, "a sequence of \(sequenceLength) ids: text inputs take 1 to \(TextDescription.maximumSequenceLength)")
        }
        func file(_ name: String) throws -> Data {
            guard let data = files[name] else { throw TensorIOError(.invalidBundle, "\(name) is missing", location: "text") }
            return data
        }
        self.description = description
        self.sequenceLength = sequenceLength
        self.limits = limits
        switch description.tokenizer {
        case .regex(let pattern, let vocabulary):
            tokenizer = try RegexTokenizer(pattern: pattern, vocabulary: try file(vocabulary), file: vocabulary, limits: limits)
        case .wordPiece(let vocabulary):
            tokenizer = try WordPieceTokenizer(vocabulary: try file(vocabulary), file: vocabulary, limits: limits)
        case .sentencePiece(let model):
            tokenizer = try SentencePieceTokenizer(model: try file(model), file: model, limits: limits)
        }
    }

    /// The ids (and BERT's mask and segment ids) of `text`, as long as the inputs.
    ///
    /// - Parameter text: Any text; each tokenizer reads it as MediaPipe's does (docs/text.md).
    /// - Returns: The inputs' values.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.limitExceeded`) for a text longer than
    ///   ``TextLimits/maximumTextBytes``.
    public func tokenize(_ text: String) throws -> TokenizedText {
        guard text.utf8.count <= limits.maximumTextBytes else {
            throw TensorIOError(.limitExceeded, "the text is \(text.utf8.count) bytes, more than the limit of \(limits.maximumTextBytes) (TextLimits.maximumTextBytes)")
        }
        return try tokenizer.tokenize(text, length: sequenceLength)
    }

    /// `text` as a run's input: the ids (and mask and segment ids) by input name.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The value to run the model on.
    /// - Throws: What ``tokenize(_:)`` throws.
    public func input(_ text: String) throws -> InputValue {
        input(try tokenize(text))
    }

    /// Tokens as a run's input: the ids (and mask and segment ids) by input name.
    ///
    /// - Parameter tokens: What ``tokenize(_:)`` made.
    /// - Returns: The value to run the model on.
    public func input(_ tokens: TokenizedText) -> InputValue {
        var values: [String: InputValue] = [description.ids: .numbers(.int32(tokens.ids))]
        if let name = description.mask, let mask = tokens.mask { values[name] = .numbers(.int32(mask)) }
        if let name = description.segmentIDs, let segments = tokens.segmentIDs { values[name] = .numbers(.int32(segments)) }
        return .named(values)
    }
}
