package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process answers the process that started it: one JSON object per line, on the stdout it
/// was started with, moved to a private descriptor; stdout itself then points at stderr, so that what a
/// runtime prints can never be taken for an answer.
package struct AnswerChannel {
    let descriptor: Int32

    /// Moves stdout aside for the answers (the child's side; call it before anything else prints).
    package init() {
        fflush(nil)
        let saved = dup(1)
        descriptor = saved >= 0 ? saved : 1
        if saved >= 0 { dup2(2, 1) }
    }

    /// Writes `message` as one line.
    package func send(_ message: some Encodable) {
        guard var line = try? JSONEncoder().encode(message) else { return }
        line.append(0x0A)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// The messages in what a child wrote on its answer channel, in order (the caller's side); lines that
    /// are not a `Message`, such as one cut short when the child died, are left out.
    package static func messages<Message: Decodable>(_: Message.Type, in output: Data) -> [Message] {
        String(decoding: output, as: UTF8.self).split(separator: "\n")
            .compactMap { try? JSONDecoder().decode(Message.self, from: Data($0.utf8)) }
    }
}
