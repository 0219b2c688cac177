import Foundation
import Testing
import TensorIO

/// Paths and helpers shared by the training tests.
enum TrainingFixtures {
    /// The repository root, from this file's path (Tests/TensorIOTests/Training/TrainingFixtures.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Training
        .deletingLastPathComponent()  // TensorIOTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Examples/digits-training`.
    static let digits = repositoryRoot.appendingPathComponent("Examples/digits-training")

    /// `Examples/digits-training/data/NAME`.
    static func digitsData(_ name: String) -> URL {
        digits.appendingPathComponent("data").appendingPathComponent(name)
    }

    /// One of the digits-training bundles, by folder name.
    static func digitsBundle(_ name: String) throws -> ModelBundle {
        try ModelBundle(at: digits.appendingPathComponent(name))
    }

    /// A bundle in `Tests/Fixtures/TensorFlowBundles`.
    static func tensorFlowBundle(_ name: String) throws -> ModelBundle {
        try ModelBundle(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/TensorFlowBundles").appendingPathComponent(name))
    }
}

/// The numbers of a value read for training, or `nil` when it is not plain numbers.
func numbers(of value: InputValue?) -> [Double]? {
    guard case .numbers(let array)? = value else { return nil }
    return array.values(as: Double.self)
}

/// The one-hot vector of `count` elements with 1 at `index`.
func oneHot(_ index: Int, count: Int) -> [Double] {
    (0..<count).map { $0 == index ? 1 : 0 }
}

/// Runs `body` and returns the ``TensorIOError`` it throws, recording an issue when it throws nothing or
/// something else, or when the error's code is not `code`.
@discardableResult
func expectTensorIOError(
    _ code: TensorIOError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> TensorIOError? {
    let error = #expect(throws: TensorIOError.self, sourceLocation: sourceLocation) { try body() }
    if let error {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    }
    return error
}
