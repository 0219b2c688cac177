import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `PixelBuffer`: formats, raw initialisers, conversions between layouts, PNG and JPEG round trips.
@Suite("Images: pixel buffers")
struct PixelBufferTests {
    /// Eight distinct, opaque-or-not colours on a 4 × 2 image: every channel differs from every other
    /// channel of the same pixel, so any swapped pair of channels shows.
    static let palette: [RGBA] = [
        RGBA(255, 0, 0, 255), RGBA(0, 255, 0, 200), RGBA(0, 0, 255, 150), RGBA(10, 20, 30, 100),
        RGBA(200, 100, 50, 50), RGBA(1, 128, 254, 0), RGBA(90, 60, 30, 10), RGBA(33, 66, 99, 250),
    ]

    static func paletteImage(_ format: PixelBuffer.Format) throws -> PixelBuffer {
        try makeImage(width: 4, height: 2, format: format) { x, y in palette[y * 4 + x] }
    }

    static let colourFormats: [PixelBuffer.Format] = [.rgba, .bgra, .argb, .rgb, .bgr]

    // MARK: - Formats and raw pixels

    @Test("bytes per pixel of each format", arguments: [
        (PixelBuffer.Format.rgba, 4), (.bgra, 4), (.argb, 4), (.rgb, 3), (.bgr, 3), (.gray, 1),
    ])
    func bytesPerPixel(_ format: PixelBuffer.Format, _ expected: Int) throws {
        #expect(format.bytesPerPixel == expected)
        let image = try PixelBuffer(width: 5, height: 3, format: format, repeating: 9)
        #expect(image.bytesPerRow == 5 * expected)
        #expect(image.bytes.count == 5 * 3 * expected)
        #expect(image.pixel(x: 4, y: 2)?.count == expected)
        #expect(image.pixel(x: 5, y: 0) == nil)
        #expect(image.pixel(x: 0, y: 3) == nil)
        #expect(image.pixel(x: -1, y: 0) == nil)
    }

    @Test("every format is covered")
    func allFormats() {
        #expect(Set(PixelBuffer.Format.allCases) == [.rgba, .bgra, .argb, .rgb, .bgr, .gray])
    }

    @Test("padded rows are compacted", arguments: [PixelBuffer.Format.rgb, .rgba, .gray])
    func paddedRows(_ format: PixelBuffer.Format) throws {
        let width = 3, height = 2, padding = 5
        let bpp = format.bytesPerPixel
        let stride = width * bpp + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<bpp { bytes[y * stride + x * bpp + c] = UInt8(100 * y + 10 * x + c) }
            }
        }
        let image = try PixelBuffer(width: width, height: height, format: format, bytes: bytes, bytesPerRow: stride)
        #expect(image.bytesPerRow == width * bpp)
        #expect(image.bytes.count == width * height * bpp)
        #expect(!image.bytes.contains(0xEE))
        for y in 0..<height {
            for x in 0..<width {
                #expect(image.pixel(x: x, y: y) == (0..<bpp).map { UInt8(100 * y + 10 * x + $0) })
            }
        }
        // The last row needs no padding after it.
        let short = try PixelBuffer(
            width: width, height: height, format: format, bytes: Array(bytes.dropLast(padding)), bytesPerRow: stride
        )
        #expect(short == image)
    }

    @Test("extra bytes after the last row are dropped")
    func extraBytes() throws {
        let image = try PixelBuffer(width: 2, height: 1, format: .gray, bytes: [1, 2, 3, 4])
        #expect(image.bytes == [1, 2])
    }

    @Test("a zero or negative size throws invalidImage", arguments: [(0, 1), (1, 0), (0, 0), (-1, 2), (2, -3)])
    func zeroSize(_ width: Int, _ height: Int) {
        let fromBytes = expectTensorIOError { _ = try PixelBuffer(width: width, height: height, format: .rgb, bytes: [1, 2, 3]) }
        #expect(fromBytes?.code == .invalidImage)
        #expect(fromBytes?.message.contains("\(width)×\(height)") == true, "\(String(describing: fromBytes))")
        let filled = expectTensorIOError { _ = try PixelBuffer(width: width, height: height, format: .gray) }
        #expect(filled?.code == .invalidImage)
    }

    @Test("too few bytes or a too-short row throws invalidImage")
    func shortBytes() {
        let short = expectTensorIOError { _ = try PixelBuffer(width: 2, height: 2, format: .rgba, bytes: [UInt8](repeating: 0, count: 15)) }
        #expect(short?.code == .invalidImage)
        #expect(short?.message.contains("16") == true, "\(String(describing: short))")
        #expect(short?.message.contains("15") == true, "\(String(describing: short))")
        let empty = expectTensorIOError { _ = try PixelBuffer(width: 1, height: 1, format: .gray, bytes: []) }
        #expect(empty?.code == .invalidImage)
        // Padded rows: the last row must still be complete.
        let paddedShort = expectTensorIOError {
            _ = try PixelBuffer(width: 2, height: 2, format: .rgb, bytes: [UInt8](repeating: 0, count: 8 + 5), bytesPerRow: 8)
        }
        #expect(paddedShort?.code == .invalidImage)
        let narrowRow = expectTensorIOError {
            _ = try PixelBuffer(width: 4, height: 1, format: .rgb, bytes: [UInt8](repeating: 0, count: 100), bytesPerRow: 11)
        }
        #expect(narrowRow?.code == .invalidImage)
    }

    @Test("the upright size swaps for orientations 5–8")
    func uprightSize() throws {
        for orientation in ImageOrientation.allCases {
            let image = try PixelBuffer(width: 3, height: 2, format: .gray, repeating: 0).withOrientation(orientation)
            let swaps = orientation.rawValue >= 5
            #expect(orientation.swapsDimensions == swaps)
            #expect(image.uprightSize == (swaps ? (2, 3) : (3, 2)) as (Int, Int), "\(orientation)")
            #expect(image.width == 3 && image.height == 2)
        }
        #expect(ImageOrientation.allCases.map(\.rawValue) == Array(1...8))
    }

    // MARK: - Conversions

    @Test("converted(to:) between colour formats keeps every colour", arguments: colourFormats, colourFormats)
    func conversion(_ from: PixelBuffer.Format, _ to: PixelBuffer.Format) throws {
        let source = try Self.paletteImage(from)
        let converted = source.converted(to: to)
        #expect(converted.format == to)
        #expect(converted.width == 4 && converted.height == 2)
        #expect(converted.bytes.count == 8 * to.bytesPerPixel)
        // Alpha survives between 4-byte formats; 3-byte sources become opaque.
        let keepsAlpha = from.bytesPerPixel == 4 && to.bytesPerPixel == 4
        let expected = Self.palette.map { colour in
            var colour = colour
            if !keepsAlpha { colour.a = 255 }
            return colour
        }
        #expect(Array(pixelGrid(converted).joined()) == expected, "\(from) → \(to)")
        // And back.
        let back = converted.converted(to: from)
        #expect(back.format == from)
        if keepsAlpha || from.bytesPerPixel == 3 {
            #expect(back == source, "\(from) → \(to) → \(from)")
        } else {
            #expect(Array(pixelGrid(back).joined()) == expected, "\(from) → \(to) → \(from)")
        }
    }

    @Test("converted(to:) keeps the orientation")
    func conversionKeepsOrientation() throws {
        let image = try Self.paletteImage(.rgb).withOrientation(.leftMirrored)
        for format in PixelBuffer.Format.allCases {
            #expect(image.converted(to: format).orientation == .leftMirrored, "\(format)")
        }
    }

    /// Full-range BT.601 luma, Y = 0.299 R + 0.587 G + 0.114 B (libyuv's J400), within ±1.
    @Test("colour to gray uses full-range luminance", arguments: colourFormats)
    func toGray(_ from: PixelBuffer.Format) throws {
        let colours: [(RGBA, Int)] = [
            (RGBA(255, 0, 0), 76), (RGBA(0, 255, 0), 150), (RGBA(0, 0, 255), 29), (RGBA(200, 100, 50), 124),
            (RGBA(0, 0, 0), 0), (RGBA(255, 255, 255), 255), (RGBA(128, 128, 128), 128), (RGBA(16, 235, 16), 145),
        ]
        let image = try makeImage(width: 4, height: 2, format: from) { x, y in colours[y * 4 + x].0 }
        let gray = image.converted(to: .gray)
        #expect(gray.format == .gray)
        #expect(gray.bytes.count == 8)
        for (index, (colour, luma)) in colours.enumerated() {
            let value = Int(gray.bytes[index])
            #expect(abs(value - luma) <= 1, "\(colour) → \(value), expected \(luma) ±1 (from \(from))")
        }
        // Not limited-range BT.601 (16…235): black stays 0 and white 255 exactly.
        #expect(gray.bytes[4] == 0 && gray.bytes[5] == 255)
    }

    @Test("gray to colour copies the value into each channel with alpha 255", arguments: colourFormats)
    func fromGray(_ to: PixelBuffer.Format) throws {
        let values: [UInt8] = [0, 1, 64, 127, 128, 200, 254, 255]
        let gray = try PixelBuffer(width: 4, height: 2, format: .gray, bytes: values)
        let colour = gray.converted(to: to)
        #expect(Array(pixelGrid(colour).joined()) == values.map { RGBA($0, $0, $0, 255) })
        // Gray → colour → gray is lossless.
        #expect(colour.converted(to: .gray) == gray)
    }

    // MARK: - PNG

    @Test("PNG round trip: RGBA stays RGBA, with alpha")
    func pngRGBA() throws {
        let image = try Self.paletteImage(.rgba)
        let data = try image.pngData()
        #expect(Array(data.prefix(8)) == HandMadePNG.signature)
        let decoded = try PixelBuffer(data: data)
        #expect(decoded.format == .rgba)
        #expect(decoded == image)
    }

    @Test("PNG round trip through a file: 3- and 4-byte formats read back as RGBA", arguments: colourFormats)
    func pngFile(_ format: PixelBuffer.Format) throws {
        let image = try Self.paletteImage(format)
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("image.png")
            try image.write(to: url)
            let decoded = try PixelBuffer(contentsOf: url)
            #expect(decoded.format == .rgba)
            #expect(decoded.width == 4 && decoded.height == 2)
            #expect(decoded.orientation == .up)
            let expected = Self.palette.map { format.bytesPerPixel == 3 ? RGBA($0.r, $0.g, $0.b, 255) : $0 }
            #expect(Array(pixelGrid(decoded).joined()) == expected)
        }
    }

    @Test("PNG round trip: gray stays gray")
    func pngGray() throws {
        let gray = try makeImage(width: 7, height: 5, format: .gray) { x, y in RGBA(UInt8(x * 36 + y), 0, 0) }
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("gray.png")
            try gray.write(to: url)
            let decoded = try PixelBuffer(contentsOf: url)
            #expect(decoded.format == .gray)
            #expect(decoded == gray)
        }
        #expect(try PixelBuffer(data: gray.pngData()) == gray)
    }

    @Test("a large PNG round trip")
    func pngLarge() throws {
        let image = try makeImage(width: 640, height: 480, format: .rgb) { x, y in
            RGBA(UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x ^ y) & 0xFF))
        }
        let decoded = try PixelBuffer(data: image.pngData())
        let equal = decoded == image.converted(to: .rgba)
        #expect(equal, "\(decoded.format) \(decoded.width)×\(decoded.height)")
    }

    // MARK: - PNG colour types (hand-made files)

    @Test("a palette PNG becomes RGBA, with tRNS transparency applied")
    func pngPalette() throws {
        // Palette: 0 red, 1 green (alpha 128), 2 blue (alpha 0); pixels 0 1 / 2 0.
        let png = HandMadePNG.image(
            width: 2, height: 2, bitDepth: 8, colorType: 3, rows: [[0, 1], [2, 0]],
            chunks: [("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255]), ("tRNS", [255, 128, 0])]
        )
        let image = try PixelBuffer(data: png)
        #expect(image.format == .rgba)
        #expect(pixelGrid(image) == [[RGBA(255, 0, 0, 255), RGBA(0, 255, 0, 128)], [RGBA(0, 0, 255, 0), RGBA(255, 0, 0, 255)]])
    }

    @Test("an 8-bit gray PNG stays gray; gray with alpha and 16-bit gray become RGBA")
    func pngGrayVariants() throws {
        let gray8 = try PixelBuffer(data: HandMadePNG.image(width: 3, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 128, 255]]))
        #expect(gray8.format == .gray)
        #expect(gray8.bytes == [0, 128, 255])

        let grayAlpha = try PixelBuffer(data: HandMadePNG.image(
            width: 2, height: 1, bitDepth: 8, colorType: 4, rows: [[10, 255, 200, 50]]
        ))
        #expect(grayAlpha.format == .rgba)
        #expect(pixelGrid(grayAlpha) == [[RGBA(10, 10, 10, 255), RGBA(200, 200, 200, 50)]])

        // 16-bit samples: the high byte is the 8-bit value (0x8000 → 128, 0xFFFF → 255).
        let gray16 = try PixelBuffer(data: HandMadePNG.image(
            width: 2, height: 1, bitDepth: 16, colorType: 0, rows: [[0x80, 0x00, 0xFF, 0xFF]]
        ))
        #expect(gray16.width == 2 && gray16.height == 1)
        let values = pixelGrid(gray16.converted(to: .rgba))[0].map(\.r)
        #expect(values == [128, 255], "\(values)")
    }

    @Test("16-bit RGB and 8-bit RGB PNGs become RGBA")
    func pngRGBVariants() throws {
        let rgb8 = try PixelBuffer(data: HandMadePNG.image(width: 2, height: 1, bitDepth: 8, colorType: 2, rows: [[1, 2, 3, 250, 251, 252]]))
        #expect(rgb8.format == .rgba)
        #expect(pixelGrid(rgb8) == [[RGBA(1, 2, 3), RGBA(250, 251, 252)]])
        let rgb16 = try PixelBuffer(data: HandMadePNG.image(
            width: 1, height: 1, bitDepth: 16, colorType: 2, rows: [[0x10, 0x00, 0x80, 0x00, 0xFF, 0xFF]]
        ))
        #expect(pixelGrid(rgb16) == [[RGBA(16, 128, 255)]])
    }

    @Test("a palette PNG goes through a colour layer as RGB")
    func pngPaletteThroughLayer() throws {
        let png = HandMadePNG.image(
            width: 2, height: 1, bitDepth: 8, colorType: 3, rows: [[1, 0]], chunks: [("PLTE", [10, 20, 30, 40, 50, 60])]
        )
        let tensor = try imageTensor(try PixelBuffer(data: png), width: 2, height: 1)
        #expect(tensor == [40, 50, 60, 10, 20, 30])
    }

    // MARK: - JPEG

    /// A smooth image: JPEG keeps it within a few levels.
    static func smoothImage(_ format: PixelBuffer.Format, width: Int = 64, height: Int = 48) throws -> PixelBuffer {
        try makeImage(width: width, height: height, format: format) { x, y in
            RGBA(UInt8(40 + 3 * x), UInt8(200 - 3 * y), UInt8(80 + x + y))
        }
    }

    @Test("JPEG round trip is close (±8) on a smooth image", arguments: colourFormats)
    func jpeg(_ format: PixelBuffer.Format) throws {
        let image = try Self.smoothImage(format)
        let data = try image.jpegData(quality: 95)
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try PixelBuffer(data: data)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded.orientation == .up)
        let expected = pixelGrid(image.converted(to: .rgba))
        let actual = pixelGrid(decoded.converted(to: .rgba))
        #expect(gridsClose(actual, expected, tolerance: 8), "largest difference \(largestDifference(actual, expected))")
    }

    @Test("JPEG written to a .jpg file, gray stays gray")
    func jpegFile() throws {
        let colour = try Self.smoothImage(.rgb)
        let gray = colour.converted(to: .gray)
        try withTemporaryDirectory { directory in
            let colourURL = directory.appendingPathComponent("colour.jpg")
            let grayURL = directory.appendingPathComponent("gray.JPEG")
            try colour.write(to: colourURL)
            try gray.write(to: grayURL)
            #expect(try Array(Data(contentsOf: colourURL).prefix(2)) == [0xFF, 0xD8])
            #expect(try Array(Data(contentsOf: grayURL).prefix(2)) == [0xFF, 0xD8])

            let decodedColour = try PixelBuffer(contentsOf: colourURL)
            #expect(decodedColour.format != .gray)
            #expect(gridsClose(pixelGrid(decodedColour.converted(to: .rgba)), pixelGrid(colour), tolerance: 8))

            let decodedGray = try PixelBuffer(contentsOf: grayURL)
            #expect(decodedGray.format == .gray)
            #expect(gridsClose(pixelGrid(decodedGray), pixelGrid(gray), tolerance: 8))
        }
    }

    @Test("lower JPEG quality gives a smaller file")
    func jpegQuality() throws {
        let image = try makeImage(width: 128, height: 128, format: .rgb) { x, y in
            RGBA(UInt8((x * 7 + y * 13) & 0xFF), UInt8((x * x + y) & 0xFF), UInt8((x ^ y) & 0xFF))
        }
        let low = try image.jpegData(quality: 10)
        let high = try image.jpegData(quality: 100)
        #expect(low.count < high.count)
    }

    @Test("writing to a folder that does not exist throws io naming the file")
    func writeFails() throws {
        let image = try Self.paletteImage(.rgba)
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.png")
        let error = expectTensorIOError { try image.write(to: url) }
        #expect(error?.code == .io)
        #expect(error?.description.contains("out.png") == true, "\(String(describing: error))")
    }
}

extension PixelBuffer {
    /// The same pixels with another orientation.
    func withOrientation(_ orientation: ImageOrientation) -> PixelBuffer {
        var copy = self
        copy.orientation = orientation
        return copy
    }
}
