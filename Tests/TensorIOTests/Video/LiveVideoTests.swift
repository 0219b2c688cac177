import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
@testable import TensorIOVideo

/// `LiveVideo`: a stream decoded as it arrives — MPEG-TS served over HTTP on the loopback address by Debian's
/// ffmpeg, or written into a pipe — with the oldest waiting frame dropped when the consumer falls behind,
/// timeouts, and cancellation that gives a wait up at once.
@Suite("Video: live streams", .timeLimit(.minutes(1)))
struct LiveVideoTests {
    /// motion.mp4: 30 frames at 15 per second.
    static let clip = "motion.mp4"
    static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")

    /// ffmpeg serving the clip as MPEG-TS over HTTP at its frame rate (`-re`), to one client.
    static func serve() throws -> (ChildProcess, URL) {
        let port = try LoopbackSocket.closedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/live.ts")!
        let server = try ChildProcess.start(
            ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-re", "-i", try VideoClips.url(clip).path,
                     "-c", "copy", "-f", "mpegts", "-listen", "1", url.absoluteString],
            timeLimit: .seconds(30))
        return (server, url)
    }

    /// The frames of `video`, retrying the connection while the server is not yet listening; `pause` after
    /// each frame stands for a slow model.
    static func receive(_ video: LiveVideo, queue: Int = 1, pause: Duration = .zero) async throws -> [LiveVideoFrame] {
        for attempt in 0..<50 {
            var frames: [LiveVideoFrame] = []
            do {
                for try await frame in video.frames(maximumQueued: queue) {
                    frames.append(frame)
                    if pause > .zero { try await Task.sleep(for: pause) }
                }
                return frames
            } catch let error as TensorIOError where frames.isEmpty && error.message.contains("refused") && attempt < 49 {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        return []
    }

    @Test("MPEG-TS over HTTP on the loopback address: every frame, in order, as it arrives")
    func http() async throws {
        let (server, url) = try Self.serve()
        defer { server.process.terminate() }
        let start = ContinuousClock.now
        // A queue as long as the clip: what the transport gives is checked here, whatever the machine's load
        // (a consumer that keeps up except in a burst still loses frames with a queue of 1: slowConsumer).
        let frames = try await Self.receive(try LiveVideo(url: url), queue: 30)
        #expect(frames.map(\.frame.index) == Array(0..<30))
        #expect(frames.allSatisfy { $0.droppedBefore == 0 })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.frame.timestampMicroseconds < $1.frame.timestampMicroseconds })
        #expect(frames.first?.info.codec == "h264" && frames.first?.info.container == "mpegts")
        #expect(frames.first.map { ($0.frame.image.width, $0.frame.image.height) } ?? (0, 0) == (320, 240))
        // As the stream sends them: 2 s of frames take about 2 s, not the moment a file would.
        #expect(ContinuousClock.now - start > .milliseconds(1500))
        // The frames are the clip's, decoded alike.
        let file = try VideoClips.decodeAll(VideoReader(contentsOf: VideoClips.url(Self.clip)))
        if frames.count == 30 { #expect(VideoClips.difference(frames[20].frame.image, file[20].image) < 1) }
    }

    @Test("a consumer slower than the stream gets the newest frames: the others dropped and counted, none queued without end")
    func slowConsumer() async throws {
        let (server, url) = try Self.serve()
        defer { server.process.terminate() }
        let frames = try await Self.receive(try LiveVideo(url: url), pause: .milliseconds(250))
        let dropped = frames.reduce(0) { $0 + $1.droppedBefore }
        // 30 frames over 2 s to a consumer taking 0.25 s each: about 9 given, every frame given or dropped.
        #expect(frames.count + dropped == 30, "\(frames.count) given, \(dropped) dropped")
        #expect(frames.count <= 14 && dropped >= 16, "\(frames.count) given, \(dropped) dropped")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.frame.index < $1.frame.index })
        #expect(frames.last?.frame.index == 29)
    }

    @Test("a stream written into a pipe (as standard input takes one): every frame; the end of the pipe ends it")
    func pipe() async throws {
        let pipe = Pipe()
        let writer = try ChildProcess.start(
            Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", try VideoClips.url(Self.clip).path,
                          "-c", "copy", "-f", "mpegts", "pipe:1"],
            standardOutput: .handle(pipe.fileHandleForWriting), timeLimit: .seconds(30))
        try pipe.fileHandleForWriting.close()
        let video = try LiveVideo(source: .descriptor(pipe.fileHandleForReading.fileDescriptor), limits: VideoLimits(), timeout: .seconds(10))
        // Frames are kept while the consumer keeps up; here it takes them all (the queue holds 30).
        var frames: [LiveVideoFrame] = []
        for try await frame in video.frames(maximumQueued: 30) { frames.append(frame) }
        #expect(frames.map(\.frame.index) == Array(0..<30))
        _ = try await writer.result()
    }

    @Test("a stream that sends nothing ends with an error after its timeout; one that cannot be reached at once")
    func timeouts() async throws {
        let silent = Pipe()
        let video = try LiveVideo(source: .descriptor(silent.fileHandleForReading.fileDescriptor), limits: VideoLimits(), timeout: .milliseconds(300))
        // Its own timeout ends it (the message names it), not a longer wait: no bound on the wall time here,
        // which the whole suite's other tests stretch on a two-core machine (their blocking work holds the
        // threads that resume this task).
        do {
            for try await _ in video.frames() {}
            Issue.record("a silent stream gave frames")
        } catch let error as TensorIOError {
            #expect(error.code == .io && error.message.contains("nothing came from the stream for 0.3 seconds"), "\(error)")
            #expect(error.location == "descriptor \(silent.fileHandleForReading.fileDescriptor)")
        }
        let nobody = try LiveVideo(url: URL(string: "http://127.0.0.1:\(try LoopbackSocket.closedPort())/live.ts")!)
        do {
            for try await _ in nobody.frames() {}
            Issue.record("a stream nobody serves gave frames")
        } catch let error as TensorIOError {
            #expect(error.code == .io && error.message.contains("cannot be opened"), "\(error)")
        }
    }

    @Test("the timeout counts from the first frame asked for, not from when the iterator was made")
    func timeoutStartsWithTheStream() async throws {
        let stream = try makeTemporaryDirectory().appendingPathComponent("motion.ts")
        let muxed = try ChildProcess.run(
            Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", try VideoClips.url(Self.clip).path, "-c", "copy", "-f", "mpegts", stream.path])
        #expect(muxed.status == 0, "\(muxed)")
        let bytes = try Data(contentsOf: stream)
        let pipe = Pipe()
        let video = try LiveVideo(source: .descriptor(pipe.fileHandleForReading.fileDescriptor), limits: VideoLimits(), timeout: .milliseconds(400))
        var iterator = video.frames(maximumQueued: 30).makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(700))
        // A thread of its own: a task could wait for a thread of the pool past the timeout while the suite runs.
        let writing = Thread {
            try? pipe.fileHandleForWriting.write(contentsOf: bytes)
            try? pipe.fileHandleForWriting.close()
        }
        writing.start()
        var count = 0
        while try await iterator.next() != nil { count += 1 }
        #expect(count == 30)
    }

    @Test("cancelling the consuming task gives a wait on a silent stream up at once")
    func cancellation() async throws {
        let silent = Pipe()
        let video = try LiveVideo(source: .descriptor(silent.fileHandleForReading.fileDescriptor), limits: VideoLimits(), timeout: .seconds(30))
        let task = Task {
            for try await _ in video.frames() {}
        }
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // Well before the stream's 30 s timeout (alone it takes milliseconds; the whole suite's blocking work can
        // hold the threads that resume these tasks for seconds on a two-core machine).
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("what is not a live stream: another scheme, a timeout of zero, garbage or a WAV file in the pipe")
    func refused() async throws {
        #expect(throws: TensorIOError.self) { try LiveVideo(url: URL(fileURLWithPath: "/etc/passwd")) }
        #expect(throws: TensorIOError.self) { try LiveVideo(url: URL(string: "ftp://127.0.0.1/x.ts")!) }
        #expect(throws: TensorIOError.self) { try LiveVideo.standardInput(timeout: .zero) }
        // Under 64 KB each: the pipe holds it whole, so the writer never waits on a reader that has stopped.
        for bytes in [Data((0..<60_000).map { UInt8(truncatingIfNeeded: ($0 &* 7919) >> 3) }),
                      try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/AudioFormats/phrase-float.wav")).prefix(60_000)] {
            let pipe = Pipe()
            // Written whole before reading (the pipe holds it), so no writer waits for a thread to run on.
            try pipe.fileHandleForWriting.write(contentsOf: bytes)
            try pipe.fileHandleForWriting.close()
            let video = try LiveVideo(source: .descriptor(pipe.fileHandleForReading.fileDescriptor), limits: VideoLimits(), timeout: .seconds(5))
            do {
                for try await _ in video.frames() {}
                Issue.record("\(bytes.count) bytes of garbage gave frames")
            } catch let error as TensorIOError {
                #expect(error.code == .invalidVideo, "\(error)")
            }
            try? pipe.fileHandleForReading.close()
        }
    }
}
