import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
@testable import TensorIOVideo

/// `VideoWriter`: frames written to an MP4 file and read back with `VideoReader`.
@Suite("Video: writing MP4 files", .timeLimit(.minutes(1)))
struct VideoWriterTests {
    /// A flat BGRA frame of one colour.
    static func flat(width: Int, height: Int, blue: UInt8, green: UInt8, red: UInt8) throws -> PixelBuffer {
        let pixel: [UInt8] = [blue, green, red, 255]
        return try PixelBuffer(width: width, height: height, format: .bgra, bytes: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }

    /// The mean absolute difference, 0 to 255, between an image's colours and one colour (B, G, R).
    static func difference(_ image: PixelBuffer, from colour: [UInt8]) -> Double {
        let bgra = image.converted(to: .bgra)
        var total = 0.0
        for pixel in stride(from: 0, to: bgra.bytes.count, by: 4) {
            for channel in 0..<3 { total += abs(Double(bgra.bytes[pixel + channel]) - Double(colour[channel])) }
        }
        return total / Double(bgra.width * bgra.height * 3)
    }

    @Test("frames written at 30000/1001 read back: their count, size, exact rate, timestamps and colours")
    func roundTrip() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("flat.mp4")
            let rate = try #require(VideoFrameRate(numerator: 30000, denominator: 1001))
            let writer = try VideoWriter(url: url, width: 320, height: 240, frameRate: rate)
            #expect(writer.codec == "h264")  // Debian's FFmpeg has libx264
            let colours: [[UInt8]] = [[200, 120, 40], [30, 60, 220]]
            for index in 0..<12 {
                let colour = colours[index / 6]
                try writer.write(try Self.flat(width: 320, height: 240, blue: colour[0], green: colour[1], red: colour[2]))
            }
            try writer.finish()
            try writer.finish()  // once: a second call does nothing
            #expect(writer.frameCount == 12)

            let reader = try VideoReader(contentsOf: url)
            #expect(reader.info.width == 320 && reader.info.height == 240 && reader.info.codec == "h264")
            #expect(reader.info.exactFrameRate == rate, "\(String(describing: reader.info.exactFrameRate))")
            let frames = try VideoClips.decodeAll(reader)
            #expect(frames.map(\.index) == Array(0..<12))
            #expect(frames.map(\.timestampMicroseconds) == (0..<12).map { Int64((Double($0) * 1001 / 30000 * 1_000_000).rounded(.down)) } || frames.map(\.timestampMicroseconds) == (0..<12).map { Int64((Double($0) * 1001 / 30000 * 1_000_000).rounded()) }, "\(frames.map(\.timestampMicroseconds))")
            for (index, frame) in frames.enumerated() {
                let difference = Self.difference(frame.image, from: colours[index / 6])
                #expect(difference < 3, "frame \(index): \(difference)")
            }
        }
    }

    @Test("FFmpeg's MPEG-4 part 2 encoder, the fallback without libx264: 30000/1001 kept, the colours close")
    func mpeg4() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("mpeg4.mp4")
            let rate = try #require(VideoFrameRate(numerator: 30000, denominator: 1001))
            let writer = try VideoWriter(url: url, width: 96, height: 64, frameRate: rate, limits: VideoLimits(), encoders: ["mpeg4"])
            #expect(writer.codec == "mpeg4")
            for _ in 0..<4 { try writer.write(try Self.flat(width: 96, height: 64, blue: 40, green: 160, red: 220)) }
            try writer.finish()
            let reader = try VideoReader(contentsOf: url)
            #expect(reader.info.codec == "mpeg4" && reader.info.exactFrameRate == rate, "\(reader.info)")
            let frames = try VideoClips.decodeAll(reader)
            #expect(frames.count == 4 && frames.allSatisfy { Self.difference($0.image, from: [40, 160, 220]) < 4 })
            expectTensorIOError(.invalidVideo, containing: ["none of the encoders"]) {
                try VideoWriter(url: url, width: 96, height: 64, frameRate: rate, limits: VideoLimits(), encoders: ["no-such-encoder"])
            }
        }
    }

    @Test("positions keep a source's timing when only some of its frames are written; a position not after the last is refused")
    func positions() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("sparse.mp4")
            let writer = try VideoWriter(url: url, width: 64, height: 48, frameRate: try #require(VideoFrameRate(10)))
            let frame = try Self.flat(width: 64, height: 48, blue: 90, green: 90, red: 90)
            for position in [0, 3, 6, 9] { try writer.write(frame, position: position) }
            expectTensorIOError(.invalidInput, location: url.relativePath, containing: ["frame position 9 is not after the last one written (9)"]) {
                try writer.write(frame, position: 9)
            }
            try writer.write(frame)  // the next one: 10
            try writer.finish()
            let frames = try VideoClips.decodeAll(try VideoReader(contentsOf: url))
            #expect(frames.map(\.timestampMicroseconds) == [0, 300_000, 600_000, 900_000, 1_000_000])
        }
    }

    @Test("an odd size loses its last column and row; a frame's orientation is applied before writing")
    func oddSizeAndOrientation() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("odd.mp4")
            let writer = try VideoWriter(url: url, width: 65, height: 49, frameRate: try #require(VideoFrameRate(15)))
            #expect(writer.encodedWidth == 64 && writer.encodedHeight == 48)
            try writer.write(try Self.flat(width: 65, height: 49, blue: 10, green: 200, red: 10))
            // Stored 49×65, displayed 65×49 once turned.
            var turned = try Self.flat(width: 49, height: 65, blue: 10, green: 200, red: 10)
            turned.orientation = .right
            try writer.write(turned)
            expectTensorIOError(.invalidInput, containing: ["a 49×65 frame given to a video of 65×49"]) {
                try writer.write(try Self.flat(width: 49, height: 65, blue: 0, green: 0, red: 0))
            }
            try writer.finish()
            let reader = try VideoReader(contentsOf: url)
            #expect(reader.info.width == 64 && reader.info.height == 48)
            let frames = try VideoClips.decodeAll(reader)
            #expect(frames.count == 2 && frames.allSatisfy { Self.difference($0.image, from: [10, 200, 10]) < 3 })
        }
    }

    @Test("refused: sizes below 2×2 or past the limits, a frame rate past the limit, a missing folder, a frame after finishing")
    func refusals() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("x.mp4")
            let rate = try #require(VideoFrameRate(25))
            for (width, height) in [(0, 0), (1, 10), (10, 1), (-4, 8)] {
                expectTensorIOError(.invalidInput, location: url.relativePath, containing: ["at least 2×2 pixels"]) {
                    try VideoWriter(url: url, width: width, height: height, frameRate: rate)
                }
            }
            expectTensorIOError(.limitExceeded, containing: ["VideoLimits.maximumDimension"]) {
                try VideoWriter(url: url, width: 20_000, height: 2, frameRate: rate)
            }
            expectTensorIOError(.invalidInput, containing: ["VideoLimits.maximumFrameRate"]) {
                try VideoWriter(url: url, width: 64, height: 48, frameRate: try #require(VideoFrameRate(5000)))
            }
            #expect(VideoFrameRate(numerator: 0, denominator: 1) == nil && VideoFrameRate(numerator: 1, denominator: -1) == nil)
            let missing = folder.appendingPathComponent("no/such/folder/x.mp4")
            expectTensorIOError(.io, location: missing.relativePath, containing: ["does not exist"]) {
                try VideoWriter(url: missing, width: 64, height: 48, frameRate: rate)
            }
            #expect(!FileManager.default.fileExists(atPath: url.path), "nothing made by a refused writer")
            let writer = try VideoWriter(url: url, width: 64, height: 48, frameRate: rate)
            try writer.finish()
            expectTensorIOError(.invalidVideo, location: url.relativePath, containing: ["finished"]) {
                try writer.write(try Self.flat(width: 64, height: 48, blue: 0, green: 0, red: 0))
            }
        }
    }

    @Test("a writer released before finish() finishes the file: it plays")
    func releasedUnfinished() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("released.mp4")
            do {
                let writer = try VideoWriter(url: url, width: 64, height: 48, frameRate: try #require(VideoFrameRate(10)))
                for _ in 0..<3 { try writer.write(try Self.flat(width: 64, height: 48, blue: 0, green: 0, red: 255)) }
            }
            #expect(try VideoClips.decodeAll(try VideoReader(contentsOf: url)).count == 3)
        }
    }
}
