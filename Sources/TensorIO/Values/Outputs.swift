/// Everything a run produced, keyed by output layer name, in `model.json` order.
public struct Outputs: Sendable, Hashable, RandomAccessCollection {
    /// One output layer's name and value.
    public struct Element: Sendable, Hashable {
        public var name: String
        public var value: Output
    }

    private let elements: [Element]

    /// Creates outputs from name-value pairs in layer order.
    public init(_ pairs: [(name: String, value: Output)]) {
        self.elements = pairs.map { Element(name: $0.name, value: $0.value) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }
    public subscript(position: Int) -> Element { elements[position] }

    /// The output of the layer called `name`, or `nil`.
    public subscript(name: String) -> Output? {
        elements.first { $0.name == name }?.value
    }

    /// The output layers' names, in order.
    public var names: [String] { elements.map(\.name) }
}
