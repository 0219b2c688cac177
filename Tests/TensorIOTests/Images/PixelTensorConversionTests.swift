import Testing
import TensorIOTestSupport
@testable import TensorIO

/// The pass that writes an image into a float tensor: every path gives the portable loop's bits.
@Suite("Images: pixels into a float tensor, the same bits on every path")
struct PixelTensorConversionTests {
    /// What every path must give: the definition, written out in Swift (a fused multiply-add).
    static func expected(_ pixels: [UInt8], offsets: [Int], scales: [Float], biases: [Float]) -> [Float] {
        (0..<pixels.count / 4).flatMap { pixel in
            (0..<3).map { channel in biases[channel].addingProduct(Float(pixels[pixel * 4 + offsets[channel]]), scales[channel]) }
        }
    }

    static func converted(_ pixels: [UInt8], offsets: [Int], scales: [Float], biases: [Float], path: PixelTensorConversion.Path) -> [Float] {
        // One float past the end, which no path may touch.
        var output = [Float](repeating: .nan, count: pixels.count / 4 * 3 + 1)
        output[output.count - 1] = 42
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                PixelTensorConversion.floats(
                    from: source, offsets: (offsets[0], offsets[1], offsets[2]), scales: (scales[0], scales[1], scales[2]),
                    biases: (biases[0], biases[1], biases[2]), into: target, widest: path)
            }
        }
        #expect(output.last == 42, "a path wrote past its pixels")
        return Array(output.dropLast())
    }

    @Test("random pixels, channel orders, scales and biases; every length up to 40 pixels and a large one",
          arguments: [PixelTensorConversion.Path.portable, .avx2])
    func sameBits(_ path: PixelTensorConversion.Path) {
        var random = SeededGenerator(seed: 39)
        let orders = [[2, 1, 0], [0, 1, 2], [1, 2, 3], [3, 3, 0]]
        for count in Array(0...40) + [192 * 192] {
            let pixels = (0..<count * 4).map { _ in UInt8.random(in: 0...255, using: &random) }
            let offsets = orders[count % orders.count]
            // [0,1], [-1,1] and ImageNet-like scales and biases, and values whose product rounds.
            let scales: [Float] = (0..<3).map { _ in [1 / 255, 2 / 255, 1 / 58.395, Float.random(in: -3...3, using: &random)][count % 4] }
            let biases: [Float] = (0..<3).map { _ in [0, -1, -123.675 / 58.395, Float.random(in: -3...3, using: &random)][count % 4] }
            let want = Self.expected(pixels, offsets: offsets, scales: scales, biases: biases)
            let got = Self.converted(pixels, offsets: offsets, scales: scales, biases: biases, path: path)
            #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "\(count) pixels, offsets \(offsets)")
        }
    }
}
