import Foundation
import TensorIO
import TensorIOTestSupport

/// The example bundles and photos in `Examples/`, and builders for small hand-made images.
enum ImageFixtures {
    /// `Examples/`.
    static let examples = Fixtures.examplesDirectory

    /// A photo in `Examples/photos`, such as `cat.jpg`.
    static func photo(_ name: String) -> URL {
        examples.appendingPathComponent("photos").appendingPathComponent(name)
    }

    /// The EfficientNet-Lite0 bundle of one precision: `float32` or `uint8`.
    static func efficientNet(_ precision: String) -> URL {
        examples.appendingPathComponent("efficientnet-lite0-\(precision).tiobundle")
    }

    /// The labels that count as a right answer for `cat.jpg` (the README: close scores).
    static let catLabels: Set<String> = ["Egyptian cat", "tabby", "tiger cat"]
}

// MARK: - Pixels

/// One pixel's colour, whatever the buffer's layout.
struct RGBA: Hashable, CustomStringConvertible {
    var r: UInt8
    var g: UInt8
    var b: UInt8
    var a: UInt8 = 255

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The pixel's bytes in a buffer format (gray takes `r`).
    func bytes(in format: PixelBuffer.Format) -> [UInt8] {
        switch format {
        case .rgba: [r, g, b, a]
        case .bgra: [b, g, r, a]
        case .argb: [a, r, g, b]
        case .rgb: [r, g, b]
        case .bgr: [b, g, r]
        case .gray: [r]
        }
    }

    /// The colour of a pixel's bytes in a buffer format: 3-byte formats are opaque, gray is r = g = b.
    init(bytes: [UInt8], format: PixelBuffer.Format) {
        switch format {
        case .rgba: self.init(bytes[0], bytes[1], bytes[2], bytes[3])
        case .bgra: self.init(bytes[2], bytes[1], bytes[0], bytes[3])
        case .argb: self.init(bytes[1], bytes[2], bytes[3], bytes[0])
        case .rgb: self.init(bytes[0], bytes[1], bytes[2])
        case .bgr: self.init(bytes[2], bytes[1], bytes[0])
        case .gray: self.init(bytes[0], bytes[0], bytes[0])
        }
    }

    var rgb: [Int] { [Int(r), Int(g), Int(b)] }

    var description: String { "(\(r),\(g),\(b),\(a))" }

    static let black = RGBA(0, 0, 0)
    static let white = RGBA(255, 255, 255)
}

/// A buffer of `width × height` pixels whose colour at column `x`, row `y` is `colour(x, y)`, written
/// byte by byte in `format` (not through `converted(to:)`, so conversions can be checked against it).
func makeImage(
    width: Int, height: Int, format: PixelBuffer.Format = .rgba, orientation: ImageOrientation = .up,
    _ colour: (_ x: Int, _ y: Int) -> RGBA
) throws -> PixelBuffer {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * format.bytesPerPixel)
    for y in 0..<height {
        for x in 0..<width { bytes += colour(x, y).bytes(in: format) }
    }
    return try PixelBuffer(width: width, height: height, format: format, bytes: bytes, orientation: orientation)
}

/// A buffer of one colour.
func solidImage(_ colour: RGBA, width: Int, height: Int, format: PixelBuffer.Format = .rgba) throws -> PixelBuffer {
    try makeImage(width: width, height: height, format: format) { _, _ in colour }
}

/// The buffer's pixels, row by row, read from its bytes in its own format.
func pixelGrid(_ image: PixelBuffer) -> [[RGBA]] {
    (0..<image.height).map { y in
        (0..<image.width).map { x in RGBA(bytes: image.pixel(x: x, y: y)!, format: image.format) }
    }
}

/// Whether every channel of two same-sized grids differs by at most `tolerance`.
func gridsClose(_ a: [[RGBA]], _ b: [[RGBA]], tolerance: Int) -> Bool {
    guard a.count == b.count, zip(a, b).allSatisfy({ $0.count == $1.count }) else { return false }
    return largestDifference(a, b) <= tolerance
}

/// The largest per-channel difference between two same-sized grids (alpha included).
func largestDifference(_ a: [[RGBA]], _ b: [[RGBA]]) -> Int {
    var largest = 0
    for (p, q) in zip(a.joined(), b.joined()) {
        let differences: [Int] = [
            abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)),
        ]
        largest = max(largest, differences.max()!)
    }
    return largest
}

// MARK: - Image layers without a model

/// What `LayerDescription.writeImage` puts in a float32 tensor for an RGB/BGR/GRAY layer of
/// `width × height` (no normalization unless given).
func imageTensor(
    _ image: PixelBuffer, width: Int, height: Int, format: ImageTensorFormat = .rgb, normalize: NormalizationSpec? = nil,
    mode: ImageResizeMode = .stretch
) throws -> [Float] {
    let layer = LayerDescription(
        name: "image", shape: [height, width, format.channelCount], kind: .image(format: format, normalization: normalize)
    )
    var values = [Float](repeating: -1, count: width * height * format.channelCount)
    try values.withUnsafeMutableBytes { try layer.writeImage(image, into: $0, dataType: .float32, resizeMode: mode) }
    return values
}

/// The same as ``imageTensor(_:width:height:format:normalize:mode:)`` into a uint8 tensor.
func imageTensorBytes(
    _ image: PixelBuffer, width: Int, height: Int, format: ImageTensorFormat = .rgb, mode: ImageResizeMode = .stretch
) throws -> [UInt8] {
    let layer = LayerDescription(name: "image", shape: [height, width, format.channelCount], kind: .image(format: format))
    var values = [UInt8](repeating: 7, count: width * height * format.channelCount)
    try values.withUnsafeMutableBytes { try layer.writeImage(image, into: $0, dataType: .uint8, resizeMode: mode) }
    return values
}

/// A raw-pixel RGB tensor (values 0…255) as rows of colours.
func rgbGrid(_ values: [Float], width: Int) -> [[RGBA]] {
    let pixels = stride(from: 0, to: values.count, by: 3).map { index in
        RGBA(byte(values[index]), byte(values[index + 1]), byte(values[index + 2]))
    }
    return stride(from: 0, to: pixels.count, by: width).map { Array(pixels[$0..<($0 + width)]) }
}

/// A raw uint8 RGB tensor as rows of colours.
func rgbGrid(_ values: [UInt8], width: Int) -> [[RGBA]] {
    rgbGrid(values.map(Float.init), width: width)
}

/// A float that should hold a whole pixel value, as a byte (out-of-range values are clamped and will not
/// match an expected colour).
func byte(_ value: Float) -> UInt8 {
    UInt8(max(0, min(255, value.rounded())))
}

// MARK: - Files

extension Data {
    /// A JPEG with an APP1 Exif segment holding only an IFD0 `Orientation` tag, inserted right after SOI.
    func insertingExifOrientation(_ value: UInt16, bigEndian: Bool = false) -> Data {
        precondition(count > 2 && self[startIndex] == 0xFF && self[startIndex + 1] == 0xD8, "not a JPEG")
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let bytes = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return bigEndian ? bytes.reversed() : bytes
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)  // magic, IFD0 at offset 8
        tiff += u16(1)  // one entry
        // Orientation (0x0112), SHORT (3), count 1, the value in the first two bytes of the value field.
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var result = Data(prefix(2))
        result.append(contentsOf: segment)
        result.append(dropFirst(2))
        return result
    }
}

/// A PNG file built chunk by chunk (for headers no encoder would write).
enum HandMadePNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG whose IHDR says `width × height` (8-bit RGB), with an empty IDAT and IEND.
    static func withHeader(width: UInt32, height: UInt32) -> Data {
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr = u32(width) + u32(height) + [8, 2, 0, 0, 0]
        // An empty zlib stream as IDAT: header 78 01, a final empty stored block, adler32 of nothing.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    /// A complete PNG: IHDR with the given bit depth and colour type, optional extra chunks (PLTE, tRNS)
    /// before the image data, and `rows` (each without its filter byte) stored uncompressed.
    static func image(
        width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
        chunks extra: [(String, [UInt8])] = []
    ) -> Data {
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr = u32(width) + u32(height) + [bitDepth, colorType, 0, 0, 0]
        let raw: [UInt8] = rows.flatMap { row -> [UInt8] in [0] + row }  // filter type 0 (none) on every row
        var bytes = signature + chunk("IHDR", ihdr)
        for (type, data) in extra { bytes += chunk(type, data) }
        return Data(bytes + chunk("IDAT", zlibStored(raw)) + chunk("IEND", []))
    }

    /// A zlib stream holding `data` in one stored (uncompressed) deflate block.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count < 65_536)
        let length = UInt16(data.count)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + data + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let length = UInt32(data.count)
        let crc = CRC32.checksum(typeBytes + data)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + typeBytes + data
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
