/// A model's input or output layers, in `model.json` order, reachable by position and by name.
public struct LayerList: RandomAccessCollection, Sendable, Hashable {
    private let layers: [LayerDescription]
    private let indexByName: [String: Int]
    /// The layers' names, in order.
    public let names: [String]

    /// Creates a list; when two layers share a name, the first wins the name.
    public init(_ layers: [LayerDescription]) {
        self.layers = layers
        var indexByName: [String: Int] = [:]
        for (index, layer) in layers.enumerated() where indexByName[layer.name] == nil {
            indexByName[layer.name] = index
        }
        self.indexByName = indexByName
        names = layers.map(\.name)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { layers.count }
    public subscript(position: Int) -> LayerDescription { layers[position] }

    /// The layer called `name`. Like ``Outputs``' subscript by name, a name the list does not have is an
    /// error naming the layers there are, never a quiet `nil`; ask ``index(forName:)`` to test for one.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) naming the layers there are when
    ///   no layer has this name.
    public subscript(name: String) -> LayerDescription {
        get throws {
            if let index = indexByName[name] { return layers[index] }
            let known = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw TensorIOError(
                .layerMismatch, "no layer named \"\(name)\"; the layers are \(known.isEmpty ? "none" : known)",
                location: "layer \"\(name)\""
            )
        }
    }

    /// The position of the layer called `name`, or `nil` when there is none: the lookup that tests for
    /// a name (``Outputs`` has the same, ``Outputs/index(forName:)``).
    public func index(forName name: String) -> Int? { indexByName[name] }

    /// Whether no two layers share a name.
    var hasDistinctNames: Bool { indexByName.count == layers.count }

    /// ``index(forName:)`` without hashing for a few layers: a run looks up each of its inputs' names,
    /// and comparing a handful of short strings is cheaper than hashing one.
    func position(ofName name: String) -> Int? {
        guard names.count <= 8 else { return indexByName[name] }
        for index in names.indices where names[index] == name { return index }
        return nil
    }
}
