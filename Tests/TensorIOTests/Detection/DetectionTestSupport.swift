@testable import TensorIO
@testable import TensorIOVision

/// Whether two floats agree within `tolerance`; NaN agrees with nothing.
func nearly(_ actual: Float, _ expected: Float, tolerance: Float = 1e-5) -> Bool {
    abs(actual - expected) <= tolerance
}

/// Whether an anchor has this centre and size, within the tolerance.
func anchor(_ anchor: Anchor, is xCenter: Float, _ yCenter: Float, size width: Float, _ height: Float) -> Bool {
    nearly(anchor.xCenter, xCenter) && nearly(anchor.yCenter, yCenter) && nearly(anchor.width, width) && nearly(anchor.height, height)
}

/// Whether a candidate has this box, within the tolerance.
func box(_ candidate: DetectionCandidate, is xMin: Float, _ yMin: Float, _ width: Float, _ height: Float) -> Bool {
    nearly(candidate.xMin, xMin) && nearly(candidate.yMin, yMin) && nearly(candidate.width, width) && nearly(candidate.height, height)
}

/// The thrown error as a TensorIOError, or `nil` when nothing or something else was thrown.
func detectionError(_ body: () throws -> Void) -> TensorIOError? {
    do {
        try body()
        return nil
    } catch {
        return error as? TensorIOError
    }
}
