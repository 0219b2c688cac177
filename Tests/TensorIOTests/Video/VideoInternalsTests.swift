import Foundation
import Testing
import TensorIO
@testable import TensorIOVideo

/// The pieces of TensorIOVideo that need no clip: display matrices, the queue between the decoding thread
/// and its consumer, the bounded byte source.
@Suite("Video: internals")
struct VideoInternalsTests {
    /// 1.0 in the display matrix's 16.16 fixed point.
    static let one: Int32 = 1 << 16

    @Test("the eight display matrices are the eight EXIF orientations; singular and malformed ones are upright")
    func displayMatrices() {
        func matrix(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> [Int32] { [a, b, 0, c, d, 0, 0, 0, 1 << 30] }
        let one = Self.one
        #expect(DisplayMatrix.orientation(matrix(one, 0, 0, one)) == .up)
        #expect(DisplayMatrix.orientation(matrix(-one, 0, 0, one)) == .upMirrored)
        #expect(DisplayMatrix.orientation(matrix(-one, 0, 0, -one)) == .down)
        #expect(DisplayMatrix.orientation(matrix(one, 0, 0, -one)) == .downMirrored)
        #expect(DisplayMatrix.orientation(matrix(0, one, one, 0)) == .leftMirrored)
        // QuickTime's matrix for a phone's portrait video: FFmpeg's "rotation of -90 degrees".
        #expect(DisplayMatrix.orientation(matrix(0, one, -one, 0)) == .right)
        #expect(DisplayMatrix.orientation(matrix(0, -one, -one, 0)) == .rightMirrored)
        #expect(DisplayMatrix.orientation(matrix(0, -one, one, 0)) == .left)
        #expect(DisplayMatrix.orientation(matrix(0, 0, 0, 0)) == .up)
        #expect(DisplayMatrix.orientation([one, 0, 0]) == .up)
        // A turn of 30° clockwise is read as upright; of 60°, as a quarter turn.
        let (cos30, sin30) = (Int32(0.866 * Double(one)), Int32(0.5 * Double(one)))
        #expect(DisplayMatrix.orientation(matrix(cos30, sin30, -sin30, cos30)) == .up)
        #expect(DisplayMatrix.orientation(matrix(sin30, cos30, -cos30, sin30)) == .right)
        #expect(ImageOrientation.allCases.map(DisplayMatrix.clockwiseDegrees) == [0, 0, 180, 180, 90, 90, 270, 270])
    }

    @Test("the queue holds the producer back at 4 frames and lets it go when the consumer leaves")
    func backpressure() async throws {
        let channel = FrameChannel<VideoFrame>(capacity: 4)
        let frame = VideoFrame(image: try PixelBuffer(width: 1, height: 1, format: .bgra), index: 0, timestampMicroseconds: 0)
        let sent = LockedCounter()
        let stopped = DispatchSemaphore(value: 0)
        let producer = Thread {
            while channel.send(.success(frame)) { sent.increment() }
            stopped.signal()
        }
        producer.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(sent.value == 4)
        // One taken, one more sent.
        _ = await channel.receive()
        try await Task.sleep(for: .milliseconds(100))
        #expect(sent.value == 5)
        channel.cancel()
        #expect(stopped.wait(timeout: .now() + 2) == .success)
        #expect(await channel.receive() == nil)
    }

    @Test("the queue keeps the order: 5,000 frames through a queue of 2, the consumer often waiting and the producer often full")
    func order() async throws {
        let channel = FrameChannel<VideoFrame>(capacity: 2)
        let image = try PixelBuffer(width: 1, height: 1, format: .bgra)
        let producer = Thread {
            for index in 0..<5000 {
                guard channel.send(.success(VideoFrame(image: image, index: index, timestampMicroseconds: 0))) else { return }
            }
            channel.finish()
        }
        producer.start()
        var received: [Int] = []
        while let element = await channel.receive() {
            received.append(try element.element.get().index)
            if received.count % 97 == 0 { try await Task.sleep(for: .milliseconds(1)) }  // let the queue fill
        }
        // Once, a producer that waited for room appended its frame while the consumer, having emptied the
        // queue meanwhile, waited: the next frame was then handed over first.
        #expect(received == Array(0..<5000))
    }

    @Test("the queue gives what was sent before the end, then nil; a consumer waiting on it wakes at the end")
    func finish() async throws {
        let channel = FrameChannel<VideoFrame>(capacity: 2)
        let frame = VideoFrame(image: try PixelBuffer(width: 1, height: 1, format: .bgra), index: 7, timestampMicroseconds: 9)
        #expect(channel.send(.success(frame)))
        channel.finish()
        #expect(try await channel.receive()?.element.get() == frame)
        #expect(await channel.receive() == nil)
        let waiting = FrameChannel<VideoFrame>(capacity: 2)
        async let received = waiting.receive()
        try await Task.sleep(for: .milliseconds(50))
        waiting.finish()
        #expect(await received == nil)
    }

    @Test("a live queue never holds the producer back: it drops the oldest and says how many before each frame")
    func dropOldest() async throws {
        let channel = FrameChannel<VideoFrame>(capacity: 1, overflow: .dropOldest)
        let image = try PixelBuffer(width: 1, height: 1, format: .bgra)
        for index in 0..<10 {
            #expect(channel.send(.success(VideoFrame(image: image, index: index, timestampMicroseconds: 0))))
        }
        let first = try #require(await channel.receive())
        #expect(try first.element.get().index == 9 && first.dropped == 9)
        #expect(channel.send(.success(VideoFrame(image: image, index: 10, timestampMicroseconds: 0))))
        channel.finish()
        let second = try #require(await channel.receive())
        #expect(try second.element.get().index == 10 && second.dropped == 0)
        #expect(await channel.receive() == nil)
    }

    @Test("the byte source: seeks stay within the file, and reading stops after 16 times its size")
    func byteSource() {
        let source = VideoByteSource(data: Data(repeating: 7, count: 1000))
        #expect(source.seek(to: -1, whence: SEEK_SET) == -1)
        #expect(source.seek(to: 1001, whence: SEEK_SET) == -1)
        #expect(source.seek(to: .max, whence: SEEK_CUR) == -1)
        #expect(source.seek(to: -10, whence: SEEK_END) == 990)
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(source.read(into: &buffer, count: 4096) == 10)
        #expect(source.read(into: &buffer, count: 4096) == 0)
        // 16 × 1000 + 1 MiB, then refused.
        var total = 10
        for _ in 0..<2000 {
            _ = source.seek(to: 0, whence: SEEK_SET)
            let read = source.read(into: &buffer, count: 4096)
            guard read > 0 else { break }
            total += read
        }
        #expect(total == 16 * 1000 + (1 << 20))
        #expect(source.budgetExhausted)
    }
}

/// A counter shared with a thread.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
