import Foundation
import Testing

/// If the runtime crashes the process, stderr gets the runtime's last messages (even while `tensorio`
/// had captured them) and TensorIO's line saying what was being loaded, and the process still ends by
/// the signal. `crash-report-probe` crashes for real inside such a section, through the same C handler
/// the library installs.
@Suite("Crash evidence")
struct CrashEvidenceTests {
    @Test("a crash while loading prints the captured runtime messages and what was being loaded, then dies by the signal",
          arguments: [("segv", SIGSEGV, "SIGSEGV"), ("abort", SIGABRT, "SIGABRT"), ("nested", SIGSEGV, "SIGSEGV")])
    func crashReport(_ mode: String, _ signal: Int32, _ name: String) throws {
        // Swift's backtracer (linked into every SwiftPM executable) would run after our handler, slowly.
        let run = try ChildRun(ChildRun.sibling("crash-report-probe"), [mode], environment: ["SWIFT_BACKTRACE": "enable=no"])
        let text = run.standardError
        #expect(run.reason == .uncaughtSignal)
        #expect(run.status == signal)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "ERROR: the kernel's last words before the crash", "\(text)")
        #expect(lines.contains("TensorIO: the runtime crashed (\(name)) while loading probe.tiobundle/model.tflite"), "\(text)")
    }
}
