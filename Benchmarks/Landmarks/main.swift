// landmarks-benchmark BUNDLE PHOTO RUNS [--threads N]: TensorIO's side of run-landmarks-benchmarks.py.
//
// Opens BUNDLE (a landmark bundle, as `tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose` writes
// one) as a Landmarker with N threads for both models, decodes PHOTO once (as MediaPipe's side decodes it once
// into an RGB array), warms up, then times RUNS iterations of each, interleaved so that a slow spell of the
// shared machine hits all alike:
//   photo     Landmarker.landmarks(in:) on the decoded photo: the whole pipeline, what an app pays per photo
//             (MediaPipe's solution's process(rgb) is timed the same way on the Python side)
//   detector  the first invoke alone: landmarker.detector.run(.image(photo)), the call landmarks(in:) makes
//             (scaling the photo to the detector's input, writing the tensor, invoking, reading the outputs)
//   landmark  the second invoke alone, once per instance the photo gives: landmarker.landmarkModel.run on a
//             picture of the landmark model's input size in the photo's pixel format, which is what the crop
//             landmarks(in:) cuts is (RegionCrop is internal; the invoke's time does not depend on the pixels)
//   invokes   detector + landmark, iteration by iteration
//   other     photo − invokes, iteration by iteration, then the median: what the landmarker does besides the
//             two invokes (decoding the detections and suppression, the regions, turning the photo upright,
//             cutting each region's crop, decoding and mapping the points back onto the photo)
// Prints one JSON object with the medians in microseconds and the instances found.
import Foundation
import TensorIO
import TensorIOVision
import BenchmarkStatistics

let (arguments, runs) = benchmarkArguments(usage: "landmarks-benchmark BUNDLE PHOTO RUNS [--threads N]")
let threads = option("--threads", in: arguments) ?? 1

do {
    let bundle = try ModelBundle(at: URL(fileURLWithPath: arguments[0]), registry: .vision)
    let landmarker = try Landmarker(bundle: bundle, configuration: ModelConfiguration(threadCount: threads))
    try landmarker.load()
    let photo = try PixelBuffer(contentsOf: URL(fileURLWithPath: arguments[1]))
    guard let size = bundle.predictionInputs.first?.imageSize else { throw TensorIOError(.unsupported, "no image input") }
    // The crop's stand-in: the landmark model's input size, the upright photo's format.
    let crop = try PixelBuffer(width: size.width, height: size.height, format: photo.orientedUpright().format, repeating: 128)
    let instances = try landmarker.landmarks(in: photo).count
    var count = 0
    for _ in 0..<max(10, runs / 10) {  // warm-up
        count += try landmarker.landmarks(in: photo).count
        _ = try landmarker.detector.run(.image(photo))
        _ = try landmarker.landmarkModel.run(.image(crop))
    }
    var whole: [Double] = [], detector: [Double] = [], landmark: [Double] = [], invokes: [Double] = [], other: [Double] = []
    for _ in 0..<runs {
        whole.append(try microseconds { count += try landmarker.landmarks(in: photo).count })
        detector.append(try microseconds { _ = try landmarker.detector.run(.image(photo)) })
        var second = 0.0
        for _ in 0..<instances {
            second += try microseconds { _ = try landmarker.landmarkModel.run(.image(crop)) }
        }
        landmark.append(second)
        invokes.append(detector[detector.count - 1] + second)
        other.append(whole[whole.count - 1] - invokes[invokes.count - 1])
    }
    let result: [String: Double] = [
        "photo_us": median(whole), "detector_us": median(detector), "landmark_us": median(landmark),
        "invokes_us": median(invokes), "other_us": median(other), "instances": Double(instances),
        "width": Double(photo.uprightSize.width), "height": Double(photo.uprightSize.height),
    ]
    try printJSON(result)
} catch {
    fail("landmarks-benchmark", error)
}
