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
    /// One or two outputs (most models have no more) are held inline: a run's result then needs no
    /// array of its own, an allocation and a free on every run of a model that runs in a microsecond.
    private let storage: InlineValues<Output>

    /// Creates outputs (for models of your own types).
    ///
    /// - Parameter outputs: One output per layer, in layer order.
    public init(_ outputs: [Output]) {
        storage = InlineValues(outputs)
    }

    /// A single model output.
    init(_ output: Output) {
        storage = .one(output)
    }

    /// Two outputs, in layer order.
    init(_ first: Output, _ second: Output) {
        storage = .two(first, second)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> Output { storage[position] }

    /// The output of the layer called `name`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/outputMismatch``) naming the outputs there are
    ///   when no output has this name.
    public subscript(name: String) -> Output {
        get throws {
            if let output = first(where: { $0.name == name }) { return output }
            let known = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw TensorIOError(
                .outputMismatch, "no output named \"\(name)\"; the outputs are \(known.isEmpty ? "none" : known)",
                location: "output \"\(name)\""
            )
        }
    }

    /// The position of the output called `name`, or `nil` when there is none: the lookup that tests for
    /// a name (``LayerList`` has the same, ``LayerList/index(forName:)``).
    public func index(forName name: String) -> Int? { names.firstIndex(of: name) }

    /// The output layers' names, in order.
    public var names: [String] { map(\.name) }
}
