import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
@testable import TensorIOVideo

/// VideoSampling on real clips (every Nth frame, at most F a second, a start reached by seeking and an end)
/// and its rules on their own.
@Suite("Video: sampling")
struct VideoSamplingTests {
    /// An H.264 clip with B-frames and a key frame every 15 frames, a Motion JPEG AVI (every frame a key
    /// frame, an index to seek by) and a VP9 Matroska clip (cues, millisecond timestamps).
    static let clips = ["h264.mp4", "mjpeg.avi", "vp9.mkv"]

    static func indices(_ name: String, _ options: VideoSampling) throws -> [Int] {
        let frames = try VideoClips.decodeAll(try VideoReader(contentsOf: try VideoClips.url(name)), options: options)
        for frame in frames {
            // Each frame's timestamp is its index's, 1/15 s apart (to the millisecond).
            #expect(abs(frame.timestampMicroseconds - Int64(frame.index) * 1_000_000 / 15) <= 1000, "\(name) frame \(frame.index)")
        }
        return frames.map(\.index)
    }

    @Test("every 7th frame", arguments: clips)
    func every(_ name: String) throws {
        #expect(try Self.indices(name, VideoSampling(every: 7)) == [0, 7, 14, 21, 28])
    }

    @Test("at most 5 and 4 frames a second of a 15 fps clip, by timestamp", arguments: clips)
    func framesPerSecond(_ name: String) throws {
        #expect(try Self.indices(name, VideoSampling(maximumFramesPerSecond: 5)) == Array(stride(from: 0, to: 30, by: 3)))
        #expect(try Self.indices(name, VideoSampling(maximumFramesPerSecond: 4)) == [0, 4, 8, 12, 15, 19, 23, 27])
        #expect(try Self.indices(name, VideoSampling(maximumFramesPerSecond: 100)) == Array(0..<30))
    }

    @Test("from 0.5 s to 1.5 s, from 1.2 s (a frame exactly there), and the rules together", arguments: clips)
    func startAndEnd(_ name: String) throws {
        #expect(try Self.indices(name, VideoSampling(start: .milliseconds(500), end: .milliseconds(1500))) == Array(8...22))
        #expect(try Self.indices(name, VideoSampling(start: .milliseconds(1200))) == Array(18...29))
        #expect(try Self.indices(name, VideoSampling(end: .milliseconds(200))) == [0, 1, 2])
        #expect(try Self.indices(name, VideoSampling(every: 3, start: .milliseconds(500))) == [8, 11, 14, 17, 20, 23, 26, 29])
        #expect(try Self.indices(name, VideoSampling(maximumFramesPerSecond: 2, start: .milliseconds(500))) == [8, 16, 23])
    }

    @Test("a start past the end gives no frame and no error", arguments: clips)
    func startPastEnd(_ name: String) throws {
        #expect(try Self.indices(name, VideoSampling(start: .seconds(5))).isEmpty)
    }

    @Test("after a seek, a frame's pixels are the same as decoded from the start (the panning clip, H.264)")
    func seekPixels() throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("motion.mp4"))
        let all = try VideoClips.decodeAll(reader)
        let sampled = try VideoClips.decodeAll(reader, options: VideoSampling(start: .milliseconds(1200), end: .milliseconds(1300)))
        #expect(sampled.map(\.index) == [18, 19])
        #expect(sampled == Array(all[18...19]))
    }

    @Test("rules that cannot be used are refused before decoding: invalidInput",
          arguments: [
              VideoSampling(every: 0), VideoSampling(maximumFramesPerSecond: 0), VideoSampling(maximumFramesPerSecond: .nan),
              VideoSampling(maximumFramesPerSecond: .infinity), VideoSampling(start: .seconds(-1)),
              VideoSampling(start: .seconds(2), end: .seconds(1)), VideoSampling(end: .zero),
          ])
    func refused(_ options: VideoSampling) throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("mpeg4.mp4"))
        let error = #expect(throws: TensorIOError.self) { try reader.makeDecoder(options: options) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("VideoSampling") == true)
    }

    @Test("the rules alone: every, frames per second from the first kept frame, start and end")
    func sampler() {
        func run(_ sampling: VideoSampling, _ timestamps: [Int64]) -> [FrameSampler.Decision] {
            var sampler = FrameSampler(sampling)
            return timestamps.map { sampler.decide(timestamp: $0) }
        }
        // 30 fps in microseconds (33,333 apart), at most 10 a second: one in three.
        let thirty = (0..<9).map { Int64($0) * 1_000_000 / 30 }
        #expect(run(VideoSampling(maximumFramesPerSecond: 10), thirty) == [.keep, .skip, .skip, .keep, .skip, .skip, .keep, .skip, .skip])
        #expect(run(VideoSampling(every: 4), thirty) == [.keep, .skip, .skip, .skip, .keep, .skip, .skip, .skip, .keep])
        #expect(run(VideoSampling(start: .milliseconds(50), end: .milliseconds(200)), thirty)
            == [.skip, .skip, .keep, .keep, .keep, .keep, .stop, .stop, .stop])
        // Timestamps going back are skipped by the frames-per-second rule, never kept twice in an interval.
        #expect(run(VideoSampling(maximumFramesPerSecond: 1), [0, 2_000_000, 1_000_000, 3_000_000]) == [.keep, .keep, .skip, .keep])
        // A file's timestamps may be anything: the extremes neither trap nor wrap around.
        #expect(run(VideoSampling(maximumFramesPerSecond: 1e9), [.min, .max, .min, 0]) == [.keep, .keep, .skip, .skip])
        #expect(run(VideoSampling(every: 2, start: .seconds(Int64.max), end: .seconds(Int64.max)), [.max, .min]) == [.stop, .skip])
    }
}
