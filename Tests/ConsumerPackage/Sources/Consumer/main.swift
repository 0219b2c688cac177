import Foundation
import TensorIO

// Usage: Consumer BUNDLE — reads and validates the bundle, prints its identifier.
//        Consumer --readme — runs the README's inference example (ReadmeExamples.swift, written by
//        scripts/consumer-check.sh from README.md).
if CommandLine.arguments.dropFirst().first == "--readme" {
    try readmeExample1()
} else {
    let path = CommandLine.arguments.dropFirst().first ?? "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle"
    let bundle = try ModelBundle(at: URL(fileURLWithPath: path))
    print(bundle.identifier)
}
