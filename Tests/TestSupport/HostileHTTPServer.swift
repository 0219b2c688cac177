#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// A server on 127.0.0.1 that answers every connection with a scripted, hostile answer: endless bodies,
/// bodies trickled a byte at a time, huge error messages. It serves until stopped, on a thread of its own.
public final class HostileHTTPServer: @unchecked Sendable {
    /// What the server sends after reading the request's headers.
    public enum Behaviour: Sendable {
        /// `200` with a JSON body that never ends (no Content-Length), until the client hangs up.
        case endlessBody
        /// `200`, then one byte of body every `interval`, forever.
        case trickle(interval: Duration)
        /// `422` whose JSON error message is `count` bytes long.
        case hugeErrorMessage(count: Int)
        /// Files by request path (`/good.bin`): each answered as its ``FileAnswer`` says, any other path `404`.
        case files([String: FileAnswer])
    }

    /// How ``Behaviour/files(_:)`` answers one path.
    public enum FileAnswer: Sendable {
        /// `200` with these bytes and their length.
        case ok(Data)
        /// `200` claiming the bytes' length, then half of them, then the connection closes.
        case truncated(Data)
        /// `404`.
        case notFound
    }

    public let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private let stopped = NSLock()
    private var isStopped = false

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let listener = try LoopbackSocket.make()
        self.listener = listener
        do {
            port = try LoopbackSocket.bindToFreePort(listener)
            guard listen(listener, 16) == 0 else { throw TestFailure("cannot listen: \(errno)") }
        } catch {
            close(listener)
            throw error
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public func stop() {
        stopped.withLock { isStopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var running: Bool { stopped.withLock { !isStopped } }

    private func acceptLoop() {
        while running {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let behaviour = self.behaviour
            Thread { [self] in
                serve(connection, behaviour)
                close(connection)
            }.start()
        }
    }

    private func serve(_ connection: Int32, _ behaviour: Behaviour) {
        // Read until the end of the headers (uploads' bodies are read and dropped as they come).
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var seen = Data()
        while !seen.contains(Data("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            seen.append(contentsOf: buffer[0..<count])
            if seen.count > 1 << 20 { break }
        }
        switch behaviour {
        case .endlessBody:
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[") else { return }
            // 64 KiB a millisecond at most (~64 MB/s, faster than most networks): unpaced, loopback outruns
            // URLSession's delegate queue, which buffers without bound (swift-corelibs-foundation), and the
            // test measures that instead of the client's limit (docs/security.md).
            let chunk = String(repeating: "0,", count: 32_768)
            while running, send(connection, chunk) { usleep(1_000) }
        case .trickle(let interval):
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n") else { return }
            while running, send(connection, " ") {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
            }
        case .hugeErrorMessage(let count):
            let body = "{\"error\":{\"code\":\"layer-mismatch\",\"message\":\"" + String(repeating: "x", count: count) + "\\nsecond line\"}}"
            _ = send(connection, "HTTP/1.1 422 Unprocessable Content\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            // Drain what the client still sends (an upload's body), so that it reads the answer.
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
        case .files(let files):
            // "GET /path HTTP/1.1": the path is the request line's second word.
            let requestLine = String(decoding: seen.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
            let words = requestLine.split(separator: " ")
            let path = words.count >= 2 ? String(words[1]) : ""
            switch files[path] ?? .notFound {
            case .ok(let body):
                _ = send(connection, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body)
            case .truncated(let body):
                _ = send(connection, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n", body.prefix(body.count / 2))
            case .notFound:
                _ = send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found")
            }
        }
    }

    private func send(_ connection: Int32, _ head: String, _ body: Data) -> Bool {
        send(connection, head) && body.withUnsafeBytes { LoopbackSocket.write($0, to: connection) } == body.count
    }

    private func send(_ connection: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { LoopbackSocket.write($0, to: connection) } == bytes.count
    }
}
