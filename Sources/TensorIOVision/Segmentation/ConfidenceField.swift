import TensorIO

/// A segmentation's confidences at the tensor's resolution (`height × width × channels`, activated) and
/// where each photo pixel samples them: the bilinear taps of every column and row, computed once.
///
/// Photo pixel centres map into the tensor through the image input's fit, with half-pixel centres as
/// OpenCV's `resize` (MediaPipe's confidence masks) does; samples beyond the tensor's edge take the edge.
/// Every sample is blended as OpenCV's bilinear `resize` of a float image blends it: across first, then
/// down. Confidences and one-channel masks resize each tensor row across once (when a photo row first
/// needs it) and blend two of those per photo row, a contiguous loop over the photo's width; the category
/// of a several-channel mask skips the blend wherever the four tensor pixels around a photo pixel agree
/// (`categories(threshold:)`), and blends the rest one pixel at a time with the same arithmetic.
struct ConfidenceField: Sendable {
    let tensorWidth: Int
    let tensorHeight: Int
    let channels: Int
    /// Activated confidences, `[y][x][channel]`.
    let values: [Float]
    let columns: [Tap]
    let rows: [Tap]
    /// The columns' taps as offsets into a tensor row of every channel, for the one-channel resize across
    /// (`resizeAcross`), which reads them unchecked (Unsafe/RowResampler.swift in TensorIO).
    private let acrossOneChannel: RowResampler

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
        acrossOneChannel = RowResampler(
            first: columns.map { $0.first * channels }, second: columns.map { $0.second * channels }, weights: columns.map(\.weight)
        )
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
        var result = [Float](repeating: 0, count: rows.count * columns.count)
        var offset = 0
        forEachRow(channels: channel..<(channel + 1)) { upper, lower, weight in
            var output = result.mutableSpan
            for column in 0..<columns.count {
                let a = upper[column]
                output[offset + column] = weight == 0 ? a : a + (lower[column] - a) * weight
            }
            offset += columns.count
        }
        return result
    }

    /// Each photo pixel's most confident channel (NaN never wins; all NaN gives 0), or for one channel
    /// 1 where the confidence is above `threshold` and 0 elsewhere.
    func categories(threshold: Float) -> [UInt8] {
        guard channels > 1 else { return foreground(threshold: threshold) }
        return mostConfident()
    }

    /// One channel: each photo row blends two resized tensor rows and compares with the threshold, a
    /// contiguous loop that vectorizes.
    private func foreground(threshold: Float) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: rows.count * columns.count)
        var offset = 0
        forEachRow(channels: 0..<1) { upper, lower, weight in
            // Spans: bounds-checked like arrays, without an array's copy-on-write check on every store.
            var output = result.mutableSpan
            for column in 0..<columns.count {
                let a = upper[column], b = lower[column]
                output[offset + column] = a + (b - a) * weight > threshold ? 1 : 0
            }
            offset += columns.count
        }
        return result
    }

    /// Several channels. A photo pixel blends the four tensor pixels around it with weights that sum to 1,
    /// so when one channel leads at all four by more than the blend's rounding can change, it leads the
    /// blend too: such a tensor cell gives its channel to every photo pixel in it without blending 2 ×
    /// `channels` values per pixel. The other pixels — near a boundary between categories, or next to a
    /// NaN — are blended and compared exactly as `resized(channel:)` blends them.
    private func mostConfident() -> [UInt8] {
        let pixelCount = tensorWidth * tensorHeight
        var result = [UInt8](repeating: 0, count: rows.count * columns.count)
        guard 2 * result.count >= pixelCount else {
            // A photo of fewer than half the tensor's pixels: finding every tensor pixel's leader would cost
            // more than blending each photo pixel.
            do {
                var output = result.mutableSpan
                var offset = 0
                for row in rows {
                    for column in columns {
                        output[offset] = blendedLeader(row: row, column: column)
                        offset += 1
                    }
                }
            }
            return result
        }
        // Each tensor pixel's leading channel and its lead over the next (Unsafe/ChannelArgmax.swift).
        let (leader, lead, largest) = ChannelArgmax.find(in: values, channels: channels)
        // A photo that maps pixel for pixel onto the tensor (DeepLab on a photo of its own 257 × 257) blends
        // nothing: each pixel's category is its tensor pixel's leader, by the rules `blendedLeader` keeps (the
        // first of equal channels; NaN never). The cells' pass below would cost a quarter of the mask.
        if Self.isOneToOne(rows, size: tensorHeight), Self.isOneToOne(columns, size: tensorWidth) { return leader }
        // Each blended value is within a few units in the last place of the largest magnitude; a lead of
        // 2^-16 of it is far beyond what the three blends of a sample can move two channels together.
        let margin = largest * 0x1p-16
        // Each tensor cell (its pixel and the next across, down and both, clamped at the edges): the channel
        // every photo pixel in it takes, or −1 when they are blended one by one.
        var decided = [Int16](repeating: -1, count: pixelCount)
        for y in 0..<tensorHeight {
            let below = min(y + 1, tensorHeight - 1)
            for x in 0..<tensorWidth {
                let right = min(x + 1, tensorWidth - 1)
                let a = y * tensorWidth + x, b = y * tensorWidth + right, c = below * tensorWidth + x, d = below * tensorWidth + right
                let channel = leader[a]
                if leader[b] == channel, leader[c] == channel, leader[d] == channel,
                   min(lead[a], lead[b], lead[c], lead[d]) > margin {
                    decided[a] = Int16(channel)
                }
            }
        }
        var output = result.mutableSpan
        var offset = 0
        for row in rows {
            for column in columns {
                let cell = decided[row.first * tensorWidth + column.first]
                output[offset] = cell >= 0 ? UInt8(truncatingIfNeeded: cell) : blendedLeader(row: row, column: column)
                offset += 1
            }
        }
        return result
    }

    /// Whether `taps` sample the tensor pixel for pixel: one tap per tensor position, each its own, unblended.
    static func isOneToOne(_ taps: [Tap], size: Int) -> Bool {
        taps.count == size && taps.indices.allSatisfy { taps[$0].first == $0 && taps[$0].weight == 0 }
    }

    /// The most confident channel at one photo pixel, every channel blended as `resized(channel:)` does:
    /// across first (`column`), then down (`row`).
    func blendedLeader(row: Tap, column: Tap) -> UInt8 {
        let source = values.span
        let top = row.first * tensorWidth * channels, bottom = row.second * tensorWidth * channels
        let left = column.first * channels, right = column.second * channels
        var best = 0
        var bestValue = -Float.infinity
        for channel in 0..<channels {
            func across(_ line: Int) -> Float {
                let a = source[line + left + channel]
                return column.weight == 0 ? a : a + (source[line + right + channel] - a) * column.weight
            }
            let upper = across(top)
            let sample = row.weight == 0 ? upper : upper + (across(bottom) - upper) * row.weight
            if sample > bestValue { (best, bestValue) = (channel, sample) }
        }
        return UInt8(truncatingIfNeeded: best)
    }

    /// Calls `body` for each photo row, top to bottom, with the two tensor rows it blends — each resized
    /// across to the photo's width, `photo width × channels.count` values — and the second's weight.
    /// Photo rows map to tensor rows in order, so two resized rows are kept and each is made once.
    private func forEachRow(
        channels selected: Range<Int>, _ body: (_ upper: Span<Float>, _ lower: Span<Float>, _ weight: Float) -> Void
    ) {
        let count = columns.count * selected.count
        var upper = [Float](repeating: 0, count: count), lower = upper
        var upperRow = -1, lowerRow = -1
        for row in rows {
            if upperRow != row.first {
                if lowerRow == row.first {
                    swap(&upper, &lower)
                    swap(&upperRow, &lowerRow)
                } else {
                    resizeAcross(row: row.first, channels: selected, into: &upper)
                    upperRow = row.first
                }
            }
            if lowerRow != row.second {
                if row.second == upperRow {
                    lower = upper
                } else {
                    resizeAcross(row: row.second, channels: selected, into: &lower)
                }
                lowerRow = row.second
            }
            body(upper.span, lower.span, row.weight)
        }
    }

    /// Tensor row `row`'s `selected` channels resized to the photo's width.
    private func resizeAcross(row: Int, channels selected: Range<Int>, into line: inout [Float]) {
        let base = row * tensorWidth * channels
        if selected.count == 1 {
            // The same blend as below, a value per column: the loop every tensor row of a one-channel mask
            // (the selfie segmenter's) goes through, unchecked, its offsets checked once per row.
            acrossOneChannel.resample(values, from: base + selected.lowerBound, into: &line)
            return
        }
        var output = line.mutableSpan
        let source = values.span
        let count = selected.count
        var index = 0
        for column in columns {
            let left = base + column.first * channels + selected.lowerBound
            let right = base + column.second * channels + selected.lowerBound
            if column.weight == 0 {
                for channel in 0..<count { output[index + channel] = source[left + channel] }
            } else {
                let weight = column.weight
                for channel in 0..<count {
                    let a = source[left + channel]
                    output[index + channel] = a + (source[right + channel] - a) * weight
                }
            }
            index += count
        }
    }
}
