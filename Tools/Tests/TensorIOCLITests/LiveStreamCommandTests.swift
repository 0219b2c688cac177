#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOVideo

/// The vision commands on live streams (issue 41, point 3): MPEG-TS served over HTTP on the loopback address
/// by Debian's ffmpeg at the clip's own pace, or piped into standard input; a line per answered frame with its
/// latency and the frames dropped before it; Ctrl-C ends a stream cleanly.
@Suite("CLI: vision commands on live streams", .timeLimit(.minutes(2)))
struct LiveStreamCommandTests {
    static let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")

    /// ffmpeg serving `clip` as MPEG-TS over HTTP at its frame rate, to one client.
    static func serve(_ clip: URL) throws -> (ChildProcess, String) {
        let url = "http://127.0.0.1:\(try LoopbackSocket.closedPort())/live.ts"
        let server = try ChildProcess.start(
            ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-re", "-i", clip.path, "-c", "copy", "-f", "mpegts", "-listen", "1", url],
            timeLimit: .seconds(60))
        return (server, url)
    }

    /// `tensorio` with `arguments` (the stream's URL among them), started again while the server is not yet
    /// listening.
    static func start(_ arguments: [String]) async throws -> ChildProcess {
        for _ in 0..<50 {
            let child = try CLI.start(arguments)
            try await Task.sleep(for: .milliseconds(200))
            if child.process.isRunning || !child.stderrSoFar.contains("refused") { return child }
            _ = try await child.result()
        }
        throw TestFailure("the stream's server never listened")
    }

    @Test("detect --json --draw on an HTTP stream: a line per frame as it arrives, with latency_ms and dropped; every frame answered or dropped; the answered frames drawn")
    func http() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try await VideoCommandTests.faceBundle(in: folder)
            let clip = folder.appendingPathComponent("walk.mp4")
            try VideoCommandTests.clip(clip, frames: 30, rate: 15)
            let (server, url) = try Self.serve(clip)
            defer { server.process.terminate() }
            let drawn = folder.appendingPathComponent("drawn.mp4")
            let result = try await Self.start(["detect", bundle, url, "--json", "--draw", drawn.path]).result()
            #expect(result.exited && result.status == 0 && result.stderr.isEmpty, "\(result)")
            let lines = try VideoCommandTests.lines(result)
            let frames = lines.compactMap { $0["frame"] as? Int }
            let dropped = lines.compactMap { $0["dropped"] as? Int }
            #expect(frames.count == lines.count && dropped.count == lines.count && !lines.isEmpty)
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 } && frames.last == 29, "\(frames)")
            #expect(lines.count + dropped.reduce(0, +) == 30, "\(lines.count) answered, \(dropped) dropped")
            #expect(lines.allSatisfy { ($0["latency_ms"] as? Double).map { $0 >= 0 && $0 < 5000 } ?? false })
            #expect(lines.allSatisfy { $0["path"] as? String == url && $0["timestamp_ms"] is Int })
            #expect(lines.allSatisfy { ($0["detections"] as? [Any])?.count == 1 }, "a face on every frame: \(result.stdout)")
            // --draw: each answered frame drawn, at the stream's size.
            let decoder = try VideoReader(contentsOf: drawn).makeDecoder()
            var sizes: [Int] = []
            while let frame = try decoder.nextFrame() { sizes.append(frame.image.width) }
            #expect(sizes.count == lines.count && sizes.allSatisfy { $0 == 320 }, "\(sizes.count) frames drawn, \(lines.count) lines")
        }
    }

    @Test("a stream on standard input (-): its frames answered; --start and --end are refused for a stream")
    func standardInput() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try await VideoCommandTests.faceBundle(in: folder)
            let clip = folder.appendingPathComponent("walk.mp4")
            try VideoCommandTests.clip(clip, frames: 12, rate: 15)
            let stream = folder.appendingPathComponent("walk.ts")
            let muxed = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", clip.path, "-c", "copy", "-f", "mpegts", stream.path])
            #expect(muxed.status == 0, "\(muxed)")
            let result = try await CLI.run(["detect", bundle, "-", "--json"], standardInput: try Data(contentsOf: stream))
            #expect(result.exited && result.status == 0, "\(result)")
            let frames = try VideoCommandTests.lines(result).compactMap { $0["frame"] as? Int }
            #expect(!frames.isEmpty && zip(frames, frames.dropFirst()).allSatisfy { $0 < $1 }, "\(frames)")
            let refused = try await CLI.run("detect", bundle, "-", "--start", "1")
            #expect(refused.status == 64 && refused.stderr.contains("--start and --end are for video files"), "\(refused)")
        }
    }

    @Test("Ctrl-C ends a stream cleanly: exit 0 after whole lines, a summary on standard error")
    func interrupted() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try await VideoCommandTests.faceBundle(in: folder)
            let clip = folder.appendingPathComponent("long.mp4")
            try VideoCommandTests.clip(clip, frames: 300, rate: 30)
            let (server, url) = try Self.serve(clip)
            defer { server.process.terminate() }
            let child = try await Self.start(["detect", bundle, url, "--json"])
            let deadline = ContinuousClock.now + .seconds(20)
            while child.process.isRunning, child.stdoutSoFar.split(separator: "\n").count < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(child.process.isRunning, "it ended before the signal: \(child.stdoutSoFar)")
            kill(child.process.processIdentifier, SIGINT)
            let result = try await child.result()
            #expect(result.exited && result.status == 0, "\(result)")
            #expect(result.stderr.contains("stopped: \(url):") && result.stderr.contains("frames answered"), "\(result)")
            let lines = try VideoCommandTests.lines(result)
            #expect(lines.count >= 3 && lines.count < 300, "\(lines.count) lines")
        }
    }
}
