extension String {
    /// The NUL-terminated message a C function wrote into `buffer` (RE2's and SentencePiece's errors),
    /// invalid UTF-8 repaired; all of `buffer` when it holds no NUL.
    init(cMessage buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
