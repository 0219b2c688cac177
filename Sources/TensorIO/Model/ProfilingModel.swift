import Dispatch

/// A model that can say where the time of a run went.
public protocol ProfilingModel: Model {
    /// Runs the model like ``Model/run(_:)-(InputValue)`` and measures its parts.
    ///
    /// - Parameter input: As for ``Model/run(_:)-(InputValue)``.
    /// - Returns: The outputs and the time each part took.
    /// - Throws: As ``Model/run(_:)-(InputValue)`` does.
    func runProfiled(_ input: InputValue) throws -> (outputs: Outputs, profile: RunProfile)
}
