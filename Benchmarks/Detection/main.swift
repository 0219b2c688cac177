// detection-benchmark MODEL PHOTO RUNS [--detector NAME] [--threads N]: TensorIO's side of
// run-detection-benchmarks.py.
//
// Loads MODEL (a bundle or a bare .tflite; --detector as `tensorio init --detector`), warms up, then times
// RUNS iterations of each, interleaved so that a slow spell of the shared machine hits all alike:
//   photo    decode the JPEG file and detect on it: what an app pays per photo (MediaPipe's detect(image)
//            from the file is timed the same way on the Python side)
//   run      the model run alone on a photo already of the input's size, upright BGRA, so that preparing
//            it costs nothing: writing the tensor, invoking, reading the outputs
//   detect   the same, with detection: run plus decoding the outputs, suppression, mapping onto the photo
//   added    detect − run, iteration by iteration (the two ran back to back), then the median: what detection
//            adds, steadier than the difference of the two medians
// Prints one JSON object with the medians in microseconds.
import Foundation
import TensorIO
import TensorIOVision
import BenchmarkStatistics

let (arguments, runs) = benchmarkArguments(usage: "detection-benchmark MODEL PHOTO RUNS [--detector NAME] [--threads N]")
var options = BundleInferenceOptions()
if let name = stringOption("--detector", in: arguments) {
    guard let detector = MediaPipeDetector(rawValue: name) else {
        FileHandle.standardError.write(Data("unknown detector \(name)\n".utf8))
        exit(64)
    }
    options.detector = detector
}
let threads = option("--threads", in: arguments) ?? 1

do {
    let url = URL(fileURLWithPath: arguments[0])
    let bundle = ModelBundle.isBareModel(url) ? try ModelBundle(modelAt: url, options: options, registry: .vision) : try ModelBundle(at: url, registry: .vision)
    let model = try bundle.makeModel(configuration: ModelConfiguration(threadCount: threads))
    try model.load()
    let photoURL = URL(fileURLWithPath: arguments[1])
    guard let size = bundle.predictionInputs.first?.imageSize else { throw TensorIOError(.unsupported, "no image input") }
    let tensorSized = try PixelBuffer(width: size.width, height: size.height, format: .bgra, repeating: 128)
    var count = 0
    for _ in 0..<max(10, runs / 10) {  // warm-up
        count += try model.detect(contentsOf: photoURL).count
        _ = try model.run(.image(tensorSized))
        _ = try model.detect(tensorSized)
    }
    var photo: [Double] = [], run: [Double] = [], detect: [Double] = [], added: [Double] = []
    for _ in 0..<runs {
        photo.append(try microseconds { count += try model.detect(contentsOf: photoURL).count })
        run.append(try microseconds { _ = try model.run(.image(tensorSized)) })
        detect.append(try microseconds { _ = try model.detect(tensorSized) })
        added.append(detect[detect.count - 1] - run[run.count - 1])
    }
    let result: [String: Double] = [
        "photo_us": median(photo), "run_us": median(run), "detect_us": median(detect), "added_us": median(added),
        "detections": Double(try model.detect(contentsOf: photoURL).count),
    ]
    try printJSON(result)
} catch {
    fail("detection-benchmark", error)
}
