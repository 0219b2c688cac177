internal import CYUV

extension PixelBuffer {
    /// The image turned as it is displayed: its orientation applied to the pixels, as BGRA, orientation
    /// ``ImageOrientation/up`` — for drawing on a photo in the coordinates detections are given in.
    ///
    /// - Returns: An upright BGRA copy (the image itself, converted, when it is already upright).
    public func orientedUpright() -> PixelBuffer {
        let bgra = converted(to: .bgra)
        guard orientation != .up else { return bgra }
        let (uprightWidth, uprightHeight) = uprightSize
        let pixels = VisionPipeline.orient(bgra.bytes, width: width, height: height, orientation: orientation)
        return PixelBuffer(unchecked: uprightWidth, height: uprightHeight, format: .bgra, bytes: pixels)
    }

    /// The same pixels in another layout (libyuv, SIMD). Converting to ``Format/gray`` uses full-range
    /// BT.601 luminance; converting from gray copies the luminance into each colour and sets alpha to 255.
    public func converted(to target: Format) -> PixelBuffer {
        guard target != format else { return self }
        if format == .bgra { return Self.fromBGRA(self, to: target) }
        let bgra = Self.toBGRA(self)
        return target == .bgra ? bgra : Self.fromBGRA(bgra, to: target)
    }

    /// libyuv names layouts by a little-endian 32-bit word: its "ARGB" is our BGRA in memory.
    private static func toBGRA(_ source: PixelBuffer) -> PixelBuffer {
        var output = [UInt8](repeating: 0, count: source.width * source.height * 4)
        let width = Int32(source.width), height = Int32(source.height)
        let stride = Int32(source.bytesPerRow), outStride = width * 4
        source.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                let src = input.baseAddress, dst = out.baseAddress
                switch source.format {
                case .bgra: _ = ARGBCopy(src, stride, dst, outStride, width, height)
                case .rgba: _ = ABGRToARGB(src, stride, dst, outStride, width, height)
                case .argb: _ = BGRAToARGB(src, stride, dst, outStride, width, height)
                case .rgb: _ = RAWToARGB(src, stride, dst, outStride, width, height)
                case .bgr: _ = RGB24ToARGB(src, stride, dst, outStride, width, height)
                case .gray: _ = J400ToARGB(src, stride, dst, outStride, width, height)
                }
            }
        }
        return PixelBuffer(unchecked: source.width, height: source.height, format: .bgra, bytes: output,
                           orientation: source.orientation)
    }

    private static func fromBGRA(_ source: PixelBuffer, to target: Format) -> PixelBuffer {
        var output = [UInt8](repeating: 0, count: source.width * source.height * target.bytesPerPixel)
        let width = Int32(source.width), height = Int32(source.height)
        let stride = Int32(source.bytesPerRow), outStride = width * Int32(target.bytesPerPixel)
        source.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                let src = input.baseAddress, dst = out.baseAddress
                switch target {
                case .bgra: _ = ARGBCopy(src, stride, dst, outStride, width, height)
                case .rgba: _ = ARGBToABGR(src, stride, dst, outStride, width, height)
                case .argb: _ = ARGBToBGRA(src, stride, dst, outStride, width, height)
                case .rgb: _ = ARGBToRAW(src, stride, dst, outStride, width, height)
                case .bgr: _ = ARGBToRGB24(src, stride, dst, outStride, width, height)
                case .gray: _ = ARGBToJ400(src, stride, dst, outStride, width, height)
                }
            }
        }
        return PixelBuffer(unchecked: source.width, height: source.height, format: target, bytes: output,
                           orientation: source.orientation)
    }
}
