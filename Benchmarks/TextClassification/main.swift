// text-classification-benchmark MODEL SENTENCES ROUNDS [--threads N]: TensorIO's side of run-text-benchmarks.py.
//
// Loads MODEL (a bundle or a bare .tflite whose metadata describes a text classifier) with N threads per run
// (ModelConfiguration(threadCount:), 1 by default), reads SENTENCES (a JSON file whose "sentences" are
// objects with a "text", as Tests/Fixtures/Text/regex.json), warms up with one untimed round, then times
// ROUNDS rounds, one sentence after another on this thread; each round times, in turn:
//   classify   TextModel.classify(text:), the synchronous call, once per sentence: what an app pays per
//              sentence (MediaPipe's TextClassifier.classify is timed the same way on the Python side)
//   tokenize   TextTokenizer.tokenize alone, once per sentence (a tokenizer of its own, made from the
//              model's bundle as the text model's is)
//   run        the inputs made from those tokens (TextTokenizer.input) and the model's run, alone
// Prints one JSON object with the medians over rounds of each round's time divided by its sentences (µs per
// sentence), and per sentence the scores and the top label of the last round's classify.
import Foundation
import TensorIO
import TensorIOText
import BenchmarkStatistics

/// The texts of the file's "sentences", in order.
func sentences(in url: URL) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    guard let entries = (object as? [String: Any])?["sentences"] as? [[String: Any]] else {
        throw TensorIOError(.invalidInput, "\(url.lastPathComponent) has no \"sentences\" list")
    }
    return try entries.map { entry in
        guard let text = entry["text"] as? String else { throw TensorIOError(.invalidInput, "a sentence of \(url.lastPathComponent) has no \"text\"") }
        return text
    }
}

/// The measurements, as one JSON object. A synchronous function: the synchronous classify is the one called
/// (in an async context Swift would choose the async overload).
func measure(model path: String, sentences texts: [String], rounds: Int, threads: Int) throws -> [String: Any] {
    let url = URL(fileURLWithPath: path)
    let bundle = ModelBundle.isBareModel(url) ? try ModelBundle(modelAt: url, registry: .text) : try ModelBundle(at: url, registry: .text)
    let model = try TextModel(bundle: bundle, configuration: ModelConfiguration(threadCount: threads))
    try model.model.load()
    let tokenizer = try TextTokenizer(bundle: bundle)

    // Warm-up: one untimed round of each (the text model read its tokenizer when it was made).
    var last = try texts.map { try model.classify(text: $0) }
    let tokens = try texts.map { try tokenizer.tokenize($0) }
    for tokenized in tokens { _ = try model.model.run(tokenizer.input(tokenized)) }

    let count = Double(texts.count)
    var classify: [Double] = [], tokenize: [Double] = [], run: [Double] = []
    for _ in 0..<rounds {
        var start = now()
        for (index, text) in texts.enumerated() { last[index] = try model.classify(text: text) }
        var end = now()
        classify.append(microseconds(from: start, to: end) / count)

        start = now()
        for text in texts { _ = try tokenizer.tokenize(text) }
        end = now()
        tokenize.append(microseconds(from: start, to: end) / count)

        start = now()
        for tokenized in tokens { _ = try model.model.run(tokenizer.input(tokenized)) }
        end = now()
        run.append(microseconds(from: start, to: end) / count)
    }
    let result: [String: Any] = [
        "classify_us": median(classify), "tokenize_us": median(tokenize), "run_us": median(run),
        "rounds": rounds, "sentences": texts.count, "threads": threads,
        "labels": last.first.map { Array($0.scores.labels) } ?? [],
        "scores": last.map { $0.scores.scores.map(Double.init) },
        "top": last.map { $0.top(1).first?.label ?? "" },
        "truncated": last.map(\.isTruncated),
    ]
    return result
}

let (arguments, rounds) = benchmarkArguments(usage: "text-classification-benchmark MODEL SENTENCES ROUNDS [--threads N]")
let threads = option("--threads", in: arguments) ?? 1

do {
    let texts = try sentences(in: URL(fileURLWithPath: arguments[1]))
    try printJSON(measure(model: arguments[0], sentences: texts, rounds: rounds, threads: threads))
} catch {
    fail("text-classification-benchmark", error)
}
