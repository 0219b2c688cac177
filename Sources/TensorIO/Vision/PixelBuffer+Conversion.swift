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
        let conversion: LibyuvConversion = switch source.format {
        case .bgra: ARGBCopy
        case .rgba: ABGRToARGB
        case .argb: BGRAToARGB
        case .rgb: RAWToARGB
        case .bgr: RGB24ToARGB
        case .gray: J400ToARGB
        }
        return convert(source, to: .bgra, with: conversion)
    }

    private static func fromBGRA(_ source: PixelBuffer, to target: Format) -> PixelBuffer {
        let conversion: LibyuvConversion = switch target {
        case .bgra: ARGBCopy
        case .rgba: ARGBToABGR
        case .argb: ARGBToBGRA
        case .rgb: ARGBToRAW
        case .bgr: ARGBToRGB24
        case .gray: ARGBToJ400
        }
        return convert(source, to: target, with: conversion)
    }

    /// A libyuv function converting packed pixels: source and its row stride, destination and its row
    /// stride, width, height.
    private typealias LibyuvConversion = (
        UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32
    ) -> Int32

    /// `source`'s pixels in `target`'s format, written by `conversion` into a new tightly packed buffer.
    private static func convert(_ source: PixelBuffer, to target: Format, with conversion: LibyuvConversion) -> PixelBuffer {
        var output = [UInt8](repeating: 0, count: source.width * source.height * target.bytesPerPixel)
        let width = Int32(source.width), height = Int32(source.height)
        let stride = Int32(source.bytesPerRow), outStride = width * Int32(target.bytesPerPixel)
        source.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                _ = conversion(input.baseAddress, stride, out.baseAddress, outStride, width, height)
            }
        }
        return PixelBuffer(unchecked: source.width, height: source.height, format: target, bytes: output,
                           orientation: source.orientation)
    }
}
