/// The argmax over channels of a segmenter's output, the first pass of a mask with several categories
/// (``ConfidenceField``): for each pixel, the channel with the largest score and its lead over the next,
/// and the largest magnitude of all the scores.
///
/// Unsafe because it is the one loop over every value of the output — 21 × 66,049 for DeepLab v3 — where a
/// bounds check per element cost as much as the work (about 1.6 ns a value against 0.3). Its contract is
/// checked once, in every build: the values are `pixels × channels` floats; every read is then within them.
package enum ChannelArgmax {
    /// Each pixel's leading channel, its lead, and the largest magnitude.
    ///
    /// NaN never leads nor follows, and is not a magnitude; a tie leaves a lead of 0 (which of the equal
    /// channels is named then does not matter to the caller); an infinite score makes the largest magnitude
    /// infinite.
    ///
    /// - Parameters:
    ///   - values: The scores, `[pixel][channel]`.
    ///   - channels: The channels per pixel, 1 to 256.
    /// - Returns: `leader` and `lead` per pixel, and `largest`.
    package static func find(in values: [Float], channels: Int) -> (leader: [UInt8], lead: [Float], largest: Float) {
        precondition((1...256).contains(channels) && values.count % channels == 0, "\(values.count) scores in pixels of \(channels)")
        let pixels = values.count / channels
        var leader = [UInt8](repeating: 0, count: pixels)
        var lead = [Float](repeating: 0, count: pixels)
        var largest = SIMD8<Float>(repeating: 0)
        var largestOfRest: Float = 0
        values.withUnsafeBufferPointer { source in
            leader.withUnsafeMutableBufferPointer { leaders in
                lead.withUnsafeMutableBufferPointer { leads in
                    guard let base = source.baseAddress else { return }
                    // Eight pixels at a time, one per SIMD lane: the compare-and-select chain of each channel
                    // step then serves four pixels. Selects, not branches: which channel leads is unpredictable.
                    var pixel = 0
                    while pixel + 8 <= pixels {
                        let p0 = base + pixel * channels, p1 = p0 + channels, p2 = p1 + channels, p3 = p2 + channels
                        let p4 = p3 + channels, p5 = p4 + channels, p6 = p5 + channels, p7 = p6 + channels
                        var first = SIMD8<Float>(repeating: -.infinity), second = first
                        var best = SIMD8<Int32>(repeating: 0)
                        for channel in 0..<channels {
                            let value = SIMD8<Float>(
                                p0[channel], p1[channel], p2[channel], p3[channel], p4[channel], p5[channel], p6[channel], p7[channel]
                            )
                            let magnitude = value.replacing(with: -value, where: value .< 0)
                            largest.replace(with: magnitude, where: magnitude .> largest)
                            let leads = value .> first
                            second.replace(with: value, where: value .> second)
                            second.replace(with: first, where: leads)
                            best.replace(with: Int32(channel), where: leads)
                            first.replace(with: value, where: leads)
                        }
                        for lane in 0..<8 {
                            leaders[pixel + lane] = UInt8(truncatingIfNeeded: best[lane])
                            leads[pixel + lane] = first[lane] - second[lane]
                        }
                        pixel += 8
                    }
                    while pixel < pixels {
                        let scores = base + pixel * channels
                        var best = 0, first = -Float.infinity, second = -Float.infinity
                        for channel in 0..<channels {
                            let value = scores[channel]
                            largestOfRest = max(largestOfRest, abs(value))
                            if value > first {
                                (second, first, best) = (first, value, channel)
                            } else if value > second {
                                second = value
                            }
                        }
                        leaders[pixel] = UInt8(truncatingIfNeeded: best)
                        leads[pixel] = first - second
                        pixel += 1
                    }
                }
            }
        }
        return (leader, lead, max(largest.max(), largestOfRest))
    }
}
