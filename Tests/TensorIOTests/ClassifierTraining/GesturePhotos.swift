import Foundation
@testable import TensorIOVision
import TensorIOTestSupport

/// The 28 gesture photos of the test data (4 classes of 7, `task-data/gestures/`), as classes of photos.
enum GesturePhotos {
    static let classes = ["call", "four", "none", "rock"]
    static let names: [String] = classes.flatMap { TestData.names(under: "task-data/gestures/\($0)") }

    /// Every class with its photos, in name order.
    static func labeled() -> [LabeledPhotos] {
        classes.map { label in
            LabeledPhotos(label: label, photos: TestData.names(under: "task-data/gestures/\(label)").sorted().map(TestData.url))
        }
    }
}
