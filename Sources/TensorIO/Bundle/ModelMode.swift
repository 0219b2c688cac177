/// Something a model can do.
public enum ModelMode: String, Sendable, Hashable, CaseIterable {
    case predict
    case train
    case eval
}
