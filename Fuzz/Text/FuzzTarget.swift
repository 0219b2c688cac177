// Fuzz target: TensorIOText's tokenizers on hostile files and texts. The first byte picks what the rest is:
//   0  a regex vocabulary (TOKEN ID lines), then tokenizes a fixed text with the TFLite models' pattern;
//   1  a WordPiece vocabulary, then tokenizes a fixed text;
//   2  a SentencePiece model (the protobuf check, then libsentencepiece), then tokenizes a fixed text;
//   3  a text, through a regex, a WordPiece and a SentencePiece tokenizer built once from the fixtures.
import FuzzSupport
import Foundation
import TensorIO
import TensorIOText

let limits = TextLimits(maximumTextBytes: 1 << 20, maximumVocabularyBytes: 1 << 20, maximumVocabularyEntries: 1 << 14,
                        maximumSentencePieceModelBytes: 1 << 20)
let sample = "Héllo, WORLD! naïve café … 好的 😀 good\u{0}bad"
let regexDescription = TextDescription(tokenizer: .regex(pattern: #"[^\w\']+"#, vocabulary: "vocab.txt"), ids: "ids")
let wordPieceDescription = TextDescription(tokenizer: .wordPiece(vocabulary: "vocab.txt"), ids: "ids", mask: "mask", segmentIDs: "segments")
let sentencePieceDescription = TextDescription(tokenizer: .sentencePiece(model: "sp.model"), ids: "ids", mask: "mask", segmentIDs: "segments")

/// The fixture tokenizers for selector 3, built on first use (the seeds name their files).
let fixtureTokenizers: [TextTokenizer] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    func read(_ path: String) -> Data { (try? Data(contentsOf: root.appendingPathComponent(path))) ?? Data() }
    let regex = try? TextTokenizer(regexDescription, sequenceLength: 64, files: ["vocab.txt": Data("<PAD> 0\n<START> 1\n<UNKNOWN> 2\ngood 3\nbad 4\n".utf8)])
    let wordPiece = try? TextTokenizer(wordPieceDescription, sequenceLength: 64, files: ["vocab.txt": read("Tests/Fixtures/Text/wordpiece/vocab.txt")])
    let model = try? ModelBundle(modelAt: root.appendingPathComponent("Tests/Fixtures/Text/sentencepiece/bert_spm_identity_echo.tflite"), registry: .text)
    let sentencePiece = model.flatMap { try? TextTokenizer(bundle: $0) }
    let tokenizers = [regex, wordPiece, sentencePiece].compactMap { $0 }
    precondition(tokenizers.count == 3, "the fixture tokenizers did not build")
    return tokenizers
}()

func fuzzText(_ data: Data) {
    guard let selector = data.first else { return }
    let rest = data.dropFirst()
    switch selector % 4 {
    case 0:
        guard let tokenizer = try? TextTokenizer(regexDescription, sequenceLength: 32, files: ["vocab.txt": Data(rest)], limits: limits) else { return }
        precondition((try? tokenizer.tokenize(sample))?.ids.count == 32)
    case 1:
        guard let tokenizer = try? TextTokenizer(wordPieceDescription, sequenceLength: 32, files: ["vocab.txt": Data(rest)], limits: limits) else { return }
        precondition((try? tokenizer.tokenize(sample))?.ids.count == 32)
    case 2:
        guard let tokenizer = try? TextTokenizer(sentencePieceDescription, sequenceLength: 32, files: ["sp.model": Data(rest)], limits: limits) else { return }
        _ = try? tokenizer.tokenize(sample)
    default:
        let text = String(decoding: rest, as: UTF8.self)
        for tokenizer in fixtureTokenizers {
            precondition((try? tokenizer.tokenize(text))?.ids.count == tokenizer.sequenceLength)
        }
    }
}

@main
enum FuzzTarget {
    static func main() {
        // Built before the first input: libFuzzer's leak check would take what a lazy global keeps for good,
        // reached only through enum payloads whose spare bits hide the pointers from LeakSanitizer, for a
        // leak of that input.
        _ = fixtureTokenizers
        FuzzInput.main(fuzzText)
    }
}
