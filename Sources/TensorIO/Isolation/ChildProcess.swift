internal import CLoadCheck
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program in a child process with a deadline, keeping a bounded part of what it prints.
///
/// Foundation's `Process` can neither bound what it collects nor guarantee the child is gone when the
/// call returns. Here the child is started with `posix_spawn` (stdin from `/dev/null`, signal
/// dispositions and mask reset, only the given environment), both pipes are drained with `poll` until
/// the deadline, the child is killed with `SIGKILL` if it is still running then, and it is always reaped
/// before returning: no zombie, no orphan, no blocked pipe.
struct ChildProcess {
    /// How the child ended.
    enum Termination: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (not ours).
        case signaled(Int32)
        /// It was still running at the deadline and was killed.
        case timedOut
        /// ``stopAll()`` killed it.
        case stopped
    }

    /// The children running now, so that a process shutting down can stop them (``stopAll()``), and
    /// those it stopped. A pid is removed before its child is reaped, so it is never one reused.
    private static let live = LockedValue<(running: Set<pid_t>, stopped: Set<pid_t>, refusing: Bool)>(([], [], false))

    /// Kills every child started by ``run()`` that is still running, with its process group; each of
    /// those calls returns ``Termination/stopped``. With `refusingNew`, later calls return
    /// ``Termination/stopped`` without starting anything (for a process shutting down).
    static func stopAll(refusingNew: Bool = false) {
        live.withLock { state in
            if refusingNew { state.refusing = true }
            for pid in state.running {
                kill(-pid, SIGKILL)
                state.stopped.insert(pid)
            }
        }
    }

    /// What a finished child left behind.
    struct Outcome {
        var termination: Termination
        /// The first ``maximumStandardOutputBytes`` bytes of its stdout.
        var standardOutput: Data
        /// The last ``standardErrorTailBytes`` bytes of its stderr.
        var standardErrorTail: Data
        /// How long it ran.
        var duration: Duration
    }

    /// The executable.
    var executable: URL
    /// Arguments after the program name.
    var arguments: [String]
    /// The child's whole environment.
    var environment: [String: String]
    /// How long the child may run.
    var timeLimit: Duration
    /// How much stdout is kept; the rest is read and dropped so the child never blocks on a full pipe.
    var maximumStandardOutputBytes = 64 << 10
    /// How much of the end of stderr is kept.
    var standardErrorTailBytes = 8 << 10

    /// Starts the child and waits until it ends or the deadline passes.
    ///
    /// - Returns: How it ended and what it printed.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``) when the child cannot be started.
    func run() throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: timeLimit)

        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard tio_pipe_cloexec(&outputPipe) == 0 else { throw Self.failure("cannot create a pipe") }
        guard tio_pipe_cloexec(&errorPipe) == 0 else {
            close(outputPipe[0]); close(outputPipe[1])
            throw Self.failure("cannot create a pipe")
        }
        if Self.live.withLock({ $0.refusing }) {
            return Outcome(termination: .stopped, standardOutput: Data(), standardErrorTail: Data(), duration: .zero)
        }
        let pid: pid_t
        do {
            defer { close(outputPipe[1]); close(errorPipe[1]) }
            pid = try spawn(standardOutput: outputPipe[1], standardError: errorPipe[1])
            // A stop that came between the spawn and now must still reach this child.
            let stoppedMeanwhile = Self.live.withLock { state in
                state.running.insert(pid)
                if state.refusing { state.stopped.insert(pid) }
                return state.refusing
            }
            if stoppedMeanwhile { kill(-pid, SIGKILL) }
        } catch {
            close(outputPipe[0]); close(errorPipe[0])
            throw error
        }

        var output = Data()
        var errorTail = Data()
        var open = [outputPipe[0], errorPipe[0]]
        defer { for descriptor in open { close(descriptor) } }
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        // Drain both pipes until the child closes them (normally by ending) or the deadline passes.
        while !open.isEmpty {
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { timedOut = true; break }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(remaining))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in descriptors where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == outputPipe[0] {
                    let room = maximumStandardOutputBytes - output.count
                    if room > 0 { output.append(contentsOf: buffer[0..<min(room, count)]) }
                } else {
                    errorTail.append(contentsOf: buffer[0..<count])
                    if errorTail.count > standardErrorTailBytes {
                        errorTail.removeFirst(errorTail.count - standardErrorTailBytes)
                    }
                }
            }
        }
        // The pipes are closed (or the deadline passed): wait for the exit, still within the deadline. A
        // child that closed its pipes and kept running is killed like one that kept printing. The child is
        // only reaped after its process group is killed: until then the group's id cannot be reused, and
        // anything the child left running dies with it.
        while !timedOut {
            let ended = tio_child_has_ended(pid)
            if ended < 0 {
                if errno == EINTR { continue }
                break  // ECHILD: someone else reaped it; what it printed decides.
            }
            if ended == 1 { break }
            if clock.now >= deadline { timedOut = true; break }
            usleep(2_000)
        }
        kill(-pid, SIGKILL)
        let stopped = Self.live.withLock { state in
            state.running.remove(pid)
            return state.stopped.remove(pid) != nil
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let termination: Termination
        if stopped {
            termination = .stopped
        } else if timedOut {
            termination = .timedOut
        } else if Self.exitedNormally(status) {
            termination = .exited(Self.exitStatus(status))
        } else {
            termination = .signaled(Self.terminatingSignal(status))
        }
        return Outcome(
            termination: termination, standardOutput: output, standardErrorTail: errorTail,
            duration: start.duration(to: clock.now))
    }

    private func spawn(standardOutput: Int32, standardError: Int32) throws -> pid_t {
        #if !os(Linux)
        throw Self.unsupportedPlatform
        #else
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        _ = tio_spawn_actions_closefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A server may ignore SIGPIPE or block signals; the child starts with defaults, so that a crash is
        // a crash and SIGKILL/SIGTERM work as expected.
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // Its own process group, so that whatever it starts is killed with it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        // "Text file busy": a process forked elsewhere in the app at the moment the helper was written
        // still holds it open for writing until that process execs. Transient: a few short waits.
        var retries = 0
        while result == ETXTBSY, retries < 20 {
            retries += 1
            usleep(10_000)
            result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        }
        guard result == 0 else {
            throw TensorIOError(.io, "cannot start \(executable.path): \(SystemErrorText.reason(errno: result))")
        }
        return pid
        #endif
    }

    #if !os(Linux)
    /// Why no child starts here: iOS, tvOS, watchOS and visionOS do not let an app start a process; macOS
    /// does, but `spawn` is written for glibc's spawn types and is neither built nor tested there yet.
    static var unsupportedPlatform: TensorIOError {
        #if os(macOS)
        let reason = "which TensorIO does on Linux only so far (macOS is planned)"
        #else
        let reason = "which this platform does not let an app do"
        #endif
        return TensorIOError(
            .unsupported, "an isolated load check starts a child process, \(reason): check with LoadCheck.inProcess")
    }
    #endif

    private static func failure(_ message: String) -> TensorIOError {
        TensorIOError(.io, "\(message): \(SystemErrorText.reason(errno: errno))")
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(0, total))
    }

    // The wait-status macros are not imported into Swift.
    private static func exitedNormally(_ status: Int32) -> Bool { status & 0x7f == 0 }
    private static func exitStatus(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
    private static func terminatingSignal(_ status: Int32) -> Int32 { status & 0x7f }
}
