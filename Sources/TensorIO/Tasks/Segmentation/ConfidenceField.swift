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
        var line = [Float](repeating: 0, count: tensorWidth)
        for row in rows {
            // The row's vertical blend once per tensor column, then each photo pixel blends two of those.
            let top = row.first * tensorWidth * channels, bottom = row.second * tensorWidth * channels
            for x in 0..<tensorWidth {
                let upper = values[top + x * channels + channel], lower = values[bottom + x * channels + channel]
                line[x] = upper + (lower - upper) * row.weight
            }
            for column in columns {
                let left = line[column.first], right = line[column.second]
                result.append(left + (right - left) * column.weight)
            }
        }
        return result
    }

    /// Each photo pixel's most confident channel (NaN never wins; all NaN gives 0), or for one channel
    /// 1 where the confidence is above `threshold` and 0 elsewhere.
    func categories(threshold: Float) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(rows.count * columns.count)
        // The row's vertical blend of every channel once per tensor column (`tensorWidth × channels`).
        var line = [Float](repeating: 0, count: tensorWidth * channels)
        for row in rows {
            let top = row.first * tensorWidth * channels, bottom = row.second * tensorWidth * channels
            for index in 0..<(tensorWidth * channels) {
                let upper = values[top + index], lower = values[bottom + index]
                line[index] = upper + (lower - upper) * row.weight
            }
            for column in columns {
                let left = column.first * channels, right = column.second * channels
                var best = 0
                var bestValue = -Float.infinity
                for channel in 0..<channels {
                    let a = line[left + channel], b = line[right + channel]
                    let sample = a + (b - a) * column.weight
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
