/// The UTF-8 bytes a tokenizer reads of a text, as MediaPipe's tokenizers view it.
enum TokenizerInputBytes {
    /// The text's bytes up to its first NUL: the regex and WordPiece tokenizers view the input as a C
    /// string (`absl::string_view(input.data())`), so a NUL ends it.
    static func cString(_ text: String) -> [UInt8] {
        Array(text.utf8.prefix { $0 != 0 })
    }

    /// `bytes` with A–Z made a–z and every other byte left alone (`absl::AsciiStrToLower`): MediaPipe's
    /// BERT preprocessing lower-cases ASCII only, so `CAFÉ` becomes `cafÉ`.
    static func asciiLowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
    }
}
