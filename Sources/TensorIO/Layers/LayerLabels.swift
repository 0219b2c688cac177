/// An output's labels: the file in the bundle's `assets/` folder and the labels it holds, one per element.
public struct LayerLabels: Sendable, Hashable {
    /// The labels file's name inside `assets/` (`labels` in `model.json`).
    public let file: String
    /// The labels, one per element of the layer, in the file's order.
    public let values: [String]

    /// Creates labels.
    ///
    /// - Parameters:
    ///   - file: The file's name inside `assets/`.
    ///   - values: The labels, one per element of the layer.
    public init(file: String, values: [String]) {
        self.file = file
        self.values = values
    }
}
