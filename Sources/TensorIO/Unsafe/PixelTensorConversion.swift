internal import CPixelTensor

/// Four-byte pixels into a float tensor of three normalized channels, through `CPixelTensor` (AVX2 and FMA
/// where the processor has them): the pass every float image model's input takes, once per run.
///
/// The contract: the C function reads four bytes a pixel and writes three floats a pixel, through raw
/// pointers; the buffers' sizes and the channel offsets are checked here in every build (once a call), so a
/// caller only keeps the buffers alive for the call, which the `UnsafeBufferPointer` arguments already do.
enum PixelTensorConversion {
    /// The conversion's paths, for the tests that check they agree.
    enum Path: Int32 {
        case portable = 0
        case avx2 = 1
    }

    /// Writes `output[3 i + c] = biases.c + Float(pixels[4 i + offsets.c]) × scales.c`, rounded once (a fused
    /// multiply-add, ``PixelNormalizer``'s arithmetic), for every pixel.
    ///
    /// - Parameters:
    ///   - pixels: Four bytes a pixel; its count decides how many pixels.
    ///   - offsets: The byte of a pixel each channel takes, each from 0 to 3.
    ///   - scales: Each channel's scale.
    ///   - biases: Each channel's bias.
    ///   - output: Three floats a pixel.
    ///   - widest: The widest path allowed (where the processor has it).
    static func floats(
        from pixels: UnsafeBufferPointer<UInt8>, offsets: (Int, Int, Int), scales: (Float, Float, Float),
        biases: (Float, Float, Float), into output: UnsafeMutableBufferPointer<Float>, widest: Path = .avx2
    ) {
        let count = pixels.count / 4
        // The C function reads 4 × count bytes and writes 3 × count floats: checked in every build, once a call.
        precondition(output.count >= count * 3, "\(count) pixels into \(output.count) floats")
        precondition([offsets.0, offsets.1, offsets.2].allSatisfy { (0...3).contains($0) }, "a channel offset past a pixel")
        guard count > 0, let source = pixels.baseAddress, let target = output.baseAddress else { return }
        let channelOffsets = [Int32(offsets.0), Int32(offsets.1), Int32(offsets.2)]
        let channelScales = [scales.0, scales.1, scales.2], channelBiases = [biases.0, biases.1, biases.2]
        tio_pixels_to_float3(source, Int64(count), channelOffsets, channelScales, channelBiases, target, widest.rawValue)
    }
}
