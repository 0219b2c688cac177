/// A model's input or output layers, in `model.json` order, reachable by position and by name.
public struct LayerList: RandomAccessCollection, Sendable, Hashable {
    private let layers: [LayerDescription]
    private let indexByName: [String: Int]

    /// Creates a list; when two layers share a name, the first wins the name.
    public init(_ layers: [LayerDescription]) {
        self.layers = layers
        var indexByName: [String: Int] = [:]
        for (index, layer) in layers.enumerated() where indexByName[layer.name] == nil {
            indexByName[layer.name] = index
        }
        self.indexByName = indexByName
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { layers.count }
    public subscript(position: Int) -> LayerDescription { layers[position] }

    /// The layer with this name, or `nil`.
    public subscript(name: String) -> LayerDescription? { indexByName[name].map { layers[$0] } }

    /// The position of the layer with this name, or `nil`.
    public func index(forName name: String) -> Int? { indexByName[name] }

    /// The layers' names, in order.
    public var names: [String] { layers.map(\.name) }
}
