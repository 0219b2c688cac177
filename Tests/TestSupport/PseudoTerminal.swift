#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// A pseudo-terminal for a child's stderr, so that the tool behaves as on a terminal (progress bars),
/// with everything it writes there collected.
public final class PseudoTerminal: @unchecked Sendable {
    /// The terminal end the child gets.
    public let terminal: FileHandle
    private let controller: Int32
    private let lock = NSLock()
    private var collected = Data()  // guarded by `lock`
    private let drained = DispatchSemaphore(value: 0)

    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Linux's TIOCSPTLCK and TIOCGPTN (posix_openpt, unlockpt and ptsname are not in Swift's Glibc module).
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    public init() throws {
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        guard controller >= 0, ioctl(controller, Self.unlockRequest, &unlock) == 0,
              ioctl(controller, Self.numberRequest, &number) == 0 else {
            throw Unavailable(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        let descriptor = open(name, O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { throw Unavailable(description: "cannot open \(name)") }
        terminal = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // Read on a thread of its own, whatever the cooperative pool is doing: a terminal holds only a few
        // kilobytes before the writer blocks.
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }  // EIO once every terminal end is closed
                lock.withLock { collected.append(contentsOf: buffer[0..<count]) }
            }
            drained.signal()
        }
        thread.start()
    }

    /// Closes this process's copy of the terminal end (the child keeps its own), so the reader ends
    /// when the child does.
    public func releaseTerminal() { try? terminal.close() }

    /// What was written on the terminal, once the child has ended (10 s at most for the last bytes).
    public func output() -> String {
        _ = drained.wait(timeout: .now() + 10)
        return lock.withLock { String(decoding: collected, as: UTF8.self) }
    }

    deinit { close(controller) }
}
