/// A segmentation's confidences at the tensor's resolution (`height × width × channels`, activated) and
/// where each photo pixel samples them: the bilinear taps of every column and row, computed once.
///
/// Photo pixel centres map into the tensor through the image input's fit, with half-pixel centres as
/// OpenCV's `resize` (MediaPipe's confidence masks) does; samples beyond the tensor's edge take the edge.
struct ConfidenceField: Sendable {
    let tensorWidth: Int
    let tensorHeight: Int
    let channels: Int
    /// Activated confidences, `[y][x][channel]`.
    let values: [Float]
    let columns: [Tap]
    let rows: [Tap]

    /// The two tensor positions a photo column (or row) samples and the weight of the second.
    struct Tap: Sendable {
        var first: Int
        var second: Int
        var weight: Float
    }

    init(tensorWidth: Int, tensorHeight: Int, channels: Int, values: [Float], fit: ImageFit, photo: ImageSize) {
        self.tensorWidth = tensorWidth
        self.tensorHeight = tensorHeight
        self.channels = channels
        self.values = values
        columns = Self.taps(count: photo.width, origin: fit.x, extent: fit.width, size: tensorWidth)
        rows = Self.taps(count: photo.height, origin: fit.y, extent: fit.height, size: tensorHeight)
    }

    static func taps(count: Int, origin: Double, extent: Double, size: Int) -> [Tap] {
        let scale = Double(size) / max(extent, .leastNormalMagnitude)
        return (0..<max(0, count)).map { pixel in
            let position = min(max((Double(pixel) + 0.5 - origin) * scale - 0.5, 0), Double(size - 1))
            let first = Int(position.rounded(.down))
            return Tap(first: first, second: min(first + 1, size - 1), weight: Float(position - Double(first)))
        }
    }

    /// One channel resized onto the photo, row by row.
    func resized(channel: Int) -> [Float] {
        var result: [Float] = []
        result.reserveCapacity(rows.count * columns.count)
        for row in rows {
            let top = row.first * tensorWidth, bottom = row.second * tensorWidth
            for column in columns {
                let a = values[(top + column.first) * channels + channel], b = values[(top + column.second) * channels + channel]
                let c = values[(bottom + column.first) * channels + channel], d = values[(bottom + column.second) * channels + channel]
                let upper = a + (b - a) * column.weight, lower = c + (d - c) * column.weight
                result.append(upper + (lower - upper) * row.weight)
            }
        }
        return result
    }

    /// Each photo pixel's most confident channel (NaN never wins; all NaN gives 0), or for one channel
    /// 1 where the confidence is above `threshold` and 0 elsewhere.
    func categories(threshold: Float) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(rows.count * columns.count)
        for row in rows {
            let top = row.first * tensorWidth, bottom = row.second * tensorWidth
            for column in columns {
                let a = (top + column.first) * channels, b = (top + column.second) * channels
                let c = (bottom + column.first) * channels, d = (bottom + column.second) * channels
                var best = 0
                var bestValue = -Float.infinity
                for channel in 0..<channels {
                    let upper = values[a + channel] + (values[b + channel] - values[a + channel]) * column.weight
                    let lower = values[c + channel] + (values[d + channel] - values[c + channel]) * column.weight
                    let sample = upper + (lower - upper) * row.weight
                    if sample > bestValue { (best, bestValue) = (channel, sample) }
                }
                if channels == 1 {
                    result.append(bestValue > threshold ? 1 : 0)
                } else {
                    result.append(UInt8(best))
                }
            }
        }
        return result
    }
}
