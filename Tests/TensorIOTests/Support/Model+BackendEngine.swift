@testable import TensorIO

extension Model {
    /// The backend that runs a model of the built-in runtimes (`nil` for custom model types).
    var backendEngine: (any BackendEngine)? { (self as? any CoreBackedModel)?.engine }
}
