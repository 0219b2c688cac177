import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOVideo

#if canImport(Glibc)
import Glibc
#endif

/// Hostile video (issue 41, part 1): empty, truncated, lying and damaged files, other containers, audio
/// alone, huge claimed sizes and rates, every limit: one clear error or a bounded result, never a crash or
/// a hang. Each input is also held to a time bound.
@Suite("Video: hostile files", .timeLimit(.minutes(1)))
struct VideoHostileTests {
    /// Small limits for the many-input tests: one decoding thread (no thread start per input), frames no
    /// larger than the clips'.
    static let small = VideoLimits(maximumPixels: 320 * 240, maximumFrames: 100, maximumDecodingThreads: 1)

    /// What decoding `data` whole gave: its frames, or its error.
    struct Outcome {
        var frames: [VideoFrame] = []
        var error: TensorIOError?
    }

    /// Opens and decodes `data` to its end within `seconds`, recording an issue for any error that is not a
    /// `TensorIOError` and for a frame past the limits.
    static func decode(_ data: Data, limits: VideoLimits = small, within seconds: Double = 5,
                       sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let started = ContinuousClock.now
        var outcome = Outcome()
        do {
            let decoder = try VideoReader(data: data, limits: limits).makeDecoder()
            while let frame = try decoder.nextFrame() {
                outcome.frames.append(frame)
                #expect(frame.image.width * frame.image.height <= limits.maximumPixels, sourceLocation: sourceLocation)
            }
        } catch let error as TensorIOError {
            outcome.error = error
        } catch {
            Issue.record("not a TensorIOError: \(error)", sourceLocation: sourceLocation)
        }
        #expect(outcome.frames.count <= limits.maximumFrames, sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - started < .seconds(seconds), "decoding took too long", sourceLocation: sourceLocation)
        return outcome
    }

    /// `data` with the `size`-byte integer at `offset` replaced by `value`.
    static func patched(_ data: Data, at offset: Int, _ value: UInt32, size: Int = 4, bigEndian: Bool = false) -> Data {
        var copy = data
        for index in 0..<size {
            let shift = bigEndian ? (size - 1 - index) * 8 : index * 8
            copy[copy.startIndex + offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
        return copy
    }

    /// Where `tag` first occurs in `data` (at or after `from`).
    static func offset(of tag: String, in data: Data, from: Int = 0) throws -> Int {
        let range = try #require(data.range(of: Data(tag.utf8), in: (data.startIndex + from)..<data.endIndex))
        return range.lowerBound - data.startIndex
    }

    @Test("an empty file, text, a JPEG photo and a WAV recording: invalidVideo before any demuxer parses them")
    func notVideo() throws {
        #expect(Self.decode(Data()).error?.message == "the file is empty")
        let photo = try Data(contentsOf: Fixtures.repositoryURL("Examples/photos/cat.jpg"))
        let wav = try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Audio/wake_phrase_fr_44100.wav"))
        for data in [Data("not a video at all, just some words".utf8), photo, wav] {
            let error = Self.decode(data).error
            #expect(error?.code == .invalidVideo)
            #expect(error?.message.contains("TensorIO reads") == true || error?.message.contains("not a video file") == true, "\(error?.message ?? "")")
        }
    }

    @Test("an audio-only file: no video stream, saying what it holds")
    func audioOnly() throws {
        let error = Self.decode(try VideoClips.data("audio-only.m4a")).error
        #expect(error?.code == .invalidVideo)
        #expect(error?.message == "the file holds no video stream (it holds 1 audio)")
    }

    @Test("errors name the file; a missing file, a folder and a FIFO are io errors (the FIFO is not waited on)")
    func files() throws {
        try withTemporaryDirectory { folder in
            let missing = folder.appendingPathComponent("missing.mp4")
            let error = #expect(throws: TensorIOError.self) { try VideoReader(contentsOf: missing) }
            #expect(error?.code == .io && error?.location == missing.relativePath)
            #expect((#expect(throws: TensorIOError.self) { try VideoReader(contentsOf: folder) })?.code == .io)
            let fifo = folder.appendingPathComponent("fifo.mp4")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            #expect((#expect(throws: TensorIOError.self) { try VideoReader(contentsOf: fifo) })?.message.contains("FIFO") == true)
            let text = folder.appendingPathComponent("notes.mp4")
            try Data("hello".utf8).write(to: text)
            let invalid = #expect(throws: TensorIOError.self) { try VideoReader(contentsOf: text) }
            #expect(invalid?.code == .invalidVideo && invalid?.location == text.relativePath)
        }
    }

    @Test("every limit: file bytes, frame size, frames, duration, streams, packets without a frame")
    func limits() throws {
        let clip = try VideoClips.url("h264.mp4")
        let data = try VideoClips.data("h264.mp4")
        func error(_ limits: VideoLimits) -> TensorIOError? {
            #expect(throws: TensorIOError.self) { _ = try VideoClips.decodeAll(try VideoReader(contentsOf: clip, limits: limits)) }
        }
        let cases: [(VideoLimits, String)] = [
            (VideoLimits(maximumFileBytes: 1000), "VideoLimits.maximumFileBytes"),
            (VideoLimits(maximumPixels: 320 * 239), "VideoLimits.maximumPixels"),
            (VideoLimits(maximumDimension: 319), "VideoLimits.maximumDimension"),
            (VideoLimits(maximumFrames: 10), "VideoLimits.maximumFrames"),
            (VideoLimits(maximumDuration: .seconds(1)), "VideoLimits.maximumDuration"),
            (VideoLimits(maximumFrameRate: 10), "VideoLimits.maximumFrameRate"),
            (VideoLimits(maximumPacketsWithoutFrame: 1), "VideoLimits.maximumPacketsWithoutFrame"),
        ]
        for (limits, name) in cases {
            let error = error(limits)
            #expect(error?.code == .limitExceeded && error?.message.contains(name) == true, "\(name): \(error?.description ?? "no error")")
            #expect(error?.location == clip.relativePath)
        }
        // A container with more streams than the limit: libavformat refuses to make the next one.
        let streams = error(VideoLimits(maximumStreams: 1))
        #expect(streams?.message.contains("VideoLimits.maximumStreams") == true, "\(streams?.description ?? "no error")")
        let inMemory = #expect(throws: TensorIOError.self) { try VideoReader(data: data, limits: VideoLimits(maximumFileBytes: 1000)) }
        #expect(inMemory?.code == .limitExceeded)
    }

    @Test("every prefix at 40 lengths of an MP4, a Matroska and an AVI file: an error or some of the frames",
          arguments: ["h264.mp4", "vp9.mkv", "mjpeg.avi"])
    func truncated(_ name: String) throws {
        let original = try VideoClips.data(name)
        var lengths = Array(0..<16) + [64, 512, 1024, 2048]
        lengths += stride(from: 4096, to: original.count, by: max(1, original.count / 20))
        var partial = 0
        var errors: Set<String> = []
        for length in lengths {
            let outcome = Self.decode(original.prefix(length))
            // A prefix may hold every video frame and lack only audio at the end.
            #expect(outcome.frames.count <= 30)
            if !outcome.frames.isEmpty { partial += 1 }
            if let error = outcome.error {
                #expect(error.code == .invalidVideo || error.code == .limitExceeded, "\(length): \(error)")
                errors.insert(error.message)
            }
        }
        print("video-hostile | \(name): \(lengths.count) prefixes, \(partial) gave some frames; errors: \(errors.sorted().joined(separator: " | "))")
    }

    @Test("a valid header followed by garbage: an error or a bounded result", arguments: ["h264.mp4", "vp8.webm", "mjpeg.avi"])
    func garbageAfterHeader(_ name: String) throws {
        let original = try VideoClips.data(name)
        var generator = SeededGenerator(seed: 41)
        for keep in [512, 2048, 8192] {
            var data = original.prefix(keep)
            data.append(contentsOf: (0..<(original.count - keep)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            _ = Self.decode(data)
        }
        // Garbage after a whole clip: the container says where its data ends.
        var padded = original
        padded.append(contentsOf: (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let outcome = Self.decode(padded)
        #expect(outcome.frames.count == 30 || outcome.error != nil)
    }

    @Test("random byte flips, seeded: 150 in the header and 150 anywhere, per clip", arguments: ["h264.mp4", "vp9.mkv", "mjpeg.avi"])
    func byteFlips(_ name: String) throws {
        let original = try VideoClips.data(name)
        var generator = SeededGenerator(seed: 4141)
        var decoded = 0
        var errors: [String: Int] = [:]
        for round in 0..<300 {
            var mutated = original
            let span = round < 150 ? min(original.count, 4096) : original.count
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                mutated[Int.random(in: 0..<span, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let outcome = Self.decode(mutated, within: 10)
            if !outcome.frames.isEmpty { decoded += 1 }
            if let error = outcome.error { errors[error.code.rawValue, default: 0] += 1 }
        }
        print("video-hostile | \(name): 300 mutations, \(decoded) decoded to some frames; errors by code: \(errors.sorted { $0.key < $1.key })")
    }

    @Test("an AVI stream header claiming 100000×100000 pixels: refused or decoded at the frames' real size")
    func hugeDimensions() throws {
        let original = try VideoClips.data("mjpeg.avi")
        // BITMAPINFOHEADER's width and height, 12 and 16 bytes into the strf chunk; avih's, 40 and 44 in.
        let strf = try Self.offset(of: "strf", in: original)
        let avih = try Self.offset(of: "avih", in: original)
        var data = Self.patched(original, at: strf + 12, 100_000)
        data = Self.patched(data, at: strf + 16, 100_000)
        data = Self.patched(data, at: avih + 40, 100_000)
        data = Self.patched(data, at: avih + 44, 100_000)
        let outcome = Self.decode(data, limits: VideoLimits())
        print("video-hostile | AVI claiming 100000×100000: \(outcome.error?.description ?? "\(outcome.frames.count) frames of \(outcome.frames.first.map { "\($0.image.width)×\($0.image.height)" } ?? "-")")")
        #expect(outcome.error?.code == .limitExceeded || outcome.frames.allSatisfy { $0.image.width == 318 && $0.image.height == 238 })
    }

    @Test("JPEG frames claiming 60000×60000 pixels inside an honest AVI: each refused by libavcodec before it allocates")
    func hugeFrames() throws {
        var data = try VideoClips.data("mjpeg.avi")
        var start = 0
        // Every frame's SOF0 segment: FF C0, length, precision, then height and width (big-endian).
        while let range = data.range(of: Data([0xFF, 0xC0]), in: (data.startIndex + start)..<data.endIndex) {
            let offset = range.lowerBound - data.startIndex
            data = Self.patched(data, at: offset + 5, 60_000, size: 2, bigEndian: true)
            data = Self.patched(data, at: offset + 7, 60_000, size: 2, bigEndian: true)
            start = offset + 9
        }
        let outcome = Self.decode(data, limits: VideoLimits())
        print("video-hostile | JPEG frames claiming 60000×60000: \(outcome.error?.description ?? "\(outcome.frames.count) frames")")
        #expect(outcome.frames.isEmpty)
        #expect(outcome.error?.code == .invalidVideo || outcome.error?.code == .limitExceeded, "\(outcome.error?.description ?? "no error")")
    }

    @Test("an MP4 sample entry and track header claiming 65535×65535: refused or decoded at the stream's real size")
    func hugeMP4() throws {
        let original = try VideoClips.data("h264.mp4")
        // The avc1 sample entry (after the ftyp box's brand of the same name): width and height 32 and 34 bytes
        // into the entry, 16-bit; tkhd's, 16.16 fixed point, 84 and 88 bytes into the box.
        let entry = try Self.offset(of: "avc1", in: original, from: 32) - 4
        let tkhd = try Self.offset(of: "tkhd", in: original) - 4
        var data = Self.patched(original, at: entry + 32, 65_535, size: 2, bigEndian: true)
        data = Self.patched(data, at: entry + 34, 65_535, size: 2, bigEndian: true)
        data = Self.patched(data, at: tkhd + 84, 0xFFFF_0000, bigEndian: true)
        data = Self.patched(data, at: tkhd + 88, 0xFFFF_0000, bigEndian: true)
        let outcome = Self.decode(data, limits: VideoLimits())
        print("video-hostile | MP4 claiming 65535×65535: \(outcome.error?.description ?? "\(outcome.frames.count) frames")")
        #expect(outcome.error?.code == .limitExceeded || outcome.frames.allSatisfy { $0.image.width == 320 && $0.image.height == 240 })
    }

    @Test("an AVI stream claiming a million frames per second: refused (VideoLimits.maximumFrameRate)")
    func millionFramesPerSecond() throws {
        let original = try VideoClips.data("mjpeg.avi")
        // strh: dwScale and dwRate, 28 and 32 bytes into the chunk (frames per second = rate / scale);
        // avih's microseconds per frame, 8 in.
        let strh = try Self.offset(of: "strh", in: original)
        let avih = try Self.offset(of: "avih", in: original)
        var data = Self.patched(original, at: strh + 28, 1)
        data = Self.patched(data, at: strh + 32, 1_000_000)
        data = Self.patched(data, at: avih + 8, 1)
        let outcome = Self.decode(data, limits: VideoLimits())
        print("video-hostile | AVI at a million frames per second: \(outcome.error?.description ?? "\(outcome.frames.count) frames")")
        #expect(outcome.error?.code == .limitExceeded || outcome.frames.count == 30)
    }
}
