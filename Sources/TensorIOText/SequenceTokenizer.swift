/// What each tokenizer does for ``TextTokenizer``: a text into `length` ids (and BERT's mask and segment ids).
protocol SequenceTokenizer: Sendable {
    func tokenize(_ text: String, length: Int) throws -> TokenizedText
}

extension RegexTokenizer: SequenceTokenizer {}
extension WordPieceTokenizer: SequenceTokenizer {}
extension SentencePieceTokenizer: SequenceTokenizer {}
