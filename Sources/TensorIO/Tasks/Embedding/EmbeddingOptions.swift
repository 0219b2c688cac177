/// How an embedding call shapes the vector; left at their defaults, the options keep what the bundle's
/// `embedding` description says.
public struct EmbeddingOptions: Sendable, Hashable {
    /// Whether to divide the vector by its L2 norm; `nil` for the bundle's `normalize`.
    public var normalizes: Bool?
    /// Whether to quantize each value to a byte; `nil` for the bundle's `quantize`.
    public var quantizes: Bool?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - normalizes: Whether to L2-normalize; `nil` for the bundle's choice.
    ///   - quantizes: Whether to quantize; `nil` for the bundle's choice.
    public init(normalizes: Bool? = nil, quantizes: Bool? = nil) {
        self.normalizes = normalizes
        self.quantizes = quantizes
    }
}
