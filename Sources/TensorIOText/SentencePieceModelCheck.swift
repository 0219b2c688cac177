import Foundation
import TensorIO

/// Reads a SentencePiece model's protobuf structure (`sentencepiece_model.proto`'s `ModelProto`) before
/// libsentencepiece sees it: every field's wire type and length within the bytes, nested messages to a
/// bounded depth, at most ``TextLimits/maximumVocabularyEntries`` pieces, each valid UTF-8, and the
/// normalizer's precompiled character map (a 4-byte trie size, a double-array trie of 4-byte units, then
/// its strings) consistent with its own length.
enum SentencePieceModelCheck {
    /// The deepest nesting read (ModelProto → NormalizerSpec is 2).
    static let maximumDepth = 4

    static func check(_ data: Data, file: String, limits: TextLimits) throws {
        let bytes = [UInt8](data)
        var pieces = 0
        func fail(_ message: String) -> TensorIOError {
            TensorIOError(.invalidBundle, "\(file) is not a SentencePiece model: \(message)", location: "text")
        }
        guard !bytes.isEmpty else { throw fail("it is empty") }
        // ModelProto: 1 pieces (message), 2 trainer_spec, 3 normalizer_spec, 4 self_test_data, 5 denormalizer_spec.
        try walk(bytes, 0..<bytes.count, depth: 0, fail: fail) { field, wireType, range in
            switch (field, wireType) {
            case (1, 2):
                pieces += 1
                guard pieces <= limits.maximumVocabularyEntries else {
                    throw TensorIOError(.limitExceeded, "\(file) has more than \(limits.maximumVocabularyEntries) pieces, the limit (TextLimits.maximumVocabularyEntries)", location: "text")
                }
                // SentencePiece: 1 piece (string), 2 score (float), 3 type (enum).
                try walk(bytes, range, depth: 1, fail: fail) { field, wireType, range in
                    if field == 1 {
                        guard wireType == 2, String(validating: bytes[range], as: UTF8.self) != nil else { throw fail("piece \(pieces) is not UTF-8 text") }
                    }
                }
            case (3, 2), (5, 2):
                // NormalizerSpec: 2 precompiled_charsmap (bytes).
                try walk(bytes, range, depth: 1, fail: fail) { field, wireType, range in
                    if field == 2, wireType == 2 { try checkCharsMap(bytes[range], fail: fail) }
                }
            case (2, 2), (4, 2):
                try walk(bytes, range, depth: 1, fail: fail) { _, _, _ in }
            case (1...5, _):
                throw fail("field \(field) has wire type \(wireType), not a message")
            default:
                break  // fields of newer versions: skipped by the library too
            }
        }
        guard pieces > 0 else { throw fail("it has no pieces") }
    }

    /// The precompiled character map: a little-endian trie size, the trie (whole 4-byte units), then the
    /// normalized strings, which must end with a NUL for the library's C-string reads to stop inside.
    private static func checkCharsMap(_ map: ArraySlice<UInt8>, fail: (String) -> TensorIOError) throws {
        guard !map.isEmpty else { return }
        guard map.count >= 4 else { throw fail("its precompiled character map is truncated") }
        let start = map.startIndex
        let trieSize = Int(map[start]) | Int(map[start + 1]) << 8 | Int(map[start + 2]) << 16 | Int(map[start + 3]) << 24
        guard trieSize % 4 == 0, trieSize < map.count - 4 else {
            throw fail("its precompiled character map's trie of \(trieSize) bytes does not fit its \(map.count) bytes")
        }
        guard map.last == 0 else { throw fail("its precompiled character map's strings do not end with a NUL") }
        try DoubleArrayCheck.check(map[(start + 4)..<(start + 4 + trieSize)], stringBytes: map.count - 4 - trieSize, fail: fail)
    }

    /// Each field of the message in `range`: its number, wire type and (for length-delimited ones) the
    /// range of its bytes; varints and fixed fields are checked and skipped.
    private static func walk(
        _ bytes: [UInt8], _ range: Range<Int>, depth: Int, fail: (String) -> TensorIOError,
        field visit: (Int, Int, Range<Int>) throws -> Void
    ) throws {
        guard depth <= maximumDepth else { throw fail("its messages nest too deeply") }
        var offset = range.lowerBound
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard offset < range.upperBound else { throw fail("a varint runs past the end of its message") }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            throw fail("a varint is longer than 10 bytes")
        }
        while offset < range.upperBound {
            let key = try varint()
            let field = Int(truncatingIfNeeded: key >> 3)
            let wireType = Int(key & 7)
            guard field > 0 else { throw fail("a field has number 0") }
            switch wireType {
            case 0: _ = try varint()
            case 1, 5:
                let size = wireType == 1 ? 8 : 4
                guard range.upperBound - offset >= size else { throw fail("a fixed-size field runs past the end of its message") }
                offset += size
            case 2:
                let length = try varint()
                guard length <= UInt64(range.upperBound - offset) else { throw fail("a field's length runs past the end of its message") }
                let body = offset..<(offset + Int(length))
                offset = body.upperBound
                try visit(field, wireType, body)
                continue
            default: throw fail("a field has wire type \(wireType), which protobuf does not use")
            }
            try visit(field, wireType, offset..<offset)
        }
    }
}
