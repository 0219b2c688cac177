import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOVideo

/// The clips `scripts/fixtures/make_video_clips.sh` writes (Tests/Fixtures/Video/README.md): made once per
/// version of the script into `.build/video-clips/`, never committed.
enum VideoClips {
    /// One clip and what it was made from.
    struct Clip: Sendable, CustomTestStringConvertible {
        var name: String
        var codec: String
        var container: String
        var width = 320
        var height = 240
        /// The photo its frames show, relative to the repository root.
        var photo: String
        var testDescription: String { name }
    }

    /// Every clip the script makes from a still photo, upright: 30 frames at 15 per second.
    static let stills: [Clip] = [
        Clip(name: "h264.mp4", codec: "h264", container: "mov", photo: "Examples/photos/cat.jpg"),
        Clip(name: "hevc.mp4", codec: "hevc", container: "mov", photo: "Examples/photos/coffee.jpg"),
        Clip(name: "mpeg4.mp4", codec: "mpeg4", container: "mov", photo: "Examples/photos/flower.jpg"),
        Clip(name: "av1.mp4", codec: "av1", container: "mov", photo: "Examples/photos/cat.jpg"),
        Clip(name: "vp8.webm", codec: "vp8", container: "matroska", photo: "Examples/photos/china.jpg"),
        Clip(name: "vp9.mkv", codec: "vp9", container: "matroska", photo: "Examples/photos/grace_hopper.jpg"),
        Clip(name: "mjpeg.avi", codec: "mjpeg", container: "avi", width: 318, height: 238,
             photo: "Tests/Fixtures/Detection/photos/astronaut.jpg"),
    ]

    /// The folder holding the clips, made by the first test that asks.
    static let folder: Result<URL, any Error> = Result {
        try ScriptOutput.folder(script: "scripts/fixtures/make_video_clips.sh", cache: "video-clips", marker: "h264.mp4")
    }

    /// The clip called `name`.
    static func url(_ name: String) throws -> URL { try folder.get().appendingPathComponent(name) }

    /// The bytes of the clip called `name`.
    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// Decodes every frame `options` keeps with a decoder on this thread.
    static func decodeAll(_ reader: VideoReader, options: VideoSampling = .all) throws -> [VideoFrame] {
        let decoder = try reader.makeDecoder(options: options)
        var frames: [VideoFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The mean absolute difference, 0 to 255, between two images' colours averaged over a 16 × 12 grid of
    /// blocks laid over each (so images of different sizes compare by their relative positions).
    static func difference(_ first: PixelBuffer, _ second: PixelBuffer) -> Double {
        let (a, b) = (blockMeans(first), blockMeans(second))
        return zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }

    private static func blockMeans(_ image: PixelBuffer) -> [Double] {
        let bgra = image.converted(to: .bgra)
        let (columns, rows) = (16, 12)
        var means: [Double] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let (x0, x1) = (column * bgra.width / columns, (column + 1) * bgra.width / columns)
                let (y0, y1) = (row * bgra.height / rows, (row + 1) * bgra.height / rows)
                var sums = [0.0, 0.0, 0.0]
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let offset = y * bgra.bytesPerRow + x * 4
                        for channel in 0..<3 { sums[channel] += Double(bgra.bytes[offset + channel]) }
                    }
                }
                let count = Double(max(1, (x1 - x0) * (y1 - y0)))
                means += sums.map { $0 / count }
            }
        }
        return means
    }
}
