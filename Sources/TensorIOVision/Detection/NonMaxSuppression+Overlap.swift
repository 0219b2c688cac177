import TensorIO

extension NonMaxSuppression {
    /// A candidate's box by its corners, as MediaPipe's `Rectangle_f` holds it.
    struct OverlapBox: Sendable, Hashable {
        var xMin: Float
        var yMin: Float
        var xMax: Float
        var yMax: Float

        /// A negative width or height; a zero-area box is not empty.
        var isEmpty: Bool { xMin > xMax || yMin > yMax }

        var area: Float { (xMax - xMin) * (yMax - yMin) }

        /// Whether the boxes share a point, edges included (`Rectangle::Intersects`).
        func intersects(_ other: OverlapBox) -> Bool {
            !(isEmpty || other.isEmpty || other.xMax < xMin || xMax < other.xMin || other.yMax < yMin || yMax < other.yMin)
        }
    }

    /// MediaPipe's `OverlapSimilarity(overlap_type, rect1, rect2)`: 0 for boxes that do not intersect or a
    /// normalization that is not positive.
    static func similarity(_ type: OverlapType, _ first: OverlapBox, _ second: OverlapBox) -> Float {
        guard first.intersects(second) else { return 0 }
        let intersection = OverlapBox(
            xMin: max(first.xMin, second.xMin), yMin: max(first.yMin, second.yMin),
            xMax: min(first.xMax, second.xMax), yMax: min(first.yMax, second.yMax)
        ).area
        let normalization: Float
        switch type {
        case .jaccard:
            normalization = OverlapBox(
                xMin: min(first.xMin, second.xMin), yMin: min(first.yMin, second.yMin),
                xMax: max(first.xMax, second.xMax), yMax: max(first.yMax, second.yMax)
            ).area
        case .modifiedJaccard:
            normalization = second.area
        case .intersectionOverUnion:
            normalization = first.area + second.area - intersection
        }
        return normalization > 0 ? intersection / normalization : 0
    }
}

extension NonMaxSuppression.OverlapBox {
    /// A candidate's box.
    init(_ candidate: DetectionCandidate) {
        self.init(xMin: candidate.xMin, yMin: candidate.yMin, xMax: candidate.xMax, yMax: candidate.yMax)
    }
}
