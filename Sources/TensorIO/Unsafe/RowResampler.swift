/// One tensor row resized across to a photo's width, one channel: for each photo column, the two tensor
/// values it samples blended by its weight, `a + (b - a) × weight` — the first pass of a one-channel
/// segmentation mask (`ConfidenceField` in TensorIOVision), run for every tensor row the photo's rows
/// sample.
///
/// Unsafe because the loop reads its two values at offsets it was given: with bounds checks on both reads
/// and the write, the loop took about twice as long as the arithmetic (the selfie segmenter's mask on a
/// 517-pixel-wide photo, 256 tensor rows). Its contract is checked in every build, once per call: the
/// offsets, each non-negative (checked when the taps are made), added to `base` stay within `values`, and
/// `line` holds a value per column. Every read and write is then in bounds; debug builds assert each.
package struct RowResampler: Sendable {
    /// Per photo column, the offsets of the two values it blends (from a row's start) and the second's weight.
    private let first: [Int]
    private let second: [Int]
    private let weights: [Float]
    /// One past the largest offset: a row read from `base` needs `base + extent` values.
    private let extent: Int

    /// - Parameters:
    ///   - first: Each column's first offset, at least 0.
    ///   - second: Each column's second offset, at least 0.
    ///   - weights: Each column's weight of the second value.
    package init(first: [Int], second: [Int], weights: [Float]) {
        precondition(first.count == second.count && first.count == weights.count, "\(first.count), \(second.count) and \(weights.count) taps")
        precondition(first.allSatisfy { $0 >= 0 } && second.allSatisfy { $0 >= 0 }, "a negative offset")
        self.first = first
        self.second = second
        self.weights = weights
        extent = max(first.max() ?? -1, second.max() ?? -1) + 1
    }

    /// The photo columns.
    package var count: Int { weights.count }

    /// Writes the row that starts at `base` in `values`, resized, to `line`'s first ``count`` values.
    package func resample(_ values: [Float], from base: Int, into line: inout [Float]) {
        precondition(base >= 0 && base <= values.count - extent, "a row of \(extent) values from \(base) in \(values.count)")
        precondition(line.count >= count, "\(count) columns into a line of \(line.count)")
        let count = count
        values.withUnsafeBufferPointer { source in
            first.withUnsafeBufferPointer { first in
                second.withUnsafeBufferPointer { second in
                    weights.withUnsafeBufferPointer { weights in
                        line.withUnsafeMutableBufferPointer { output in
                            guard let row = source.baseAddress.map({ $0 + base }), let target = output.baseAddress,
                                  let first = first.baseAddress, let second = second.baseAddress, let weights = weights.baseAddress
                            else { return }
                            for column in 0..<count {
                                assert(base + first[column] < source.count && base + second[column] < source.count)
                                let a = row[first[column]], b = row[second[column]]
                                target[column] = a + (b - a) * weights[column]
                            }
                        }
                    }
                }
            }
        }
    }
}
