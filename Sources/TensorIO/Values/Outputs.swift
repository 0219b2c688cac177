/// Everything a run produced: one ``Output`` per output layer, in `model.json` order.
///
/// Ask for an output by name with the throwing subscript: a name the run did not produce is an error
/// naming the outputs there are, never a quiet `nil`.
///
/// ```swift
/// let score = try outputs["output1"].value(as: Float.self)
/// for output in outputs { print(output.name, output.value) }
/// ```
public struct Outputs: Sendable, Hashable, RandomAccessCollection {
    private let outputs: [Output]

    /// Creates outputs (for models of your own types).
    ///
    /// - Parameter outputs: One output per layer, in layer order.
    public init(_ outputs: [Output]) {
        self.outputs = outputs
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { outputs.count }
    public subscript(position: Int) -> Output { outputs[position] }

    /// The output of the layer called `name`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) naming the outputs there are
    ///   when no output has this name.
    public subscript(name: String) -> Output {
        get throws {
            if let output = outputs.first(where: { $0.name == name }) { return output }
            let known = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw TensorIOError(
                .outputMismatch, "no output named \"\(name)\"; the outputs are \(known.isEmpty ? "none" : known)",
                location: "output \"\(name)\""
            )
        }
    }

    /// The output layers' names, in order.
    public var names: [String] { outputs.map(\.name) }
}
