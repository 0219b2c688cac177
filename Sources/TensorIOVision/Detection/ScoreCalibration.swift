import Foundation
import TensorIO

/// Per-class sigmoid score calibration, as TFLite Model Metadata describes it (`ScoreCalibrationOptions`
/// in tflite-support's `metadata_schema.fbs`) and tflite-support's task library applies it
/// (`tensorflow_lite_support/cc/task/vision/utils/score_calibration.cc`):
///
///     calibrated(x) = scale / (1 + exp(−(slope × g(x) + offset)))
///
/// where `g` is the `Transformation`. A class without parameters, and a score below its `minScore`,
/// get the default score. The arithmetic follows the C++ (single precision, logarithms and exponentials
/// in double) so results agree to the bit.
///
/// tflite-support looks the parameters up by label name; here they are looked up by class index, line
/// `i` of the file for class `i`, which differs only when two labels share a name (tflite-support then
/// uses the last such line for both).
struct ScoreCalibration: Sendable, Hashable {
    /// The transform applied to a score before the sigmoid (`ScoreTransformationType`).
    enum Transformation: Sendable, Hashable {
        /// `g(x) = x` (`IDENTITY`, the schema's default).
        case identity
        /// `g(x) = log(x)` (`LOG`).
        case log
        /// `g(x) = log(x) − log(1 − x)` (`INVERSE_LOGISTIC`).
        case inverseLogistic
    }

    /// One class's parameters: one line `scale,slope,offset[,min_score]` of the calibration file.
    struct Sigmoid: Sendable, Hashable {
        var scale: Float
        var slope: Float
        var offset: Float
        /// Scores below this get the default score; `nil` when the line has three values.
        var minScore: Float?

        init(scale: Float, slope: Float, offset: Float, minScore: Float? = nil) {
            self.scale = scale
            self.slope = slope
            self.offset = offset
            self.minScore = minScore
        }
    }

    var transformation: Transformation
    /// The score of a class without parameters or under its minimum (the schema's default 0).
    var defaultScore: Float
    /// One entry per class; `nil` for a class whose line is empty.
    var sigmoids: [Sigmoid?]

    init(sigmoids: [Sigmoid?], transformation: Transformation = .identity, defaultScore: Float = 0) {
        self.sigmoids = sigmoids
        self.transformation = transformation
        self.defaultScore = defaultScore
    }

    /// The calibrated score of `score` for a class; the default score for a class index without
    /// parameters, including one outside the file (where tflite-support would read past its label map).
    /// A NaN score stays NaN, as in tflite-support.
    func calibrated(_ score: Float, classIndex: Int) -> Float {
        guard sigmoids.indices.contains(classIndex), let sigmoid = sigmoids[classIndex] else { return defaultScore }
        if let minScore = sigmoid.minScore, score < minScore { return defaultScore }
        let shifted = transformed(score) * sigmoid.slope + sigmoid.offset
        // The two forms keep exp from overflowing, as tflite-support computes them.
        if shifted >= 0 {
            return Float(Double(sigmoid.scale) / (1 + exp(Double(-shifted))))
        }
        let exponential = Float(exp(Double(shifted)))
        return Float(Double(sigmoid.scale * exponential) / (1 + Double(exponential)))
    }

    /// The smallest value whose logarithm is taken as is; below it, `clampedLog(_:)` continues the
    /// curve smoothly instead of diving to −∞ (tflite-support's `kLogScoreMinimum`).
    static let logScoreMinimum: Float = 1e-16

    private func transformed(_ score: Float) -> Float {
        switch transformation {
        case .identity: score
        case .log: Self.clampedLog(score)
        case .inverseLogistic: Self.clampedLog(score) - Self.clampedLog(Float(1 - Double(score)))
        }
    }

    /// `log(x)` from `logScoreMinimum` up; below, `2 log(t) − log(2t − x)`, which is continuous with
    /// a continuous slope there and keeps the order of tiny and negative scores.
    static func clampedLog(_ x: Float) -> Float {
        let threshold = Double(logScoreMinimum)
        if x < logScoreMinimum {
            return Float(2 * Foundation.log(threshold) - Foundation.log(2 * threshold - Double(x)))
        }
        return Float(Foundation.log(Double(x)))
    }
}
