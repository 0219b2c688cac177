/// The training features' standardization and the step size that follows from it.
///
/// Each value is standardized, (x − mean) × scale with scale = 1 / its standard deviation (zero for a value
/// that never varies): the head's L2 penalty then weighs every value alike, and the curvature of the loss is
/// bounded by the standardized features' spread, which gives the step size.
struct FeatureStatistics {
    let mean: [Float]
    let scale: [Float]
    /// The standardized training features, row by row.
    private let standardized: [[Double]]

    init(_ rows: [[Float]], featureCount: Int) {
        var sum = [Double](repeating: 0, count: featureCount), squares = sum
        for row in rows {
            for index in 0..<featureCount { sum[index] += Double(row[index]) }
        }
        let count = Double(rows.count)
        let mean = sum.map { $0 / count }
        for row in rows {
            for index in 0..<featureCount {
                let difference = Double(row[index]) - mean[index]
                squares[index] += difference * difference
            }
        }
        let deviation = squares.map { ($0 / count).squareRoot() }
        let scale = zip(deviation, mean).map { deviation, mean in deviation > 1e-6 * max(1, abs(mean)) ? 1 / deviation : 0 }
        self.mean = mean.map(Float.init)
        self.scale = scale.map(Float.init)
        standardized = rows.map { row in (0..<featureCount).map { (Double(row[$0]) - mean[$0]) * scale[$0] } }
    }

    /// 1 / L: L = ½ λ + weight decay bounds the curvature of the mean cross-entropy plus the penalty (the
    /// softmax's Hessian is at most ½ the identity), λ the largest eigenvalue of XᵀX / n over the
    /// standardized features, found by 100 steps of power iteration from a vector of ones (the same every run)
    /// over at most 1,024 rows, evenly spread.
    func learningRate(weightDecay: Double) -> Double {
        guard let width = standardized.first?.count, width > 0 else { return 1 }
        let rows: [[Double]] = Swift.stride(from: 0, to: standardized.count, by: max(1, standardized.count / 1024)).map { standardized[$0] }
        var vector = [Double](repeating: 1 / Double(width).squareRoot(), count: width)
        var eigenvalue = 0.0
        for _ in 0..<100 {
            var next = [Double](repeating: 0, count: width)
            for row in rows {
                var dot = 0.0
                for index in 0..<width { dot += row[index] * vector[index] }
                for index in 0..<width { next[index] += row[index] * dot }
            }
            let norm = next.reduce(0) { $0 + $1 * $1 }.squareRoot() / Double(rows.count)
            guard norm > 1e-12 else { break }
            eigenvalue = norm
            vector = next.map { $0 / (norm * Double(rows.count)) }
        }
        return 1 / (0.5 * eigenvalue + max(weightDecay, 1e-6))
    }
}
