import Foundation
import TensorIO

/// One object a detector found on a photo: where it is, what it is, and how sure the model is.
///
/// Coordinates are in pixels of the photo *as displayed* — after its EXIF orientation — with the origin at
/// the top-left corner, whatever the resize mode the model's input was fitted with; boxes and keypoints
/// are clipped to the photo. `normalizedBox` and `normalizedKeypoints` give the same places as
/// fractions of the displayed width and height.
///
/// ```swift
/// for detection in try model.detect(photo) {
///     print(detection.label ?? "#\(detection.classIndex)", detection.score, detection.box)
/// }
/// ```
public struct Detection: Sendable, Hashable {
    /// A rectangle: its top-left corner and its size.
    public struct Box: Sendable, Hashable, CustomStringConvertible {
        /// The left edge.
        public var x: Double
        /// The top edge.
        public var y: Double
        /// The width (never negative).
        public var width: Double
        /// The height (never negative).
        public var height: Double

        /// Creates a rectangle.
        ///
        /// - Parameters:
        ///   - x: The left edge.
        ///   - y: The top edge.
        ///   - width: The width.
        ///   - height: The height.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// `(x, y) width×height`, one decimal.
        public var description: String {
            func text(_ value: Double) -> String { String(format: "%.1f", value) }
            return "(\(text(x)), \(text(y))) \(text(width))×\(text(height))"
        }
    }

    /// A point, such as an eye or a wrist.
    public struct Point: Sendable, Hashable {
        /// The horizontal position.
        public var x: Double
        /// The vertical position.
        public var y: Double

        /// Creates a point.
        ///
        /// - Parameters:
        ///   - x: The horizontal position.
        ///   - y: The vertical position.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// How sure the model is, usually 0…1 (after score calibration when the model has it).
    public var score: Float
    /// The class's index in the model's labels (for single-class detectors such as face detectors, 0).
    public var classIndex: Int
    /// The class's label, when the model has labels.
    public var label: String?
    /// Where the object is, in pixels of the photo as displayed.
    public var box: Box
    /// Landmarks the model places (eyes, nose, wrist…), in pixels of the photo as displayed, in the
    /// model's order; empty for models without them.
    public var keypoints: [Point]
    /// `box` as fractions (0…1) of the displayed photo's width and height.
    public var normalizedBox: Box
    /// `keypoints` as fractions (0…1) of the displayed photo's width and height.
    public var normalizedKeypoints: [Point]

    /// Creates a detection.
    ///
    /// - Parameters:
    ///   - score: How sure the model is.
    ///   - classIndex: The class's index.
    ///   - label: The class's label, if any.
    ///   - box: The box in photo pixels.
    ///   - keypoints: The keypoints in photo pixels.
    ///   - normalizedBox: The box as fractions of the photo's size.
    ///   - normalizedKeypoints: The keypoints as fractions of the photo's size.
    public init(
        score: Float, classIndex: Int, label: String?, box: Box, keypoints: [Point] = [], normalizedBox: Box,
        normalizedKeypoints: [Point] = []
    ) {
        self.score = score
        self.classIndex = classIndex
        self.label = label
        self.box = box
        self.keypoints = keypoints
        self.normalizedBox = normalizedBox
        self.normalizedKeypoints = normalizedKeypoints
    }
}
