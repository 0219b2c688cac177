#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The BSD-socket calls that the loopback helpers (``RawConnection``, ``HostileHTTPServer``) share, and
/// a port where nothing listens.
public enum LoopbackSocket {
    /// A loopback port nothing listens on: bound by the system's choice, then closed again.
    public static func closedPort() throws -> Int {
        let descriptor = try make()
        defer { close(descriptor) }
        return try bindToFreePort(descriptor)
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the system picks, and returns the port.
    static func bindToFreePort(_ descriptor: Int32) throws -> Int {
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("bind to 127.0.0.1 failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A new TCP socket.
    static func make() throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestFailure("socket failed: \(errno)") }
        return descriptor
    }

    /// 127.0.0.1 at `port` (0: any free port, for a listener).
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Writes `bytes` until all are written or a write fails (the peer has gone; no SIGPIPE); returns how
    /// many were written.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let written = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            #else
            let written = Darwin.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, 0)
            #endif
            guard written > 0 else { break }
            offset += written
        }
        return offset
    }
}
