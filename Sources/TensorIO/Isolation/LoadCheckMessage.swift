/// One line the child writes on its answer channel: a phase it enters, or its answer.
///
/// The child announces each phase before entering it, so that when it dies the caller can say whether
/// the runtime crashed loading or running the model; its last line is the answer.
struct LoadCheckMessage: Codable {
    var phase: LoadProbe.Phase?
    /// Present on the answer: whether the model loaded (and ran).
    var succeeded: Bool?
    var code: String?
    var message: String?
    var location: String?
    var runtimeMessage: String?
    var loadSeconds: Double?
    var runSeconds: Double?
    var peakMemoryBytes: Int?
}

/// What the caller tells the child: the caller's configuration and the child's limits.
struct LoadCheckRequest: Codable {
    var threadCount: Int
    var limits: ModelLimits
    var runsModel: Bool
    var memoryLimit: Int
    /// A CPU-time backstop in seconds, for when the caller is gone and cannot kill the child.
    var cpuSeconds: Int
}

extension Duration {
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
