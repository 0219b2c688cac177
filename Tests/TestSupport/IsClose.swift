/// Whether two lists of numbers are equal within `tolerance` (`false` when `actual` is nil or of another
/// length).
public func isClose(_ actual: [Double]?, _ expected: [Double], tolerance: Double = 1e-5) -> Bool {
    guard let actual, actual.count == expected.count else { return false }
    return zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
}
