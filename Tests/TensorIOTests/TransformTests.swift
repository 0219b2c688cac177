import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// Every formula of the original's quantization and pixel normalization, with this version's rounding to
/// nearest and clamping to 0…255 where the original truncated with a C `(uint8_t)` cast.
@Suite("Transforms")
struct TransformTests {
    // MARK: - Quantizer

    @Test("quantize [0,1]: v × 255, rounded and clamped", arguments: [
        (0, 0), (1, 255), (0.5, 128), (0.2, 51), (0.999, 255), (0.001, 0), (0.003, 1),
        (1.5, 255), (-0.5, 0), (100, 255),
    ] as [(Float, UInt8)])
    func quantizeZeroToOne(_ value: Float, _ expected: UInt8) {
        #expect(Quantizer(standard: .zeroToOne)(value) == expected)
    }

    @Test("quantize [-1,1]: (v + 1) × 127.5, rounded and clamped", arguments: [
        (-1, 0), (0, 128), (1, 255), (0.5, 191), (-0.5, 64), (0.99, 254), (2, 255), (-2, 0),
    ] as [(Float, UInt8)])
    func quantizeMinusOneToOne(_ value: Float, _ expected: UInt8) {
        #expect(Quantizer(standard: .minusOneToOne)(value) == expected)
    }

    @Test("quantize {scale, bias}: (v + bias) × scale, the bias added before scaling")
    func quantizeScaleAndBias() {
        let quantizer = Quantizer(scale: 100, bias: 0.5)
        #expect(quantizer.unrounded(1) == 150)
        #expect(quantizer(1) == 150)
        #expect(quantizer(-0.5) == 0)
        #expect(quantizer(0.004) == 50)  // 50.4 → 50
        #expect(quantizer(0.006) == 51)  // 50.6 → 51: truncation would give 50
        #expect(quantizer(2.1) == 255)   // 260 → clamped
        #expect(quantizer(-1) == 0)      // -50 → clamped
        #expect(Quantizer(scale: 2, bias: -10)(20) == 20)
    }

    @Test("quantizer standard parameters")
    func quantizerParameters() {
        #expect(Quantizer(standard: .zeroToOne) == Quantizer(scale: 255, bias: 0))
        #expect(Quantizer(standard: .minusOneToOne) == Quantizer(scale: 127.5, bias: 1))
    }

    @Test("rounding, not truncation: the values the original's cast got wrong")
    func roundingNotTruncation() {
        // 0.9999 × 255 = 254.97: the original's (uint8_t) cast gave 254.
        #expect(Quantizer(standard: .zeroToOne)(0.9999) == 255)
        // (0.99 + 1) × 127.5 = 253.7 → 254 (the cast gave 253).
        #expect(Quantizer(standard: .minusOneToOne)(0.99) == 254)
        // 0.999 × 255 = 254.7 → 255 (the cast gave 254).
        #expect(PixelDenormalizer(scale: 255)(0.999, channel: .red) == 255)
    }

    // MARK: - Dequantizer

    @Test("dequantize [0,1]: q / 255", arguments: [(0, 0), (255, 1), (127, 127.0 / 255), (51, 0.2)] as [(Float, Float)])
    func dequantizeZeroToOne(_ value: Float, _ expected: Float) {
        #expect(abs(Dequantizer(standard: .zeroToOne)(value) - expected) < 1e-6)
    }

    @Test("dequantize [-1,1]: q × 2/255 − 1", arguments: [(0, -1), (255, 1), (127.5, 0), (51, -0.6)] as [(Float, Float)])
    func dequantizeMinusOneToOne(_ value: Float, _ expected: Float) {
        #expect(abs(Dequantizer(standard: .minusOneToOne)(value) - expected) < 1e-6)
    }

    @Test("dequantize {scale, bias}: q × scale + bias")
    func dequantizeScaleAndBias() {
        let dequantizer = Dequantizer(scale: 0.5, bias: -3)
        #expect(dequantizer(0) == -3)
        #expect(dequantizer(10) == 2)
        #expect(dequantizer(255) == 124.5)
        #expect(Dequantizer(standard: .zeroToOne) == Dequantizer(scale: 1 / 255, bias: 0))
        #expect(Dequantizer(standard: .minusOneToOne) == Dequantizer(scale: 2 / 255, bias: -1))
    }

    @Test("standard quantize and dequantize undo each other for every byte", arguments: StandardRange.allCases)
    func standardRoundTrip(_ range: StandardRange) {
        let quantizer = Quantizer(standard: range)
        let dequantizer = Dequantizer(standard: range)
        for byte in 0...255 {
            #expect(quantizer(dequantizer(Float(byte))) == UInt8(byte), "\(byte)")
        }
    }

    // MARK: - A tensor's own parameters

    @Test("Quantizer(tensorScale:zeroPoint:) computes v / scale + zeroPoint")
    func tensorQuantizer() {
        let quantizer = Quantizer(tensorScale: 0.5, zeroPoint: 10)
        #expect(quantizer(3) == 16)
        #expect(quantizer(0) == 10)
        #expect(quantizer(-5) == 0)
        #expect(quantizer(-6) == 0)      // -2 → clamped
        #expect(quantizer(122.5) == 255)
        #expect(quantizer(200) == 255)   // clamped
        #expect(quantizer(3.2) == 16)    // 16.4 → 16
        #expect(quantizer(3.3) == 17)    // 16.6 → 17
    }

    @Test("Dequantizer(tensorScale:zeroPoint:) computes (q − zeroPoint) × scale")
    func tensorDequantizer() {
        let dequantizer = Dequantizer(tensorScale: 0.5, zeroPoint: 10)
        #expect(dequantizer(16) == 3)
        #expect(dequantizer(10) == 0)
        #expect(dequantizer(0) == -5)
        #expect(dequantizer(255) == 122.5)
    }

    @Test("a tensor's quantizer and dequantizer round-trip every byte", arguments: [
        (1 / 255, 0), (0.75 / 255, 0), (0.5, 10), (0.1, 128), (2, 255), (0.0039215689, 0),
    ] as [(Float, Int64)])
    func tensorRoundTrip(_ scale: Float, _ zeroPoint: Int64) {
        let quantizer = Quantizer(tensorScale: scale, zeroPoint: zeroPoint)
        let dequantizer = Dequantizer(tensorScale: scale, zeroPoint: zeroPoint)
        for byte in 0...255 {
            #expect(quantizer(dequantizer(Float(byte))) == UInt8(byte), "byte \(byte)")
        }
    }

    @Test("the quantized fixture's input scale 1/255: [0, 0.25, 0.5, 1] → [0, 64, 127 or 128, 255]")
    func fixtureInputQuantization() {
        let quantizer = Quantizer(tensorScale: 0.003921568859368563, zeroPoint: 0)
        #expect(quantizer(0) == 0)
        #expect(quantizer(0.25) == 64)
        #expect([127, 128].contains(quantizer(0.5)))
        #expect(quantizer(1) == 255)
        let dequantizer = Dequantizer(tensorScale: 0.0029411765281111, zeroPoint: 0)
        #expect(abs(dequantizer(85) - 0.25) < 1e-6)
        #expect(abs(dequantizer(255) - 0.75) < 1e-6)
    }

    // MARK: - Pixel normalizer

    @Test("normalize [0,1]: p / 255", arguments: ColorChannel.allCases)
    func normalizeZeroToOne(_ channel: ColorChannel) {
        let normalizer = PixelNormalizer(.standard(.zeroToOne))
        #expect(normalizer(0, channel: channel) == 0)
        #expect(abs(normalizer(255, channel: channel) - 1) < 1e-6)
        #expect(abs(normalizer(51, channel: channel) - 0.2) < 1e-6)
    }

    @Test("normalize [-1,1]: p × 2/255 − 1", arguments: ColorChannel.allCases)
    func normalizeMinusOneToOne(_ channel: ColorChannel) {
        let normalizer = PixelNormalizer(.standard(.minusOneToOne))
        #expect(normalizer(0, channel: channel) == -1)
        #expect(abs(normalizer(255, channel: channel) - 1) < 1e-6)
        #expect(abs(normalizer(51, channel: channel) + 0.6) < 1e-6)
    }

    @Test("normalize {scale, bias}: p × scale + bias[colour]")
    func normalizeScaleAndBias() {
        let normalizer = PixelNormalizer(.scaleAndBias(scale: 2, bias: ChannelValues(red: 1, green: 2, blue: 3)))
        #expect(normalizer(10, channel: .red) == 21)
        #expect(normalizer(10, channel: .green) == 22)
        #expect(normalizer(10, channel: .blue) == 23)
        // Defaults: scale 1, biases 0.
        #expect(PixelNormalizer()(200, channel: .green) == 200)
        #expect(PixelNormalizer(scale: 0.5)(200, channel: .blue) == 100)
    }

    @Test("a BGR layer's blue channel gets the blue bias (the original gave it red's)")
    func bgrBiasByColour() {
        let normalizer = PixelNormalizer(scale: 1, bias: ChannelValues(red: 0.1, green: 0.2, blue: 0.3))
        let pixel: [ColorChannel: UInt8] = [.red: 10, .green: 20, .blue: 30]
        // Tensor channel 0 of a BGR layer is blue.
        let bgr = ImageTensorFormat.bgr.channels.map { Double(normalizer(pixel[$0]!, channel: $0)) }
        #expect(isClose(bgr, [30.3, 20.2, 10.1]))
        let rgb = ImageTensorFormat.rgb.channels.map { Double(normalizer(pixel[$0]!, channel: $0)) }
        #expect(isClose(rgb, [10.1, 20.2, 30.3]))

        let denormalizer = PixelDenormalizer(scale: 100, bias: ChannelValues(red: 0.1, green: 0.2, blue: 0.3))
        let values: [ColorChannel: Float] = [.red: 1, .green: 1, .blue: 1]
        #expect(ImageTensorFormat.bgr.channels.map { denormalizer(values[$0]!, channel: $0) } == [130, 120, 110])
    }

    // MARK: - Pixel denormalizer

    @Test("denormalize [0,1]: v × 255, rounded and clamped", arguments: [
        (0, 0), (1, 255), (0.5, 128), (0.2, 51), (0.999, 255), (1.2, 255), (-0.1, 0),
    ] as [(Float, UInt8)])
    func denormalizeZeroToOne(_ value: Float, _ expected: UInt8) {
        for channel in ColorChannel.allCases {
            #expect(PixelDenormalizer(.standard(.zeroToOne))(value, channel: channel) == expected)
        }
    }

    @Test("denormalize [-1,1]: (v + 1) × 127.5, rounded and clamped", arguments: [
        (-1, 0), (0, 128), (1, 255), (0.5, 191), (-0.5, 64), (3, 255), (-3, 0),
    ] as [(Float, UInt8)])
    func denormalizeMinusOneToOne(_ value: Float, _ expected: UInt8) {
        for channel in ColorChannel.allCases {
            #expect(PixelDenormalizer(.standard(.minusOneToOne))(value, channel: channel) == expected)
        }
    }

    @Test("denormalize {scale, bias}: (v + bias[colour]) × scale")
    func denormalizeScaleAndBias() {
        let denormalizer = PixelDenormalizer(.scaleAndBias(scale: 10, bias: ChannelValues(red: 1, green: 2, blue: 3)))
        #expect(denormalizer(5, channel: .red) == 60)
        #expect(denormalizer(5, channel: .green) == 70)
        #expect(denormalizer(5, channel: .blue) == 80)
        #expect(denormalizer(30, channel: .blue) == 255)   // 330 → clamped
        #expect(denormalizer(-5, channel: .red) == 0)      // -40 → clamped
        #expect(PixelDenormalizer()(254.6, channel: .red) == 255)
    }

    @Test("normalize then denormalize returns every pixel value", arguments: [
        NormalizationSpec.standard(.zeroToOne), .standard(.minusOneToOne),
    ])
    func pixelRoundTrip(_ spec: NormalizationSpec) {
        let normalizer = PixelNormalizer(spec)
        let denormalizer = PixelDenormalizer(spec)
        for byte in 0...255 {
            for channel in ColorChannel.allCases {
                #expect(denormalizer(normalizer(UInt8(byte), channel: channel), channel: channel) == UInt8(byte))
            }
        }
    }

    // MARK: - NaN and overflow

    @Test("NaN becomes 0; infinities and huge values clamp", arguments: [
        (.nan, 0), (-.nan, 0), (.infinity, 255), (-.infinity, 0), (.greatestFiniteMagnitude, 255),
        (-.greatestFiniteMagnitude, 0), (1e30, 255), (-1e30, 0), (254.5, 255), (0.49, 0), (-0.0, 0),
    ] as [(Float, UInt8)])
    func nanAndOverflow(_ value: Float, _ expected: UInt8) {
        // Scale 1 and bias 0, so the value reaches the rounding unchanged.
        #expect(Quantizer(scale: 1, bias: 0)(value) == expected)
        #expect(PixelDenormalizer(scale: 1)(value, channel: .green) == expected)
    }

    @Test("NaN and infinity through the standard transforms do not trap")
    func nanThroughStandardTransforms() {
        #expect(Quantizer(standard: .zeroToOne)(.nan) == 0)
        #expect(Quantizer(standard: .minusOneToOne)(.infinity) == 255)
        #expect(PixelDenormalizer(.standard(.minusOneToOne))(-.infinity, channel: .red) == 0)
        #expect(Dequantizer(standard: .zeroToOne)(.nan).isNaN)
        #expect(PixelNormalizer(.standard(.zeroToOne))(255, channel: .red).isFinite)
    }
}
