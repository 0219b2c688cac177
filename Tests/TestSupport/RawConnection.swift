#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// A raw TCP connection to a server on 127.0.0.1: to send half a request and leave it hanging, or to see
/// exactly the bytes a server answers.
public final class RawConnection {
    private let descriptor: Int32

    /// Connects to `port`. A read waits `receiveTimeout` at most, so that a server that never answers
    /// fails the test instead of hanging it.
    public init(port: Int, receiveTimeout: Duration = .seconds(60)) throws {
        descriptor = try LoopbackSocket.make()
        var timeout = timeval(tv_sec: Int(receiveTimeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackSocket.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw TestFailure("connect to 127.0.0.1:\(port) failed: \(code)")
        }
    }

    /// Writes all of `data`; throws when the server stops reading.
    public func send(_ data: Data) throws {
        let written = data.withUnsafeBytes { LoopbackSocket.write($0, to: descriptor) }
        guard written == data.count else { throw TestFailure("send failed after \(written) of \(data.count) bytes: \(errno)") }
    }

    /// Writes as much of `data` as the server reads before it answers and closes (a 413 or a 401 may come
    /// before the whole body is read).
    public func sendWhileAccepted(_ data: Data) {
        _ = data.withUnsafeBytes { LoopbackSocket.write($0, to: descriptor) }
    }

    /// Reads until the server closes the connection (or the read times out), `limit` bytes at most.
    public func receiveToEnd(limit: Int = 64 << 20) -> Data {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: chunk[..<count])
        }
        return received
    }

    deinit { close(descriptor) }
}
