import Foundation
import TensorIO
import TensorIOTestSupport

// `AsyncRunTests` and `CrashEvidenceTests` are being converted in another change and do not import the
// support module yet. The name `Fixtures` and the two members they use are declared here for them: under
// MemberImportVisibility a file sees only members of the modules it imports. These declarations shadow
// the support module's own in this target, and do the same. Remove them with that change.

typealias Fixtures = TensorIOTestSupport.Fixtures

extension Fixtures {
    /// `Tests/Fixtures/Bundles` (``TensorIOTestSupport/Fixtures/bundlesDirectory``).
    static var bundlesDirectory: URL { repositoryURL(bundlesPath) }

    /// Opens a LiteRT fixture bundle and builds its model (``TensorIOTestSupport/Fixtures/model(_:configuration:)``).
    static func model(_ name: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> any Model {
        try bundle(name).makeModel(configuration: configuration)
    }
}
