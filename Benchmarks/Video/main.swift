// video-benchmark decode CLIP | pose BUNDLE CLIP [--threads N]: TensorIO's side of run-video-benchmarks.py.
//
//   decode  every frame of CLIP through VideoDecoder.nextFrame(): demuxed, decoded by libavcodec with its own
//           threads (VideoLimits' default), converted to BGRA by libswscale and copied into a PixelBuffer —
//           what an app gets per frame
//   pose    every frame through a LandmarkTracker over BUNDLE (a pose landmark bundle as `tensorio init …
//           --landmarker pose` writes it) with N threads for both models (default: the cores): the body
//           followed from frame to frame, the detector only when it is lost. The frames come as an app takes
//           them from a video: VideoReader.frames(), decoded on a thread of their own a few frames ahead
//           while the models run on the frame before, and the tracker's async call
// One pass, process start excluded (pose: the models loaded and run once on the first frame before): the
// clock starts when the file is opened. Prints one JSON object: frames,
// seconds, frames per second, the clip's duration and the real-time factor (duration / seconds), and for pose
// the frames the detector ran on and the frames with a body.
import Foundation
import TensorIO
import TensorIOVideo
import TensorIOVision
import BenchmarkStatistics

let usage = "video-benchmark decode CLIP | video-benchmark pose BUNDLE CLIP [--threads N]"
let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, (mode == "decode" && arguments.count >= 2) || (mode == "pose" && arguments.count >= 3) else {
    FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
    exit(2)
}

do {
    var tracker: LandmarkTracker?
    if mode == "pose" {
        let threads = option("--threads", in: arguments) ?? ProcessInfo.processInfo.activeProcessorCount
        let bundle = try ModelBundle(at: URL(fileURLWithPath: arguments[1]), registry: .vision)
        let landmarker = try Landmarker(bundle: bundle, configuration: ModelConfiguration(threadCount: threads))
        try landmarker.load()
        // Warm, as MediaPipe's side is: both models run once on the clip's first frame before the clock.
        if let first = try VideoReader(contentsOf: URL(fileURLWithPath: arguments[2])).makeDecoder().nextFrame() {
            _ = try await landmarker.landmarks(in: first.image)
        }
        // MediaPipe's side runs with smooth_landmarks=False: the same work, no output smoothing.
        tracker = try landmarker.tracker(smoothsLandmarks: false)
    }
    let clip = URL(fileURLWithPath: arguments[mode == "pose" ? 2 : 1])
    let start = now()
    let reader = try VideoReader(contentsOf: clip)
    var frames = 0, detections = 0, found = 0
    var last = Duration.zero
    if var tracker {
        for try await frame in reader.frames() {
            frames += 1
            last = frame.timestamp
            let result = try await tracker.landmarks(in: frame.image, timestamp: frame.timestamp)
            if result.detectorRan { detections += 1 }
            if !result.instances.isEmpty { found += 1 }
        }
    } else {
        let decoder = try reader.makeDecoder()
        while let frame = try decoder.nextFrame() {
            frames += 1
            last = frame.timestamp
        }
    }
    let seconds = microseconds(from: start, to: now()) / 1e6
    // The clip's duration: its frames' span plus one frame (the frame rate from the decoder's info).
    let rate = reader.info.frameRate ?? 30
    let duration = Double(last / .microseconds(1)) / 1e6 + 1 / rate
    var result: [String: Any] = [
        "frames": frames, "seconds": seconds, "fps": Double(frames) / seconds, "duration_s": duration,
        "realtime_factor": duration / seconds, "width": reader.info.width, "height": reader.info.height,
    ]
    if tracker != nil { result["detector_frames"] = detections; result["frames_with_body"] = found }
    try printJSON(result)
} catch {
    fail("video-benchmark", error)
}
