import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Fitting an image to a layer's size: aspect fill (centre crop), aspect fit (black bars), stretch; any
/// target size; and reduced-size JPEG decoding.
@Suite("Images: fitting")
struct ImageFittingTests {
    static let red = RGBA(255, 0, 0), green = RGBA(0, 255, 0), blue = RGBA(0, 0, 255)

    /// A `3n × n` image whose left, centre and right thirds are red, green and blue (or top, middle and
    /// bottom when `tall`).
    static func thirds(_ n: Int, tall: Bool = false, format: PixelBuffer.Format = .rgba) throws -> PixelBuffer {
        let (width, height) = tall ? (n, 3 * n) : (3 * n, n)
        return try makeImage(width: width, height: height, format: format) { x, y in
            [red, green, blue][(tall ? y : x) / n]
        }
    }

    static func grid(_ colour: RGBA, width: Int, height: Int) -> [[RGBA]] {
        Array(repeating: Array(repeating: colour, count: width), count: height)
    }

    /// How far a colour may drift in the tests below that check *where* content ends up (crop, bars,
    /// order) after scaling by a non-integer ratio: the colours compared differ by 255 in some channel.
    /// Scaling precision is checked on its own by ``solidColourSurvivesScaling(_:_:_:_:)``: libyuv's ARGB
    /// bilinear filter, which `ARGBScale` uses for any non-integer ratio, darkens by up to 2 levels
    /// (255 → 253). Integer ratios take exact paths and are compared exactly.
    static let geometryTolerance = 2

    static func expectLayout(
        _ actual: [[RGBA]], _ expected: [[RGBA]], _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            gridsClose(actual, expected, tolerance: geometryTolerance),
            "largest difference \(largestDifference(actual, expected)); got \(actual) \(comment.map { "— \($0)" } ?? "")",
            sourceLocation: sourceLocation
        )
    }

    // MARK: - Aspect fill

    @Test("aspect fill keeps only the centre third of a wide image", arguments: [10, 20, 7])
    func fillWide(_ n: Int) throws {
        let tensor = try imageTensor(try Self.thirds(n), width: 10, height: 10, mode: .aspectFill)
        Self.expectLayout(rgbGrid(tensor, width: 10), Self.grid(Self.green, width: 10, height: 10), "n = \(n)")
    }

    @Test("aspect fill keeps only the middle third of a tall image", arguments: [10, 20, 7])
    func fillTall(_ n: Int) throws {
        let tensor = try imageTensor(try Self.thirds(n, tall: true), width: 10, height: 10, mode: .aspectFill)
        Self.expectLayout(rgbGrid(tensor, width: 10), Self.grid(Self.green, width: 10, height: 10), "n = \(n)")
    }

    @Test("aspect fill is the default of writeImage and of models")
    func fillDefault() throws {
        let layer = LayerDescription(name: "image", shape: [4, 4, 3], kind: .image(format: .rgb))
        var values = [Float](repeating: -1, count: 48)
        try values.withUnsafeMutableBytes { try layer.writeImage(try Self.thirds(4), into: $0) }
        #expect(rgbGrid(values, width: 4) == Self.grid(Self.green, width: 4, height: 4))
        #expect(ModelConfiguration().imageResizeMode == nil)
    }

    // MARK: - Aspect fit

    @Test("aspect fit pads a wide image with black bars at the top and bottom")
    func fitWide() throws {
        // 20 × 8 → 10 × 4, centred in 10 × 10: rows 3…6 white.
        let image = try solidImage(.white, width: 20, height: 8)
        let tensor = try imageTensor(image, width: 10, height: 10, mode: .aspectFit)
        let expected = (0..<10).map { y in Array(repeating: (3...6).contains(y) ? RGBA.white : .black, count: 10) }
        #expect(rgbGrid(tensor, width: 10) == expected)
    }

    @Test("aspect fit pads a tall image with black bars left and right")
    func fitTall() throws {
        // 8 × 20 → 4 × 10, centred: columns 3…6 white.
        let image = try solidImage(.white, width: 8, height: 20)
        let tensor = try imageTensor(image, width: 10, height: 10, mode: .aspectFit)
        let expected = (0..<10).map { _ in (0..<10).map { (3...6).contains($0) ? RGBA.white : .black } }
        #expect(rgbGrid(tensor, width: 10) == expected)
    }

    @Test("aspect fit keeps all content: the thirds stay side by side")
    func fitKeepsContent() throws {
        // 30 × 10 → 15 × 5 in 15 × 15: rows 5…9 hold red, green and blue thirds of 5 columns each.
        let tensor = try imageTensor(try Self.thirds(10), width: 15, height: 15, mode: .aspectFit)
        let expected = (0..<15).map { y in
            (0..<15).map { x in (5...9).contains(y) ? [Self.red, Self.green, Self.blue][x / 5] : RGBA.black }
        }
        #expect(rgbGrid(tensor, width: 15) == expected)
    }

    @Test("aspect fit into uint8: the bars are 0")
    func fitUInt8() throws {
        let image = try solidImage(RGBA(9, 99, 199), width: 20, height: 8)
        let bytes = try imageTensorBytes(image, width: 10, height: 10, mode: .aspectFit)
        let expected = (0..<10).map { y in Array(repeating: (3...6).contains(y) ? RGBA(9, 99, 199) : .black, count: 10) }
        #expect(rgbGrid(bytes, width: 10) == expected)
    }

    // MARK: - Stretch

    @Test("stretch keeps all content of a wide image, distorted", arguments: [1, 3, 4])
    func stretchWide(_ rows: Int) throws {
        // 30 × 10 → 3 × rows: each column one third.
        let tensor = try imageTensor(try Self.thirds(10), width: 3, height: rows, mode: .stretch)
        Self.expectLayout(rgbGrid(tensor, width: 3), Array(repeating: [Self.red, Self.green, Self.blue], count: rows))
    }

    @Test("stretch keeps all content of a tall image")
    func stretchTall() throws {
        let tensor = try imageTensor(try Self.thirds(10, tall: true), width: 5, height: 3, mode: .stretch)
        #expect(rgbGrid(tensor, width: 5) == [Self.red, Self.green, Self.blue].map { Array(repeating: $0, count: 5) })
    }

    // MARK: - Non-square targets: image_uint8_test (6 high × 4 wide)

    /// The README's vector: pixel (row y, column x) = (40y + 10x, 40y + 10x + 1, 40y + 10x + 2).
    static func uint8Pixel(_ x: Int, _ y: Int) -> RGBA {
        let base = UInt8(40 * y + 10 * x)
        return RGBA(base, base + 1, base + 2)
    }

    /// The 72 bytes of the README's vector.
    static let uint8Vector: [UInt8] = (0..<6).flatMap { y in (0..<4).flatMap { x in uint8Pixel(x, y).rgb.map(UInt8.init) } }

    static func runUInt8Model(_ image: PixelBuffer, mode: ImageResizeMode = .aspectFill) throws -> PixelBuffer {
        let model = try Fixtures.model("image_uint8_test.tiobundle", configuration: ModelConfiguration(imageResizeMode: mode))
        return try model.run(image)["output"].image
    }

    static func rgbBytes(_ image: PixelBuffer) -> [UInt8] {
        pixelGrid(image).joined().flatMap { $0.rgb.map(UInt8.init) }
    }

    @Test("image_uint8_test: the exact 4 × 6 image in any format comes back byte for byte",
          arguments: PixelBuffer.Format.allCases.filter { $0 != .gray })
    func uint8Exact(_ format: PixelBuffer.Format) throws {
        let image = try makeImage(width: 4, height: 6, format: format, Self.uint8Pixel)
        let output = try Self.runUInt8Model(image)
        #expect(output.width == 4 && output.height == 6)
        #expect(output.format == .rgba)
        #expect(Self.rgbBytes(output) == Self.uint8Vector)
        #expect(pixelGrid(output).joined().allSatisfy { $0.a == 255 })
        // Corners named in the README.
        #expect(output.pixel(x: 0, y: 0) == [0, 1, 2, 255])
        #expect(output.pixel(x: 3, y: 0) == [30, 31, 32, 255])
        #expect(output.pixel(x: 0, y: 5) == [200, 201, 202, 255])
        #expect(output.pixel(x: 3, y: 5) == [230, 231, 232, 255])
    }

    @Test("image_uint8_test: the image at twice the size (2 × 2 blocks) scales down exactly",
          arguments: ImageResizeMode.allCases)
    func uint8Doubled(_ mode: ImageResizeMode) throws {
        let image = try makeImage(width: 8, height: 12) { x, y in Self.uint8Pixel(x / 2, y / 2) }
        #expect(Self.rgbBytes(try Self.runUInt8Model(image, mode: mode)) == Self.uint8Vector)
    }

    @Test("image_uint8_test: a square source is centre-cropped to 2:3")
    func uint8CropFromSquare() throws {
        // 12 × 12: the doubled image in columns 2…9, other colours in the two columns each side.
        let image = try makeImage(width: 12, height: 12) { x, y in
            (2...9).contains(x) ? Self.uint8Pixel((x - 2) / 2, y / 2) : RGBA(255, 0, 255)
        }
        #expect(Self.rgbBytes(try Self.runUInt8Model(image)) == Self.uint8Vector)
    }

    @Test("image_uint8_test: a wide source is centre-cropped to 2:3")
    func uint8CropFromWide() throws {
        // A 20 × 6 image with the exact 4 × 6 in columns 8…11.
        let image = try makeImage(width: 20, height: 6) { x, y in
            (8...11).contains(x) ? Self.uint8Pixel(x - 8, y) : RGBA(0, 255, 255)
        }
        #expect(Self.rgbBytes(try Self.runUInt8Model(image)) == Self.uint8Vector)
    }

    @Test("image_uint8_test: aspect fit of a 4 × 3 image leaves black rows above and below")
    func uint8Fit() throws {
        // 4 × 3 at scale 1 in 4 × 6, at row (6 − 3) / 2 = 1.
        let image = try makeImage(width: 4, height: 3, Self.uint8Pixel)
        let output = pixelGrid(try Self.runUInt8Model(image, mode: .aspectFit))
        let expected = (0..<6).map { y in
            (0..<4).map { x in (1...3).contains(y) ? Self.uint8Pixel(x, y - 1) : RGBA.black }
        }
        #expect(output == expected)
    }

    @Test("image_uint8_test: from a PNG file")
    func uint8FromPNG() throws {
        let image = try makeImage(width: 4, height: 6, format: .rgb, Self.uint8Pixel)
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("vector.png")
            try image.write(to: url)
            let decoded = try PixelBuffer(contentsOf: url, targetSize: ImageSize(width: 4, height: 6))
            #expect(Self.rgbBytes(try Self.runUInt8Model(decoded)) == Self.uint8Vector)
        }
    }

    @Test("image_uint8_test: the README's checkerboard")
    func uint8Checkerboard() throws {
        let image = try makeImage(width: 4, height: 6) { x, y in (x + y) % 2 == 1 ? .white : .black }
        #expect(pixelGrid(try Self.runUInt8Model(image)) == pixelGrid(image))
    }

    @Test("image_uint8_test: the output is the raw tensor — writeImage gives the same bytes")
    func uint8WriteImage() throws {
        let image = try makeImage(width: 4, height: 6, Self.uint8Pixel)
        #expect(try imageTensorBytes(image, width: 4, height: 6) == Self.uint8Vector)
        // BGR layers get blue first.
        let bgr = try imageTensorBytes(image, width: 4, height: 6, format: .bgr)
        #expect(Array(bgr.prefix(6)) == [2, 1, 0, 12, 11, 10])
    }

    // MARK: - Targets larger than the source

    // MARK: - Scaling precision

    /// A solid image is the same solid colour at any size (Pillow, vImage and Core Image all keep it), to
    /// within ±1 for rounding.
    @Test("scaling keeps a solid colour (±1)", arguments: [
        (3, 3, 16, 16), (2, 1, 8, 8), (7, 7, 10, 10), (30, 10, 3, 3), (20, 20, 7, 7), (6, 6, 12, 3), (451, 300, 224, 224),
    ], [ImageResizeMode.stretch, .aspectFill])
    func solidColourSurvivesScaling(_ size: (Int, Int, Int, Int), _ mode: ImageResizeMode) throws {
        let (sourceWidth, sourceHeight, width, height) = size
        var failures: [String] = []
        for colour in [RGBA(255, 255, 255), RGBA(210, 140, 70), RGBA(12, 200, 99)] {
            let image = try solidImage(colour, width: sourceWidth, height: sourceHeight)
            let tensor = try imageTensor(image, width: width, height: height, mode: mode)
            let grid = rgbGrid(tensor, width: width)
            let offBy = largestDifference(grid, Self.grid(colour, width: width, height: height))
            if offBy > 1 { failures.append("\(colour) → \(grid[0][0]) (off by \(offBy))") }
        }
        #expect(failures.isEmpty, "\(sourceWidth)×\(sourceHeight) → \(width)×\(height): \(failures.joined(separator: ", "))")
    }

    @Test("pixelbuffer_identity_test gives back a solid colour that had to be scaled (±1)")
    func identityModelAfterScaling() throws {
        let model = try Fixtures.model("pixelbuffer_identity_test.tiobundle")
        let colour = RGBA(255, 0, 0)
        let output = try model.run(try solidImage(colour, width: 300, height: 300))["output"].image
        let offBy = largestDifference(pixelGrid(output), Self.grid(colour, width: 224, height: 224))
        #expect(offBy <= 1, "300×300 \(colour) → \(pixelGrid(output)[0][0]) (off by \(offBy))")
    }

    @Test("upscaling 1 × 1 to 224 × 224 through pixelbuffer_identity_test")
    func upscaleOnePixel() throws {
        let model = try Fixtures.model("pixelbuffer_identity_test.tiobundle")
        let colour = RGBA(17, 130, 240)
        let output = try model.run(try solidImage(colour, width: 1, height: 1))["output"].image
        #expect(output.width == 224 && output.height == 224)
        #expect(gridsClose(pixelGrid(output), Self.grid(colour, width: 224, height: 224), tolerance: 0))
    }

    @Test("upscaling keeps left on the left and right on the right (stretch)")
    func upscaleContent() throws {
        // 2 × 1 red | blue → 8 × 4.
        let image = try makeImage(width: 2, height: 1) { x, _ in x == 0 ? Self.red : Self.blue }
        let grid = rgbGrid(try imageTensor(image, width: 8, height: 4, mode: .stretch), width: 8)
        for row in grid {
            // Linear interpolation with the end pixels aligned: the edges keep their colour within ±2.
            #expect(row[0].r >= 255 - Self.geometryTolerance && row[0].b <= Self.geometryTolerance, "\(row)")
            #expect(row[7].b >= 255 - Self.geometryTolerance && row[7].r <= Self.geometryTolerance, "\(row)")
            for x in 0..<4 { #expect(row[x].r > row[x].b, "\(row)") }
            for x in 4..<8 { #expect(row[x].b > row[x].r, "\(row)") }
        }
    }

    @Test("upscaling with aspect fill crops the centre of the small source")
    func upscaleFill() throws {
        // 4 × 2: column 0 red, 1…2 green, 3 blue → the 2 × 2 centre, all green, scaled to 8 × 8.
        let image = try makeImage(width: 4, height: 2) { x, _ in x == 0 ? Self.red : x == 3 ? Self.blue : Self.green }
        let tensor = try imageTensor(image, width: 8, height: 8, mode: .aspectFill)
        Self.expectLayout(rgbGrid(tensor, width: 8), Self.grid(Self.green, width: 8, height: 8))
    }

    @Test("upscaling with aspect fit pads: 2 × 1 white into 8 × 8")
    func upscaleFit() throws {
        let image = try solidImage(.white, width: 2, height: 1)
        let tensor = try imageTensor(image, width: 8, height: 8, mode: .aspectFit)
        let expected = (0..<8).map { y in Array(repeating: (2...5).contains(y) ? RGBA.white : .black, count: 8) }
        Self.expectLayout(rgbGrid(tensor, width: 8), expected)
    }

    @Test("non-square layers smaller in one dimension and larger in the other")
    func mixedScale() throws {
        // 6 × 6 solid into 12 wide × 3 high, every mode: fill and stretch cover it all; fit leaves bars.
        let colour = RGBA(70, 140, 210)
        let image = try solidImage(colour, width: 6, height: 6)
        for mode in [ImageResizeMode.aspectFill, .stretch] {
            let tensor = try imageTensor(image, width: 12, height: 3, mode: mode)
            Self.expectLayout(rgbGrid(tensor, width: 12), Self.grid(colour, width: 12, height: 3), "\(mode)")
        }
        let fit = rgbGrid(try imageTensor(image, width: 12, height: 3, mode: .aspectFit), width: 12)
        // 3 × 3 centred at column (12 − 3) / 2 = 4.
        let expected = (0..<3).map { _ in (0..<12).map { (4...6).contains($0) ? colour : RGBA.black } }
        #expect(fit == expected)
    }

    // MARK: - Reduced-size JPEG decoding

    static func largeJPEG(orientation: UInt16? = nil) throws -> Data {
        let image = try makeImage(width: 1600, height: 1200, format: .rgb) { x, y in
            RGBA(UInt8(x * 255 / 1599), UInt8(y * 255 / 1199), 128)
        }
        let data = try image.jpegData(quality: 85)
        return orientation.map { data.insertingExifOrientation($0) } ?? data
    }

    /// Whether a decoded image still has at least as many pixels as `target` needs under `mode`.
    static func covers(_ image: PixelBuffer, _ target: ImageSize, _ mode: ImageResizeMode) -> Bool {
        let (width, height) = image.uprightSize
        let sx = Double(target.width) / Double(width), sy = Double(target.height) / Double(height)
        switch mode {
        case .aspectFill: return max(sx, sy) <= 1
        case .aspectFit: return min(sx, sy) <= 1
        case .stretch: return sx <= 1 && sy <= 1
        }
    }

    @Test("a large JPEG decodes at reduced size that still covers 224 × 224", arguments: ImageResizeMode.allCases)
    func reducedDecode(_ mode: ImageResizeMode) throws {
        let data = try Self.largeJPEG()
        let full = try PixelBuffer(data: data)
        #expect(full.width == 1600 && full.height == 1200)
        let target = ImageSize(width: 224, height: 224)
        let reduced = try PixelBuffer(data: data, targetSize: target, resizeMode: mode)
        #expect(reduced.width < 1600 && reduced.height < 1200, "\(reduced.width)×\(reduced.height)")
        let covers = Self.covers(reduced, target, mode)
        #expect(covers, "\(reduced.width)×\(reduced.height) for \(mode)")
        // Fill and stretch need 299 × 224 of a 4:3 image; fit only 224 × 168: TurboJPEG's 1/4 (400 × 300)
        // is the smallest scale covering both (1/8 gives 200 × 150).
        #expect(reduced.width == 400 && reduced.height == 300, "\(reduced.width)×\(reduced.height)")
        // Same aspect ratio; the same picture (the gradient runs the same way).
        let left = try #require(reduced.converted(to: .rgba).pixel(x: 5, y: 150))
        let right = try #require(reduced.converted(to: .rgba).pixel(x: 394, y: 150))
        #expect(left[0] < 20 && right[0] > 235, "\(left) \(right)")
    }

    @Test("a reduced decode from a file, and the result through a model, is the same picture")
    func reducedDecodeFromFile() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("large.jpg")
            try Self.largeJPEG().write(to: url)
            let target = ImageSize(width: 224, height: 224)
            let reduced = try PixelBuffer(contentsOf: url, targetSize: target)
            let full = try PixelBuffer(contentsOf: url)
            #expect(full.width == 1600 && full.height == 1200)
            #expect(reduced.width < full.width && reduced.height < full.height, "\(reduced.width)×\(reduced.height)")
            #expect(reduced.width >= 299 && reduced.height >= 224, "\(reduced.width)×\(reduced.height)")
            let fromReduced = rgbGrid(try imageTensor(reduced, width: 8, height: 8, mode: .aspectFill), width: 8)
            let fromFull = rgbGrid(try imageTensor(full, width: 8, height: 8, mode: .aspectFill), width: 8)
            #expect(gridsClose(fromReduced, fromFull, tolerance: 6), "largest difference \(largestDifference(fromReduced, fromFull))")
        }
    }

    @Test("no reduction without a target, or when the target is larger than the image")
    func noReduction() throws {
        let data = try Self.largeJPEG()
        let big = try PixelBuffer(data: data, targetSize: ImageSize(width: 2000, height: 3000))
        #expect(big.width == 1600 && big.height == 1200)
        let exact = try PixelBuffer(data: data, targetSize: ImageSize(width: 1600, height: 1200))
        #expect(exact.width == 1600 && exact.height == 1200)
        // A target needing more than half in one dimension.
        let wide = try PixelBuffer(data: data, targetSize: ImageSize(width: 900, height: 10), resizeMode: .stretch)
        #expect(wide.width >= 900 && wide.width < 1600, "\(wide.width)×\(wide.height)")
    }

    @Test("reduced decoding accounts for the EXIF orientation")
    func reducedDecodeOriented() throws {
        // Stored 1600 × 1200, orientation 6: upright 1200 wide × 1600 high. A 400 × 10 fill needs the
        // upright width ≥ 400, that is a stored height ≥ 400 (scale ≥ 1/3: TurboJPEG 3/8, 600 × 450).
        // Ignoring the orientation would allow 1/4 (400 × 300), upright only 300 wide.
        let data = try Self.largeJPEG(orientation: 6)
        let target = ImageSize(width: 400, height: 10)
        let reduced = try PixelBuffer(data: data, targetSize: target, resizeMode: .aspectFill)
        #expect(reduced.orientation == .right)
        #expect(reduced.width < 1600)
        let covers = Self.covers(reduced, target, .aspectFill)
        #expect(covers, "\(reduced.width)×\(reduced.height)")
        #expect(reduced.uprightSize.width >= 400, "\(reduced.width)×\(reduced.height)")
    }

    @Test("PNG files are not reduced (no DCT scaling)")
    func pngNotReduced() throws {
        let image = try solidImage(RGBA(1, 2, 3), width: 900, height: 700, format: .rgb)
        let decoded = try PixelBuffer(data: image.pngData(), targetSize: ImageSize(width: 8, height: 8))
        #expect(decoded.width == 900 && decoded.height == 700)
    }
}
