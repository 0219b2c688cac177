import CCrashReport
import Foundation
import Testing

/// If the runtime crashes the process, stderr gets the runtime's last messages (even while `tensorio`
/// had captured them) and TensorIO's line saying what was being loaded, and the process still ends by
/// the signal. Each case crashes for real, in an exit test's process of its own, inside such a section,
/// through the same C handler the library installs.
@Suite("Crash evidence")
struct CrashEvidenceTests {
    @Test("a crash while loading prints the captured runtime messages and what was being loaded, then dies by the signal",
          arguments: [("segv", SIGSEGV, "SIGSEGV"), ("abort", SIGABRT, "SIGABRT"), ("nested", SIGSEGV, "SIGSEGV")])
    func crashReport(_ mode: String, _ signal: Int32, _ name: String) async throws {
        // The exit condition checks that the process ended by this signal (not by an exit status). Swift
        // Testing runs the child with Swift's backtracer off (SWIFT_BACKTRACE=enable=no), which would
        // otherwise run after our handler, slowly.
        let result = await #expect(processExitsWith: .signal(signal), observing: [\.standardErrorContent]) { [mode] in
            CrashEvidenceTests.crashInsideCapturedSection(mode)
        }
        let text = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "ERROR: the kernel's last words before the crash", "\(text)")
        #expect(lines.contains("TensorIO: the runtime crashed (\(name)) while loading probe.tiobundle/model.tflite"), "\(text)")
    }

    /// Does what a crashing runtime call does inside TensorIO — stderr captured to an unlinked file as
    /// `tensorio` does, an activity set — then crashes for real: "segv" writes to an unmapped address,
    /// "abort" calls abort(), as an uncaught C++ exception does; "nested" captures again inside the first
    /// capture, as the library does inside `tensorio`'s, then writes to an unmapped address. Runs in the
    /// exit test's child, so it never returns; a set-up failure exits with status 2, which fails the test.
    static func crashInsideCapturedSection(_ mode: String) -> Never {
        tio_crash_report_install()
        let capture = unlinkedFile()
        let saved = dup(STDERR_FILENO)
        fflush(nil)
        dup2(capture, STDERR_FILENO)
        tio_crash_report_set_captured_stderr(capture, saved)
        if mode == "nested" {
            let inner = unlinkedFile()
            let outer = dup(STDERR_FILENO)
            fflush(nil)
            dup2(inner, STDERR_FILENO)
            if tio_crash_report_push_captured_stderr(inner, outer) != 0 { exit(2) }
        }
        // Straight to fd 2, as a runtime's C++ logging writes.
        let message = "ERROR: the kernel's last words before the crash\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        // The handler keeps the pointer until the crash: a copy that is never freed (the process dies).
        _ = tio_crash_report_set_activity(strdup("loading probe.tiobundle/model.tflite"))
        if mode == "abort" { abort() }
        // A real fault, not raise(SIGSEGV): the handler must let the faulting access run again and die.
        let nowhere = UnsafeMutablePointer<Int32>(bitPattern: 8)!
        nowhere.pointee = 1
        exit(2)
    }

    /// A file in the temporary folder, open for reading and writing and already unlinked, as the tool's
    /// capture is; exits with status 2 when it cannot be made.
    private static func unlinkedFile() -> Int32 {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("crash-evidence-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { exit(2) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}
