import Foundation
import TensorIO
import TensorIOVideo
import TensorIOVision

/// How `tensorio landmarks` answers a video's frames: with a `LandmarkTracker`, as MediaPipe's video mode
/// does — each instance's landmarks give its region on the next frame, the detector runs only while fewer
/// than the most instances are followed — or, for a bundle without a `landmarks.tracking` rule, each frame
/// as a photo of its own. One track per video: ``reset()`` before each.
final class FrameTracking: @unchecked Sendable {
    private let landmarker: Landmarker
    private let options: LandmarkerOptions
    private let lock = NSLock()
    /// Guarded by `lock`; `nil` when the bundle declares no tracking.
    private var tracker: LandmarkTracker?

    /// - Parameter smoothsLandmarks: Whether the bundle's output smoothing applies (`--no-smoothing` turns it off).
    init(landmarker: Landmarker, options: LandmarkerOptions, smoothsLandmarks: Bool = true) throws {
        self.landmarker = landmarker
        self.options = options
        tracker = landmarker.description.tracking == nil
            ? nil : try landmarker.tracker(options: options, smoothsLandmarks: smoothsLandmarks)
    }

    /// Forgets the instances followed: the next frame is a new video's first.
    func reset() {
        lock.withLock { tracker?.reset() }
    }

    /// The instances on the next frame of the video being answered.
    func landmarks(on frame: VideoFrame) throws -> [Landmarks] {
        try lock.withLock {
            guard tracker != nil else { return try landmarker.landmarks(in: frame.image, options: options) }
            return try tracker!.landmarks(in: frame.image, timestamp: frame.timestamp).instances
        }
    }
}
