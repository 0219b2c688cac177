#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `tensorio serve` running as a child process, for the end-to-end delivery tests.
final class ServeProcess {
    let process: Process
    let url: URL
    let stdoutURL: URL
    let stderrURL: URL

    private init(process: Process, url: URL, stdoutURL: URL, stderrURL: URL) {
        self.process = process
        self.url = url
        self.stdoutURL = stdoutURL
        self.stderrURL = stderrURL
    }

    /// Starts `tensorio serve --root ROOT --port 0 ARGS…` and waits for its "listening on" line.
    static func start(
        root: URL, arguments: [String] = [], logs: URL, environment: [String: String] = [:]
    ) async throws -> ServeProcess {
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let stamp = UUID().uuidString
        let stdoutURL = logs.appendingPathComponent("serve-\(stamp).out")
        let stderrURL = logs.appendingPathComponent("serve-\(stamp).err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        process.executableURL = try CLI.executableURL()
        process.arguments = ["serve", "--root", root.path, "--port", "0"] + arguments
        process.currentDirectoryURL = CLI.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
               let url = URL(string: String(line.dropFirst("listening on ".count))) {
                return ServeProcess(process: process, url: url, stdoutURL: stdoutURL, stderrURL: stderrURL)
            }
            guard process.isRunning else { break }
            // A blocking pause, not Task.sleep: while synchronous suites (training) hold every thread of
            // the cooperative pool, a sleeping task would wake long after the deadline and see a server
            // that started long ago as one that never did.
            usleep(50_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        Self.waitForExit(process)
        let errors = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        throw CLI.ExecutableNotFound(searched: ["tensorio serve did not start: \(errors)"])
    }

    /// What the server printed on stderr so far.
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the process to end: 30 s at most, then SIGKILL (a server that
    /// ignores the signal fails its test on its status rather than hanging the suite).
    func stop(_ signal: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        Self.waitForExit(process, within: .seconds(30))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Self.waitForExit(process)
        }
    }

    /// Waits for `process` to end, blocking (not on the cooperative pool's terms, as elsewhere in these
    /// helpers), and kills it when `limit` passes. Never `waitUntilExit()`, which on Linux spins its run
    /// loop without end if the termination is never observed.
    static func waitForExit(_ process: Process, within limit: Duration = .seconds(10)) {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let last = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < last { usleep(10_000) }
    }
}

/// A raw TCP connection to 127.0.0.1, to send half a request and leave it hanging.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw CLI.ExecutableNotFound(searched: ["socket failed"]) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw CLI.ExecutableNotFound(searched: ["connect failed: \(errno)"])
        }
    }

    /// Writes all of `data`.
    func send(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let written = Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
                guard written > 0 else { throw CLI.ExecutableNotFound(searched: ["send failed: \(errno)"]) }
                offset += written
            }
        }
    }

    deinit { close(descriptor) }
}
