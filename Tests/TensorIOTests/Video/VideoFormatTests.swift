import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOVideo

/// Every container and codec TensorIOVideo reads (issue 41, part 1), on clips made from the repository's
/// photos (scripts/fixtures/make_video_clips.sh): the frame count, size and timestamps, the pixels against
/// the photo, and the display matrix of a phone's portrait video.
@Suite("Video: formats")
struct VideoFormatTests {
    /// The largest mean difference, out of 255, between a frame and its photo over the comparison grid: the
    /// codecs' loss and the scaling leave 1.1 to 1.6; another photo is 30 or more away.
    static let resemblance = 4.0

    @Test("each container and codec: 30 frames at the stored size, 1/15 s apart from 0, indices 0…29",
          arguments: VideoClips.stills)
    func decodes(_ clip: VideoClips.Clip) throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url(clip.name))
        #expect(reader.info.codec == clip.codec && reader.info.container == clip.container)
        #expect(reader.info.width == clip.width && reader.info.height == clip.height && reader.info.orientation == .up)
        #expect(abs((reader.info.frameRate ?? 0) - 15) < 0.01)
        #expect(reader.info.duration.map { abs(($0 - .seconds(2)) / .seconds(1)) < 0.1 } == true)
        let frames = try VideoClips.decodeAll(reader)
        #expect(frames.count == 30)
        #expect(frames.map(\.index) == Array(0..<30))
        for (number, frame) in frames.enumerated() {
            #expect(frame.image.width == clip.width && frame.image.height == clip.height && frame.image.format == .bgra)
            // 1/15 s apart, to the millisecond (Matroska counts time in milliseconds).
            #expect(abs(frame.timestampMicroseconds - Int64(number) * 1_000_000 / 15) <= 1000, "frame \(number)")
        }
    }

    @Test("the first frame is the photo the clip was made from, and not another", arguments: VideoClips.stills)
    func pixels(_ clip: VideoClips.Clip) throws {
        let decoder = try VideoReader(contentsOf: try VideoClips.url(clip.name)).makeDecoder()
        let first = try #require(try decoder.nextFrame())
        let photo = try PixelBuffer(contentsOf: Fixtures.repositoryURL(clip.photo))
        let difference = VideoClips.difference(first.image, photo)
        print("video-formats | \(clip.name): mean difference from \(clip.photo): \(String(format: "%.2f", difference))")
        #expect(difference < Self.resemblance)
        let other = try PixelBuffer(contentsOf: Fixtures.repositoryURL(
            clip.photo == "Examples/photos/retina.jpg" ? "Examples/photos/cat.jpg" : "Examples/photos/retina.jpg"))
        #expect(VideoClips.difference(first.image, other) > 3 * Self.resemblance)
    }

    @Test("a phone's portrait video: stored sideways, displayed upright through its display matrix",
          arguments: [("rotated-cw.mov", ImageOrientation.right, 90), ("rotated-ccw.mov", .left, 270), ("rotated-180.mov", .down, 180)])
    func rotated(_ name: String, _ orientation: ImageOrientation, _ rotation: Int) throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url(name))
        #expect(reader.info.orientation == orientation && reader.info.rotation == rotation)
        let displayed = reader.info.uprightSize
        #expect(displayed.width == 320 && displayed.height == 240)
        let frames = try VideoClips.decodeAll(reader)
        #expect(frames.count == 30)
        let first = try #require(frames.first)
        #expect(first.image.orientation == orientation)
        let upright = first.image.orientedUpright()
        #expect(upright.width == 320 && upright.height == 240)
        let photo = try PixelBuffer(contentsOf: Fixtures.repositoryURL("Examples/photos/cat.jpg"))
        let difference = VideoClips.difference(upright, photo)
        print("video-formats | \(name): upright frame's mean difference from cat.jpg: \(String(format: "%.2f", difference))")
        #expect(difference < Self.resemblance)
        // As stored, the frame is not the photo.
        var stored = first.image
        stored.orientation = .up
        #expect(VideoClips.difference(stored, photo) > 2 * Self.resemblance)
    }

    @Test("a file read from disk and the same bytes in memory give the same frames")
    func memory() throws {
        let fromFile = try VideoClips.decodeAll(try VideoReader(contentsOf: try VideoClips.url("vp8.webm")))
        let fromMemory = try VideoClips.decodeAll(try VideoReader(data: try VideoClips.data("vp8.webm")))
        #expect(fromFile == fromMemory)
    }

    @Test("a clip with an audio track: the video stream is chosen and the audio packets are passed over")
    func withAudio() throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("h264.mp4"))
        #expect(reader.info.frameCount == 30)
        #expect(try VideoClips.decodeAll(reader).count == 30)
    }

    @Test("the panning clip: 30 frames, the first and the last different views of the photo")
    func motion() throws {
        let frames = try VideoClips.decodeAll(try VideoReader(contentsOf: try VideoClips.url("motion.mp4")))
        #expect(frames.count == 30)
        let (first, last) = (try #require(frames.first), try #require(frames.last))
        #expect(VideoClips.difference(first.image, last.image) > 10)
    }

    @Test("a decoder after its last frame and a decoder's frames match another's for the same video")
    func repeatable() throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("mpeg4.mp4"))
        let decoder = try reader.makeDecoder()
        var count = 0
        while try decoder.nextFrame() != nil { count += 1 }
        #expect(count == 30)
        #expect(try decoder.nextFrame() == nil)
        #expect(try VideoClips.decodeAll(reader).count == 30)
    }
}
