// landmarks-benchmark BUNDLE PHOTO RUNS [--threads N]: TensorIO's side of run-landmarks-benchmarks.py.
//
// Opens BUNDLE (a landmark bundle, as `tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose` writes
// one) as a Landmarker with N threads for both models, decodes PHOTO once (as MediaPipe's side decodes it once
// into an RGB array), warms up, then times RUNS iterations of each, interleaved so that a slow spell of the
// shared machine hits all alike:
//   photo     Landmarker.landmarks(in:) on the decoded photo: the whole pipeline, what an app pays per photo
//             (MediaPipe's solution's process(rgb) is timed the same way on the Python side)
//   profiled  Landmarker.profiledLandmarks(in:) on the same photo, which splits the call where its steps meet:
//               crop         each region cut from the upright photo (RegionCrop) and written into the landmark
//                            model's input tensor (that run's preparation and input conversion)
//               mapping      the landmark run's outputs read, its points decoded and mapped back onto the photo
//               model_invokes  the runtime's own invokes of the two models (RunProfile.invoke)
//               regions      the detector's outputs decoded and suppressed, the regions made (reported, not
//                            part of the crop and mapping)
//   detector  the first stage as a caller would run it: landmarker.detector.run(.image(photo)), the call
//             landmarks(in:) makes (scaling the photo to the detector's input, writing the tensor, invoking,
//             reading the outputs)
//   landmark  the second stage as a caller would run it, once per instance the photo gives:
//             landmarker.landmarkModel.run on a picture of the landmark model's input size in the photo's pixel
//             format, which is what the crop is (its pixels do not change the invoke's time)
//   invokes   detector + landmark, iteration by iteration
//   other     photo − invokes, iteration by iteration, then the median: everything the landmarker does besides
//             the two runs as a caller makes them (a superset of crop + mapping: the regions too)
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
        _ = try landmarker.profiledLandmarks(in: photo)
    }
    var cutting: [Double] = [], cropInputs: [Double] = [], cropUs: [Double] = [], mapping: [Double] = [], modelInvokes: [Double] = [], regions: [Double] = []
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
        let (found, profile) = try landmarker.profiledLandmarks(in: photo)
        guard found.count == instances else { throw TensorIOError(.unsupported, "the profiled call found \(found.count) instances, not \(instances)") }
        cutting.append(microseconds(profile.cutting))
        cropInputs.append(profile.landmarkRuns.reduce(0) { $0 + microseconds($1.preparation) + microseconds($1.inputs) })
        cropUs.append(microseconds(profile.crops))
        mapping.append(microseconds(profile.mapping))
        modelInvokes.append(microseconds(profile.invokes))
        regions.append(microseconds(profile.regions))
    }
    let result: [String: Double] = [
        "photo_us": median(whole), "detector_us": median(detector), "landmark_us": median(landmark),
        "invokes_us": median(invokes), "other_us": median(other), "instances": Double(instances),
        "crop_us": median(cropUs), "cutting_us": median(cutting), "crop_inputs_us": median(cropInputs), "mapping_us": median(mapping), "model_invokes_us": median(modelInvokes),
        "crop_mapping_us": median(zip(cropUs, mapping).map { $0 + $1 }), "regions_us": median(regions),
        "width": Double(photo.uprightSize.width), "height": Double(photo.uprightSize.height),
    ]
    try printJSON(result)
} catch {
    fail("landmarks-benchmark", error)
}
