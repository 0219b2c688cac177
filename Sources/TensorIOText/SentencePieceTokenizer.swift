import CTextTokenizers
import Foundation
import TensorIO

/// A SentencePiece tokenizer in BERT's layout, as MediaPipe's `BertPreprocessorCalculator` runs it: the
/// text ASCII lower-cased, encoded by libsentencepiece into pieces (with the model's own normalizer), each
/// piece's id looked up, between `[CLS]` and `[SEP]` (the model's ids for those pieces, its unknown id when
/// it has none), padded with 0.
///
/// The model is a serialized protobuf handed to libsentencepiece; ``SentencePieceModelCheck`` reads its
/// structure first, so that what reaches the library is at least a well-formed `ModelProto` of bounded size.
final class SentencePieceTokenizer: @unchecked Sendable {
    // libsentencepiece's processor is immutable once loaded: encoding from several threads at once is safe.
    private let processor: OpaquePointer
    private let classID: Int32
    private let separatorID: Int32

    init(model data: Data, file: String, limits: TextLimits) throws {
        guard data.count <= limits.maximumSentencePieceModelBytes else {
            throw TensorIOError(.limitExceeded, "\(file) is \(data.count) bytes, more than the limit of \(limits.maximumSentencePieceModelBytes) (TextLimits.maximumSentencePieceModelBytes)", location: "text")
        }
        try SentencePieceModelCheck.check(data, file: file, limits: limits)
        var error = [CChar](repeating: 0, count: 512)
        let loaded = data.withUnsafeBytes { bytes in
            CStringView.with(bytes) { model, count in
                tio_sentencepiece_create(model, count, &error, error.count)
            }
        }
        guard let loaded else {
            throw TensorIOError(.invalidBundle, "\(file) is not a SentencePiece model: \(String(cMessage: error))", location: "text")
        }
        processor = loaded
        classID = tio_sentencepiece_piece_id(loaded, "[CLS]", 5)
        separatorID = tio_sentencepiece_piece_id(loaded, "[SEP]", 5)
    }

    deinit { tio_sentencepiece_destroy(processor) }

    func tokenize(_ text: String, length: Int) throws -> TokenizedText {
        let bytes = TokenizerInputBytes.asciiLowercased(Array(text.utf8))
        let room = max(0, length - 2)
        var ids = [Int32](repeating: 0, count: room)
        var error = [CChar](repeating: 0, count: 512)
        // One slot at least: the C face wants a pointer even when the inputs have no room for a piece.
        if ids.isEmpty { ids = [0] }
        let count = bytes.withUnsafeBufferPointer { text in
            ids.withUnsafeMutableBufferPointer { ids in
                CStringView.with(text) { characters, count in
                    tio_sentencepiece_encode(processor, characters, count, ids.baseAddress!, room, &error, error.count)
                }
            }
        }
        guard count >= 0 else { throw TensorIOError(.invalidInput, "SentencePiece could not encode the text: \(String(cMessage: error))") }
        let pieces = Array(ids.prefix(min(Int(count), room)))
        return BERTLayout.feed(pieces, cut: Int(count) > room, length: length) { $0 == "[CLS]" ? classID : separatorID }
    }
}
