import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOVideo
import TensorIOVision

/// `VideoReader.results(options:_:)`: a real detector over a clip's frames. In the streaming suite, which
/// is serialized: these tests count the decoding threads too.
extension VideoStreamingTests {
    /// MediaPipe's short-range face detector, from the repository's fixtures.
    static func faceDetector() throws -> any Model {
        var inference = BundleInferenceOptions()
        inference.detector = .blazeFaceShortRange
        let bundle = try ModelBundle(
            modelAt: Fixtures.repositoryURL("Tests/Fixtures/Metadata/face_detection_short_range.tflite"), options: inference, registry: .vision)
        return try bundle.makeModel()
    }

    @Test("a face detector's results come in frame order with their timestamps, the same as on each decoded frame")
    func detectorResults() async throws {
        let detector = try Self.faceDetector()
        let reader = try VideoReader(contentsOf: try VideoClips.url("vp9.mkv"))  // Grace Hopper's face
        let sampling = VideoSampling(every: 10)
        var answers: [VideoFrameResult<[Detection]>] = []
        for try await answer in reader.results(options: sampling, { frame in try detector.detect(frame.image) }) {
            answers.append(answer)
        }
        #expect(answers.map(\.index) == [0, 10, 20])
        // 15 frames a second; Matroska keeps timestamps in milliseconds.
        let expectedTimes = answers.map { Double($0.index) * 1_000_000 / 15 }
        #expect(zip(answers, expectedTimes).allSatisfy { abs(Double($0.frame.timestampMicroseconds) - $1) <= 1000 }, "\(answers.map(\.frame.timestampMicroseconds))")
        let expected = try VideoClips.decodeAll(reader, options: sampling).map { try detector.detect($0.image) }
        #expect(answers.map(\.result) == expected)
        #expect(answers.allSatisfy { $0.result.count == 1 })
        #expect(try await Self.decodingThreadsEnd())
    }

    @Test("breaking out after the first result, a task that throws, or cancelling the consumer during a task, stops the decoder")
    func resultsStop() async throws {
        let reader = try VideoReader(contentsOf: try VideoClips.url("h264.mp4"))
        var seen = 0
        for try await _ in reader.results({ frame in frame.image.width }) {
            seen += 1
            break
        }
        #expect(seen == 1)
        #expect(try await Self.decodingThreadsEnd())

        // A task that throws ends the sequence: the error, then nil.
        struct Refused: Error {}
        var iterator = reader.results({ frame in
            if frame.index == 1 { throw Refused() }
            return frame.index
        }).makeAsyncIterator()
        #expect(try await iterator.next()?.result == 0)
        await #expect(throws: Refused.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(try await Self.decodingThreadsEnd())

        let started = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var count = 0
            for try await _ in reader.results({ frame in
                started.continuation.yield()
                try await Task.sleep(for: .seconds(30))  // a slow task, woken by the cancellation
                return frame.index
            }) { count += 1 }
            return count
        }
        for await _ in started.stream { break }
        consumer.cancel()
        let result = await consumer.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await Self.decodingThreadsEnd())
    }
}
