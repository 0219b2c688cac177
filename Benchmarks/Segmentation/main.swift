// segmentation-benchmark MODEL PHOTO RUNS [--threads N]: TensorIO's side of run-segmentation-benchmarks.py.
//
// Loads MODEL (a bundle or a bare .tflite whose metadata describes a segmenter), warms up, then times RUNS
// iterations of each, interleaved so that a slow spell of the shared machine hits all alike:
//   photo    decode the JPEG file and segment it (the category mask on the photo): what an app pays per photo
//            (MediaPipe's segment(image) from the file is timed the same way on the Python side)
//   run      the model run alone on the decoded photo: scaling it to the input, writing the tensor,
//            invoking, reading the output
//   segment  the same photo segmented: run plus the activation, the confidences resized onto the photo and
//            the argmax per pixel; segment − run is what the mask costs
//   invoke   the model run on a photo already of the input's size, upright BGRA, so that preparing it costs
//            next to nothing: the model's own invoke, which the mask's cost is measured against
//   mask     segment − run, iteration by iteration (the two ran back to back), then the median: what the
//            mask costs, which the difference of the two medians gave before, as noisy as either median
// Prints one JSON object with the medians in microseconds.
import Foundation
import TensorIO
import TensorIOVision
import BenchmarkStatistics

let (arguments, runs) = benchmarkArguments(usage: "segmentation-benchmark MODEL PHOTO RUNS [--threads N]")
let threads = option("--threads", in: arguments) ?? 1

do {
    let url = URL(fileURLWithPath: arguments[0])
    let bundle = ModelBundle.isBareModel(url) ? try ModelBundle(modelAt: url, registry: .vision) : try ModelBundle(at: url, registry: .vision)
    let model = try bundle.makeModel(configuration: ModelConfiguration(threadCount: threads))
    try model.load()
    let photoURL = URL(fileURLWithPath: arguments[1])
    let photo = try PixelBuffer(contentsOf: photoURL)
    guard let size = bundle.predictionInputs.first?.imageSize else { throw TensorIOError(.unsupported, "no image input") }
    let tensorSized = try PixelBuffer(width: size.width, height: size.height, format: .bgra, repeating: 128)
    var pixels = 0
    for _ in 0..<max(10, runs / 10) {  // warm-up
        pixels += try model.segment(contentsOf: photoURL).categoryIndices.count
        _ = try model.run(.image(photo))
        _ = try model.run(.image(tensorSized))
    }
    var fromFile: [Double] = [], run: [Double] = [], segment: [Double] = [], invoke: [Double] = [], mask: [Double] = []
    for _ in 0..<runs {
        fromFile.append(try microseconds { pixels += try model.segment(contentsOf: photoURL).categoryIndices.count })
        run.append(try microseconds { _ = try model.run(.image(photo)) })
        segment.append(try microseconds { pixels += try model.segment(photo).categoryIndices.count })
        invoke.append(try microseconds { _ = try model.run(.image(tensorSized)) })
        mask.append(segment[segment.count - 1] - run[run.count - 1])
    }
    let shown = try model.segment(contentsOf: photoURL)
    let result: [String: Double] = [
        "photo_us": median(fromFile), "run_us": median(run), "segment_us": median(segment), "invoke_us": median(invoke),
        "mask_us": median(mask), "width": Double(shown.width), "height": Double(shown.height),
    ]
    try printJSON(result)
} catch {
    fail("segmentation-benchmark", error)
}
