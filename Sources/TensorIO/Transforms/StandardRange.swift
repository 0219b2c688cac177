/// The value ranges `model.json` names in a `standard` transform.
public enum StandardRange: String, Sendable, Hashable, CaseIterable {
    /// Floats in [0, 1] stand for bytes 0…255.
    case zeroToOne = "[0,1]"
    /// Floats in [-1, 1] stand for bytes 0…255.
    case minusOneToOne = "[-1,1]"

    /// The float byte 0 stands for.
    var lowerBound: Float {
        switch self {
        case .zeroToOne: 0
        case .minusOneToOne: -1
        }
    }

    /// The range's width: byte 255 stands for `lowerBound + width`.
    var width: Float {
        switch self {
        case .zeroToOne: 1
        case .minusOneToOne: 2
        }
    }
}
