/// The value ranges `model.json` names in a `standard` transform.
public enum StandardRange: String, Sendable, Hashable, CaseIterable {
    /// Floats in [0, 1] stand for bytes 0…255.
    case zeroToOne = "[0,1]"
    /// Floats in [-1, 1] stand for bytes 0…255.
    case minusOneToOne = "[-1,1]"
}
