internal import CLoadCheck
import Foundation
internal import TensorIOIsolation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child side of an isolated load check: the whole of `tensorio-load-check`.
///
/// Usage: `tensorio-load-check BUNDLE [--request JSON]`. The child limits itself first (no core dumps,
/// private memory, CPU time; on Linux it dies with its parent), keeps its real stdout for answers and
/// sends everything else written to stdout to stderr, so that what a runtime prints can never be taken
/// for an answer. It writes one JSON line per phase and one answer line, and exits 0 when the model
/// loaded, 1 when it did not, 2 on a usage error.
package enum LoadCheckChild {
    /// Runs the check.
    ///
    /// - Parameter arguments: The command line, program name first.
    /// - Returns: The exit status.
    package static func main(arguments: [String]) -> Int32 {
        var rest = Array(arguments.dropFirst())
        var request = LoadCheckRequest(
            threadCount: 1, limits: ModelLimits(), runsModel: true, memoryLimit: IsolatedLoading().memoryLimit,
            cpuSeconds: 600)
        if let index = rest.firstIndex(of: "--request") {
            guard index + 1 < rest.count,
                  let decoded = try? JSONDecoder().decode(LoadCheckRequest.self, from: Data(rest[index + 1].utf8))
            else { return usage("--request needs the caller's JSON request") }
            request = decoded
            rest.removeSubrange(index...index + 1)
        }
        guard rest.count == 1, !rest[0].hasPrefix("-") else { return usage("give one bundle folder") }

        limitSelf(request)
        let answers = AnswerChannel()
        let bundleURL = URL(fileURLWithPath: rest[0])
        answers.send(LoadCheckMessage(phase: .opening))
        do {
            // A bare model (an inferred bundle) is inferred again, as the parent did.
            let bundle = try ModelBundle.open(bundleURL, limits: request.limits)
            let configuration = ModelConfiguration(threadCount: request.threadCount, limits: request.limits)
            let (load, run) = try LoadProbe.probe(bundle, configuration: configuration, runsModel: request.runsModel) {
                answers.send(LoadCheckMessage(phase: $0))
            }
            answers.send(LoadCheckMessage(
                succeeded: true, loadSeconds: load.inSeconds, runSeconds: run?.inSeconds, peakMemoryBytes: peakMemoryBytes()))
            return 0
        } catch let error as TensorIOError {
            answers.send(LoadCheckMessage(
                succeeded: false, code: error.code.rawValue, message: error.message, location: error.location,
                runtimeMessage: error.runtimeMessage))
            return 1
        } catch {
            answers.send(LoadCheckMessage(succeeded: false, code: TensorIOError.Code.runtimeFailure.rawValue, message: "\(error)"))
            return 1
        }
    }

    private static func usage(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("\(IsolatedLoading.helperName): \(problem)\nusage: \(IsolatedLoading.helperName) BUNDLE [--request JSON]\n".utf8))
        return 2
    }

    private static func limitSelf(_ request: LoadCheckRequest) {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(resourceCore, &none)
        let memory = rlim_t(max(request.memoryLimit, 1 << 20))
        var data = rlimit(rlim_cur: memory, rlim_max: memory)
        setrlimit(resourceData, &data)
        let seconds = rlim_t(max(request.cpuSeconds, 1))
        // SIGXCPU at the soft limit, SIGKILL a second later.
        var cpu = rlimit(rlim_cur: seconds, rlim_max: seconds + 1)
        setrlimit(resourceCPU, &cpu)
        // Should the caller die, the child goes too rather than loading on unattended.
        _ = tio_die_with_parent()
    }

    #if os(Linux)
    private static let resourceCore = __rlimit_resource_t(RLIMIT_CORE.rawValue)
    private static let resourceData = __rlimit_resource_t(RLIMIT_DATA.rawValue)
    private static let resourceCPU = __rlimit_resource_t(RLIMIT_CPU.rawValue)
    #else
    private static let resourceCore = RLIMIT_CORE
    private static let resourceData = RLIMIT_DATA
    private static let resourceCPU = RLIMIT_CPU
    #endif

    private static func peakMemoryBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }
}
