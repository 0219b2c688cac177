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

    /// The layer with this name, or `nil`.
    public subscript(name: String) -> LayerDescription? { indexByName[name].map { layers[$0] } }

    /// The position of the layer with this name, or `nil`.
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
