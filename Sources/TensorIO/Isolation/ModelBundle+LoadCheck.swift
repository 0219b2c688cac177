import Foundation
internal import TensorIOIsolation
internal import TensorIOSupport

extension ModelBundle {
    /// Loads the bundle's model — and runs it once on zeros when its inputs allow — to prove that it
    /// works, before the bundle is trusted.
    ///
    /// A schema-valid bundle can still disagree with its model (a layer that is not the tensor, a
    /// quantized layer on a float model), and a model file that passes the verifier can still crash a
    /// runtime kernel. With ``LoadCheck/isolated`` the load happens in a child process
    /// (`tensorio-load-check`) with a time and a memory limit, so a crash or a hang there becomes a
    /// ``TensorIOError`` instead of the caller's end. An isolated check costs a process start and a
    /// runtime library load on top of the model's own load (see `docs/security.md` for figures).
    ///
    /// - Parameters:
    ///   - check: Where to load: ``LoadCheck/isolated`` (the default) or ``LoadCheck/inProcess``.
    ///   - configuration: The settings the model will run with (threads, ``ModelLimits``, the logger).
    ///   - registry: The backends and model types to build the model from, for ``LoadCheck/inProcess``; an
    ///     isolated check builds it in another process, from the built-in backends.
    /// - Returns: What loading took.
    /// - Throws: ``TensorIOError``: what loading threw (``TensorIOError/Code/layerMismatch``,
    ///   ``TensorIOError/Code/invalidModelFile``, ``TensorIOError/Code/runtimeFailure``…);
    ///   ``TensorIOError/Code/runtimeCrashed`` when the child crashed or passed a limit, naming the signal;
    ///   ``TensorIOError/Code/runtimeUnavailable`` when `tensorio-load-check` cannot be found;
    ///   ``TensorIOError/Code/unsupported`` for an isolated check on a platform other than Linux (iOS,
    ///   tvOS, watchOS and visionOS do not let an app start a process; macOS is planned).
    @discardableResult
    public func checkLoading(
        _ check: LoadCheck = .isolated, configuration: ModelConfiguration = ModelConfiguration(),
        registry: ModelRegistry = .builtIn
    ) throws -> LoadReport {
        switch check.mode {
        case .inProcess:
            let (load, run) = try LoadProbe.probe(self, configuration: configuration, registry: registry, runsModel: true)
            return LoadReport(isIsolated: false, loadDuration: load, runDuration: run)
        #if os(Linux)
        case .isolated(let options):
            return try IsolatedLoadCheck(bundle: self, configuration: configuration, options: options).run()
        #else
        case .isolated:
            throw TensorIOError(ChildProcess.unsupportedPlatform)
        #endif
        }
    }
}

/// The caller's side of an isolated load check: starts `tensorio-load-check`, and turns how it ended
/// into a report or an error.
struct IsolatedLoadCheck {
    let bundle: ModelBundle
    let configuration: ModelConfiguration
    let options: IsolatedLoading

    /// Environment variables the child keeps: where the runtimes are, where the user's files are. Nothing
    /// else of the caller's environment (tokens, proxies) reaches a process loading untrusted input.
    static let keptVariables: Set<String> = [
        "PATH", "HOME", "TMPDIR", "XDG_DATA_HOME", "LD_LIBRARY_PATH", "TF_CPP_MIN_LOG_LEVEL",
        RuntimeLibrary.liteRT.environmentVariable, RuntimeLibrary.tensorFlow.environmentVariable,
    ]

    func run() throws -> LoadReport {
        let helper = try options.helperURL()
        let seconds = max(1, Int(options.timeLimit.inSeconds.rounded(.up)))
        let request = LoadCheckRequest(
            threadCount: configuration.threadCount, limits: configuration.limits, runsModel: options.runsModel,
            memoryLimit: options.memoryLimit,
            // Wall time is the caller's limit; CPU time only stops a child whose caller is gone. Threads
            // make CPU time run faster than the clock, hence the margin.
            cpuSeconds: seconds * max(2, configuration.threadCount + 1) + 5)
        let child = ChildProcess(
            executable: helper,
            arguments: [(bundle.isInferred ? bundle.modelFileURL ?? bundle.url : bundle.url).standardizedFileURL.path, "--request", String(decoding: try JSONEncoder().encode(request), as: UTF8.self)],
            environment: Self.environment(), timeLimit: options.timeLimit)
        let outcome = try TensorIOError.reporting { try child.run() }
        return try interpret(outcome)
    }

    static func environment(
        _ parent: [String: String] = ProcessInfo.processInfo.environment,
        libraries: [RuntimeLibrary: URL] = RuntimeLibraryState.shared.withLock { $0.configured }
    ) -> [String: String] {
        var environment = parent.filter { keptVariables.contains($0.key) }
        // The runtime files given in code reach the child as the variables it reads, which they override.
        for (library, url) in libraries {
            environment[library.environmentVariable] = url.path
        }
        // A crash in the child must end quickly: Swift's backtracer would otherwise symbolicate for seconds
        // and can take gigabytes doing so.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    func interpret(_ outcome: ChildProcess.Outcome) throws -> LoadReport {
        let messages = AnswerChannel.messages(LoadCheckMessage.self, in: outcome.standardOutput)
        let phase = messages.last { $0.phase != nil }?.phase ?? .opening
        let fileName = bundle.modelFile.path.isEmpty ? bundle.url.lastPathComponent : bundle.modelFile.path
        let doing = "\(phase.rawValue) \(fileName)"
        let runtimeWords = Self.lastWords(outcome.standardErrorTail)

        if outcome.termination != .timedOut, outcome.termination != .stopped, let answer = messages.last(where: { $0.succeeded != nil }) {
            if answer.succeeded == true {
                return LoadReport(
                    isIsolated: true, loadDuration: .seconds(answer.loadSeconds ?? 0),
                    runDuration: answer.runSeconds.map { .seconds($0) }, processDuration: outcome.duration,
                    peakMemoryBytes: answer.peakMemoryBytes)
            }
            throw TensorIOError(
                TensorIOError.Code(answer.code ?? TensorIOError.Code.runtimeFailure.rawValue),
                answer.message ?? "the model did not load", location: answer.location,
                runtimeMessage: answer.runtimeMessage)
        }
        switch outcome.termination {
        case .stopped:
            throw TensorIOError(
                .runtimeUnavailable,
                "the load check of \(fileName) was stopped before it finished: this process is shutting down")
        case .timedOut:
            throw TensorIOError(
                .runtimeCrashed,
                "the runtime did not finish \(doing) within \(Self.describe(options.timeLimit)) (the load check was stopped)",
                runtimeMessage: runtimeWords)
        case .signaled(let signal):
            let outOfMemory = runtimeWords.map(Self.mentionsMemory) ?? false
            let message = outOfMemory
                ? "the runtime ran out of memory \(doing) (limit \(options.memoryLimit >> 20) MiB; \(SignalName.of(signal)))"
                : "the runtime crashed \(doing) (\(SignalName.of(signal)))"
            throw TensorIOError(.runtimeCrashed, message, runtimeMessage: runtimeWords)
        case .exited(let status):
            throw TensorIOError(
                .runtimeCrashed,
                "the load check (\(options.helper?.lastPathComponent ?? IsolatedLoading.helperName)) ended with status \(status) without an answer while \(doing)",
                runtimeMessage: runtimeWords)
        }
    }

    /// The last line the child wrote on stderr that says something: the runtime's last words, or Swift's
    /// fatal error message. TensorIO's own crash line is left out (the error says the same).
    static func lastWords(_ tail: Data) -> String? {
        let lines = String(decoding: tail, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("TensorIO: the runtime crashed") && !$0.hasPrefix("💣") }
        guard let last = lines.last else { return nil }
        return last.count > 300 ? String(last.prefix(300)) + "…" : last
    }

    static func mentionsMemory(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("bad_alloc") || lowered.contains("out of memory")
            || lowered.contains("cannot allocate memory") || lowered.contains("failed to allocate")
            || lowered.contains("allocation failed")
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
