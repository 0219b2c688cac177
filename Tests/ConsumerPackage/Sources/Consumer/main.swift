import Foundation
import TensorIO

// Usage: Consumer BUNDLE — reads and validates the bundle, prints its identifier.
let path = CommandLine.arguments.dropFirst().first ?? "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle"
let bundle = try ModelBundle(at: URL(fileURLWithPath: path))
print(bundle.identifier)
