public import Foundation
public import TensorIO
public import Testing

extension Fixtures {
    /// A backend a bundle can name, and where its copy of a fixture is: `Tests/Fixtures/Bundles` and
    /// `Tests/Fixtures/TensorFlowBundles` hold the same graphs under the same names, the TensorFlow ones
    /// prefixed `tf_` (`1_in_1_out_number_test.tiobundle`, `tf_1_in_1_out_number_test.tiobundle`). Tests
    /// that must hold on both take it as their argument.
    public enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case liteRT = "tflite"
        case tensorFlow = "tensorflow"

        /// The folder of this backend's copy of the fixture `name` (its LiteRT name).
        public func url(_ name: String) -> URL {
            switch self {
            case .liteRT: Fixtures.url(name)
            case .tensorFlow: Fixtures.tensorFlowURL("tf_" + name)
            }
        }

        /// This backend's copy of the fixture `name`, relative to the repository root.
        public func path(_ name: String) -> String {
            switch self {
            case .liteRT: Fixtures.path(name)
            case .tensorFlow: Fixtures.tensorFlowPath("tf_" + name)
            }
        }

        /// Opens this backend's copy of the fixture `name` and builds its model (not loaded yet).
        public func model(_ name: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> any Model {
            try ModelBundle(at: url(name)).makeModel(configuration: configuration)
        }

        public var testDescription: String { rawValue }
    }
}
