/// Where ``ModelBundle/checkLoading(_:configuration:registry:)`` loads a model: in this process, or in a child
/// process whose crash cannot take the caller down.
///
/// ```swift
/// try bundle.checkLoading(.isolated)                        // a model that came from elsewhere
/// try bundle.checkLoading(.isolated(IsolatedLoading(timeLimit: .seconds(10))))
/// try bundle.checkLoading(.inProcess)                       // a model shipped with the app
/// ```
public struct LoadCheck: Sendable, Hashable {
    enum Mode: Sendable, Hashable {
        case inProcess
        case isolated(IsolatedLoading)
    }

    let mode: Mode

    /// Loads the model in the calling process: the fastest check, for models whose origin is trusted. The
    /// model file is verified first, but a runtime kernel that crashes on what the verifier cannot see
    /// crashes the caller.
    public static let inProcess = LoadCheck(mode: .inProcess)

    /// Loads the model in a child process with the default ``IsolatedLoading`` limits.
    public static let isolated = LoadCheck(mode: .isolated(IsolatedLoading()))

    /// Loads the model in a child process with the given limits.
    ///
    /// - Parameter options: The child's time and memory limits and where its program is.
    /// - Returns: The check.
    public static func isolated(_ options: IsolatedLoading) -> LoadCheck {
        LoadCheck(mode: .isolated(options))
    }

    /// The child process's settings; `nil` for ``inProcess``.
    public var isolation: IsolatedLoading? {
        if case .isolated(let options) = mode { return options }
        return nil
    }
}
