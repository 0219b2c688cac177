import Foundation
import TensorIO
import TensorIOTestSupport

/// The digits-training example's bundles and data, and helpers shared by the training tests.
enum TrainingFixtures {
    /// `Examples/digits-training`.
    static let digits = Fixtures.examplesDirectory.appendingPathComponent("digits-training")

    /// `Examples/digits-training/data/NAME`.
    static func digitsData(_ name: String) -> URL {
        digits.appendingPathComponent("data").appendingPathComponent(name)
    }

    /// One of the digits-training bundles, by folder name.
    static func digitsBundle(_ name: String) throws -> ModelBundle {
        try ModelBundle(at: digits.appendingPathComponent(name))
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
