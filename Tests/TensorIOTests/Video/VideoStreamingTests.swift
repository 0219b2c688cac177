import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
@testable import TensorIOVideo

/// `VideoReader.frames(options:)`: decoding on a thread of its own ahead of the consumer, which stops when the
/// consumer stops or is cancelled. Serialized: the tests count the process's decoding threads by name
/// (`/proc/self/task/*/comm`), and no other suite starts one (they decode on the calling thread).
@Suite("Video: frames as an async sequence", .serialized, .timeLimit(.minutes(1)))
struct VideoStreamingTests {
    /// The decoding thread's name, which libavcodec's threads, started from it, inherit.
    static let threadName = "TensorIO video"

    /// How many of this process's threads bear ``threadName``.
    static func decodingThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines) == threadName
        }.count
    }

    /// Whether every decoding thread has ended within `seconds`.
    static func decodingThreadsEnd(within seconds: Double = 3) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if decodingThreads() == 0 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return decodingThreads() == 0
    }

    @Test("the sequence gives the decoder's frames, in order; its threads are gone once it has ended")
    func wholeVideo() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("h264.mp4"))
        var frames: [VideoFrame] = []
        for try await frame in reader.frames() { frames.append(frame) }
        let expected = try VideoClips.decodeAll(reader)
        #expect(frames.map(\.index) == expected.map(\.index))
        #expect(frames.map(\.timestampMicroseconds) == expected.map(\.timestampMicroseconds))
        #expect(frames.map(\.image) == expected.map(\.image))
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("a consumer that breaks out after two frames stops the decoding thread and libavcodec's threads")
    func breakEarly() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("vp9.mkv"))
        #expect(try await Self.decodingThreadsEnd())
        var seen: [Int] = []
        var threadsWhileDecoding = 0
        for try await frame in reader.frames(options: VideoSampling(every: 2)) {
            seen.append(frame.index)
            threadsWhileDecoding = max(threadsWhileDecoding, Self.decodingThreads())
            if seen.count == 2 { break }
        }
        #expect(seen == [0, 2])
        // The decoding thread, and on two cores or more libavcodec's frame threads beside it.
        #expect(threadsWhileDecoding >= (ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1))
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("cancelling the consuming task stops the decoder; the loop ends with CancellationError")
    func cancelled() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("h264.mp4"))
        let first = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var count = 0
            for try await _ in reader.frames() {
                count += 1
                first.continuation.yield()
                try await Task.sleep(for: .seconds(30))  // a slow consumer, woken by the cancellation
            }
            return count
        }
        for await _ in first.stream { break }
        #expect(Self.decodingThreads() >= 1)
        consumer.cancel()
        let result = await consumer.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("a task cancelled while waiting inside next() for a slow decoder gets CancellationError at once")
    func cancelledWhileWaiting() async throws {
        let gate = DispatchSemaphore(value: 0)
        let frames = VideoFrames(open: {
            gate.wait()  // a decoder that takes its time opening
            throw TensorIOError(.invalidVideo, "never opened")
        })
        let consumer = Task {
            var iterator = frames.makeAsyncIterator()
            return try await iterator.next()
        }
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        consumer.cancel()
        let result = await consumer.result
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(throws: CancellationError.self) { try result.get() }
        gate.signal()
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("a consumer on the main actor iterates as any other")
    @MainActor
    func mainActor() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("vp8.webm"))
        var indices: [Int] = []
        for try await frame in reader.frames(options: VideoSampling(every: 10)) { indices.append(frame.index) }
        #expect(indices == [0, 10, 20])
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("the file removed between opening and decoding: the loop throws io, naming the file")
    func fileGone() async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("clip.mp4")
            try FileManager.default.copyItem(at: try VideoClips.url("mpeg4.mp4"), to: copy)
            let reader = try VideoReader(contentsOf: copy)
            try FileManager.default.removeItem(at: copy)
            let error = await #expect(throws: TensorIOError.self) {
                for try await _ in reader.frames() {}
            }
            #expect(error?.code == .io && error?.location == copy.relativePath)
        }
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("a slow consumer gets every frame in order; two tasks iterating one reader each get the whole video")
    func slowAndShared() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("mjpeg.avi"))
        var indices: [Int] = []
        for try await frame in reader.frames(options: VideoSampling(every: 3)) {
            indices.append(frame.index)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(indices == Array(stride(from: 0, to: 30, by: 3)))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask { try await reader.frames().reduce(0) { count, _ in count + 1 } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [30, 30])
        #expect(try await Self.decodingThreadsEnd())
    }
}
