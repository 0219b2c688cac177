// Fuzz target: training data files (JSONDataSource and CSVDataSource) read with the digits training bundle's
// layers (an image of 64 numbers, a one-hot label), then every item and a batch of them asked for: what
// `tensorio train --data` does with a file it was given. The first byte picks the format.
import FuzzSupport
import Foundation
import TensorIO

/// The layers, read once (the target runs from the repository's root, as scripts/fuzz.sh does).
let layers: LayerList = {
    let bundle = URL(fileURLWithPath: "Examples/digits-training/digits-train-tflite.tiobundle")
    return (try? ModelBundle.open(bundle).inputs) ?? LayerList([])
}()

/// One file per process, rewritten for each input: the data sources read files.
let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("fuzz-training-data-\(getpid())")

func fuzzTrainingData(_ data: Data) {
    // An empty file is refused by both sources, and reading one leaks 4 KB inside swift-foundation
    // (`readBytesFromFile`, for Data and String alike): not ours, and it would stop every run here.
    guard let format = data.first, data.count > 1 else { return }
    let csv = format & 1 == 1
    let url = file.appendingPathExtension(csv ? "csv" : "json")
    guard (try? data.dropFirst().write(to: url)) != nil else { return }
    defer { try? FileManager.default.removeItem(at: url) }
    let source: (any BatchDataSource)? = csv
        ? try? CSVDataSource(contentsOf: url, layers: layers)
        : try? JSONDataSource(contentsOf: url, layers: layers)
    guard let source else { return }
    for index in 0..<min(source.count, 64) { _ = try? source.item(at: index) }
    _ = try? source.batch(at: Array(0..<min(source.count, 32)))
    _ = try? source.batch(at: [source.count - 1, 0, source.count])
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzTrainingData) }
}
