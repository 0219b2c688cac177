import Foundation
import Testing

/// If the runtime crashes the process, stderr gets the runtime's last messages (even while `tensorio`
/// had captured them) and TensorIO's line saying what was being loaded, and the process still ends by
/// the signal. `crash-report-probe` crashes for real inside such a section, through the same C handler
/// the library installs.
@Suite("Crash evidence")
struct CrashEvidenceTests {
    static func probeURL() throws -> URL {
        let folder = try #require(Bundle.main.executableURL?.deletingLastPathComponent())
        return folder.appendingPathComponent("crash-report-probe")
    }

    @Test("a crash while loading prints the captured runtime messages and what was being loaded, then dies by the signal",
          arguments: [("segv", SIGSEGV, "SIGSEGV"), ("abort", SIGABRT, "SIGABRT"), ("nested", SIGSEGV, "SIGSEGV")])
    func crashReport(_ mode: String, _ signal: Int32, _ name: String) throws {
        let process = Process()
        process.executableURL = try Self.probeURL()
        process.arguments = [mode]
        // Swift's backtracer (linked into every SwiftPM executable) would run after our handler, slowly.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "ERROR: the kernel's last words before the crash", "\(text)")
        #expect(lines.contains("TensorIO: the runtime crashed (\(name)) while loading probe.tiobundle/model.tflite"), "\(text)")
    }
}
