import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Image input and output layers through the image fixture bundles (Tests/Fixtures/README.md, "Image
/// bundles"), run with LiteRT.
@Suite("Images: image layers")
struct ImageLayerTests {
    /// The README's 224 × 224 gradient: R = column, G = row, B = (column + row) mod 256.
    static func gradient(_ format: PixelBuffer.Format = .rgba) throws -> PixelBuffer {
        try makeImage(width: 224, height: 224, format: format) { x, y in RGBA(UInt8(x), UInt8(y), UInt8((x + y) % 256)) }
    }

    static func outputImage(_ bundle: String, _ input: some ModelInput) throws -> PixelBuffer {
        let model = try Fixtures.model(bundle)
        return try model.run(input)["output"].image
    }

    // MARK: - pixelbuffer_identity_test and pixelbuffer_normalization_test

    @Test("pixelbuffer_identity_test: ARGB (255, 255, 0, 0), solid red → red (±1)")
    func identityRed() throws {
        // The original's vector: a 32ARGB buffer filled with alpha 255, red 255.
        let argb = try PixelBuffer(width: 224, height: 224, format: .argb,
                                   bytes: Array([[UInt8]](repeating: [255, 255, 0, 0], count: 224 * 224).joined()))
        let output = try Self.outputImage("pixelbuffer_identity_test.tiobundle", argb)
        #expect(output.width == 224 && output.height == 224)
        #expect(output.format == .rgba)
        #expect(output.orientation == .up)
        let offBy = largestDifference(pixelGrid(output), pixelGrid(argb))
        #expect(offBy <= 1, "off by \(offBy): \(pixelGrid(output)[0][0])")
    }

    @Test("pixelbuffer_identity_test: solid red from every colour format (±1)",
          arguments: PixelBuffer.Format.allCases.filter { $0 != .gray })
    func identityFormats(_ format: PixelBuffer.Format) throws {
        let image = try solidImage(RGBA(255, 0, 0), width: 224, height: 224, format: format)
        let output = try Self.outputImage("pixelbuffer_identity_test.tiobundle", image)
        let offBy = largestDifference(pixelGrid(output), Self.solid(RGBA(255, 0, 0)))
        #expect(offBy <= 1, "\(format): off by \(offBy): \(pixelGrid(output)[0][0])")
    }

    @Test("pixelbuffer_identity_test: the gradient comes back exactly",
          arguments: [PixelBuffer.Format.rgba, .rgb, .bgra])
    func identityGradient(_ format: PixelBuffer.Format) throws {
        let image = try Self.gradient(format)
        let output = try Self.outputImage("pixelbuffer_identity_test.tiobundle", image)
        #expect(largestDifference(pixelGrid(output), pixelGrid(image)) == 0)
    }

    @Test("pixelbuffer_identity_test: a gray buffer comes back as the same gray in RGB")
    func identityFromGray() throws {
        let image = try makeImage(width: 224, height: 224, format: .gray) { x, y in RGBA(UInt8((x + 2 * y) % 256), 0, 0) }
        let output = try Self.outputImage("pixelbuffer_identity_test.tiobundle", image)
        #expect(largestDifference(pixelGrid(output), pixelGrid(image)) == 0)
    }

    @Test("pixelbuffer_identity_test: the tensor values are the pixels / 255")
    func identityTensor() throws {
        let layer = try Fixtures.bundle("pixelbuffer_identity_test.tiobundle").inputs[0]
        var values = [Float](repeating: -1, count: 224 * 224 * 3)
        try values.withUnsafeMutableBytes { try layer.writeImage(try solidImage(RGBA(255, 51, 0), width: 224, height: 224), into: $0) }
        // p · (1/255) with 1/255 a float32 constant (the fixtures README), so 51 gives 0.20000002.
        let step: Float = 1 / 255
        #expect(Array(values.prefix(6)) == [255 * step, 51 * step, 0, 255 * step, 51 * step, 0])
        #expect(values.allSatisfy { (0...1).contains($0) })
    }

    @Test("pixelbuffer_normalization_test: solid (255, 0, 255) → the same (±1)",
          arguments: [PixelBuffer.Format.rgba, .argb, .bgr])
    func normalizationSolid(_ format: PixelBuffer.Format) throws {
        let image = try solidImage(RGBA(255, 0, 255), width: 224, height: 224, format: format)
        let output = try Self.outputImage("pixelbuffer_normalization_test.tiobundle", image)
        let offBy = largestDifference(pixelGrid(output), Self.solid(RGBA(255, 0, 255)))
        #expect(offBy <= 1, "off by \(offBy): \(pixelGrid(output)[0][0])")
    }

    @Test("pixelbuffer_normalization_test: the gradient comes back exactly")
    func normalizationGradient() throws {
        let image = try Self.gradient()
        let output = try Self.outputImage("pixelbuffer_normalization_test.tiobundle", image)
        #expect(largestDifference(pixelGrid(output), pixelGrid(image)) == 0)
    }

    @Test("pixelbuffer_normalization_test: the model's raw output is 2x − 1")
    func normalizationTensor() throws {
        // Read the output tensor through an edited copy whose output is an array layer.
        try withFixtureCopy("pixelbuffer_normalization_test.tiobundle", edit: { json in
            json[path: "outputs[0].type"] = "array"
            json[path: "outputs[0].denormalize"] = nil
            json[path: "outputs[0].format"] = nil
        }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let image = try solidImage(RGBA(255, 0, 255), width: 224, height: 224)
            let values = try model.run(image)["output"].values(as: Double.self)
            #expect(values.count == 224 * 224 * 3)
            #expect(isClose(Array(values.prefix(3)), [1, -1, 1], tolerance: 1e-6))
        }
    }

    static func solid(_ colour: RGBA) -> [[RGBA]] {
        Array(repeating: Array(repeating: colour, count: 224), count: 224)
    }

    // MARK: - image_bgr_bias_test

    @Test("image_bgr_bias_test: solid (200, 100, 50) → [49, 90, 100]", arguments: [PixelBuffer.Format.rgba, .rgb, .bgr, .bgra, .argb])
    func bgrBiasSolid(_ format: PixelBuffer.Format) throws {
        let model = try Fixtures.model("image_bgr_bias_test.tiobundle")
        let output = try model.run(try solidImage(RGBA(200, 100, 50), width: 4, height: 4, format: format))["output"]
        let values = try output.values(as: Double.self)
        #expect(isClose(values, [49, 90, 100], tolerance: 1e-4), "\(values)")
    }

    @Test("image_bgr_bias_test: the gradient (10i, 255 − 10i, 5i + 3) → [39.5, 170, −25]")
    func bgrBiasGradient() throws {
        let model = try Fixtures.model("image_bgr_bias_test.tiobundle")
        let image = try makeImage(width: 4, height: 4) { x, y in
            let i = 4 * y + x
            return RGBA(UInt8(10 * i), UInt8(255 - 10 * i), UInt8(5 * i + 3))
        }
        let output = try model.run(image)["output"]
        let values = try output.values(as: Double.self)
        #expect(isClose(values, [39.5, 170, -25], tolerance: 1e-4), "\(values)")
    }

    @Test("image_bgr_bias_test: writeImage puts (B − 1, G − 10, R − 100) in each pixel")
    func bgrBiasTensor() throws {
        let layer = try Fixtures.bundle("image_bgr_bias_test.tiobundle").inputs[0]
        #expect(layer.kind == .image(
            format: .bgr, normalization: .scaleAndBias(scale: ChannelValues(all: 1), bias: ChannelValues(red: -100, green: -10, blue: -1))
        ))
        var values = [Float](repeating: 0, count: 48)
        try values.withUnsafeMutableBytes { try layer.writeImage(try solidImage(RGBA(200, 100, 50), width: 4, height: 4), into: $0) }
        for pixel in 0..<16 { #expect(Array(values[(3 * pixel)..<(3 * pixel + 3)]) == [49, 90, 100]) }
    }

    // MARK: - image_gray_test (GRAY in and out)

    /// The README's gray gradient: g = 32·row + 4·column.
    static func grayGradient(_ format: PixelBuffer.Format) throws -> PixelBuffer {
        try makeImage(width: 8, height: 8, format: format) { x, y in
            let g = UInt8(32 * y + 4 * x)
            return RGBA(g, g, g)
        }
    }

    @Test("image_gray_test: gray in → inverted gray out, from a gray or a colour buffer",
          arguments: [PixelBuffer.Format.gray, .rgb, .rgba, .bgra, .argb, .bgr])
    func grayGradient(_ format: PixelBuffer.Format) throws {
        let output = try Self.outputImage("image_gray_test.tiobundle", try Self.grayGradient(format))
        #expect(output.format == .gray)
        #expect(output.width == 8 && output.height == 8)
        #expect(output.bytes.count == 64)
        var expected: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<8 { expected.append(UInt8(255 - (32 * y + 4 * x))) }
        }
        #expect(output.bytes == expected)
    }

    @Test("image_gray_test: the checkerboard is inverted")
    func grayCheckerboard() throws {
        let image = try makeImage(width: 8, height: 8, format: .gray) { x, y in (x + y) % 2 == 1 ? .white : .black }
        let output = try Self.outputImage("image_gray_test.tiobundle", image)
        #expect(output.bytes == image.bytes.map { 255 - $0 })
    }

    @Test("image_gray_test: a colour image is turned into full-range luminance first")
    func grayFromColour() throws {
        // Luma of (200, 100, 50) = 124.2 → 124 (±1), inverted 131 (±1); pure red 76 → 179.
        let colours: [(RGBA, Int)] = [(RGBA(200, 100, 50), 131), (RGBA(255, 0, 0), 179), (RGBA(0, 0, 255), 226)]
        for (colour, inverted) in colours {
            let output = try Self.outputImage("image_gray_test.tiobundle", try solidImage(colour, width: 8, height: 8, format: .rgb))
            #expect(output.bytes.allSatisfy { abs(Int($0) - inverted) <= 1 }, "\(colour) → \(output.bytes[0]), expected \(inverted)")
        }
    }

    @Test("image_gray_test: gray output written to PNG reads back gray and equal")
    func grayOutputPNG() throws {
        let output = try Self.outputImage("image_gray_test.tiobundle", try Self.grayGradient(.gray))
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("gray-output.png")
            try output.write(to: url)
            let reread = try PixelBuffer(contentsOf: url)
            #expect(reread.format == .gray)
            #expect(reread == output)
        }
    }

    // MARK: - image_uint8_test (raw pixels into a quantized model)

    @Test("image_uint8_test: raw pixels straight in and out, 6 high × 4 wide")
    func uint8Raw() throws {
        let bundle = try Fixtures.bundle("image_uint8_test.tiobundle")
        #expect(bundle.inputs[0].imageVolume == ImageVolume(height: 6, width: 4, channels: 3))
        let image = try makeImage(width: 4, height: 6, format: .rgb) { x, y in
            let base = UInt8(40 * y + 10 * x)
            return RGBA(base, base + 1, base + 2)
        }
        let output = try Self.outputImage("image_uint8_test.tiobundle", image)
        #expect(output.width == 4 && output.height == 6)
        #expect(output == image.converted(to: .rgba))
    }

    // MARK: - two_images_test (two image inputs)

    static let colour = RGBA(51, 102, 153)

    static func twoImages(_ input: some ModelInput) throws -> [Double]? {
        let model = try Fixtures.model("two_images_test.tiobundle")
        return try model.run(input)["output"].values(as: Double.self)
    }

    @Test("two_images_test by name: white, (51, 102, 153) → [1, 0.4]")
    func twoImagesByName() throws {
        let white = try solidImage(.white, width: 4, height: 4)
        let colour = try solidImage(Self.colour, width: 4, height: 4, format: .bgr)
        #expect(isClose(try Self.twoImages(["left": white, "right": colour]), [1, 0.4], tolerance: 1e-6))
        // The dictionary's order does not matter; swapping the names swaps the outputs.
        #expect(isClose(try Self.twoImages(["right": white, "left": colour]), [0.4, 1], tolerance: 1e-6))
        let mixed: [String: InputValue] = ["right": .image(colour), "left": .image(white)]
        #expect(isClose(try Self.twoImages(mixed), [1, 0.4], tolerance: 1e-6))
    }

    @Test("two_images_test by position: [left, right]")
    func twoImagesByPosition() throws {
        let white = try solidImage(.white, width: 4, height: 4)
        let black = try solidImage(.black, width: 4, height: 4)
        let colour = try solidImage(Self.colour, width: 4, height: 4)
        #expect(isClose(try Self.twoImages([white, colour]), [1, 0.4], tolerance: 1e-6))
        #expect(isClose(try Self.twoImages([black, white]), [0, 1], tolerance: 1e-6))
        #expect(isClose(try Self.twoImages(InputValue.positional([.image(colour), .image(black)])), [0.4, 0], tolerance: 1e-6))
    }

    @Test("two_images_test: images of other sizes are fitted to each layer")
    func twoImagesScaled() throws {
        let white = try solidImage(.white, width: 16, height: 8)
        let colour = try solidImage(Self.colour, width: 8, height: 8)
        #expect(isClose(try Self.twoImages(["left": white, "right": colour]), [1, 0.4], tolerance: 1e-6))
    }

    // MARK: - Image outputs to PNG

    @Test("an image output written to PNG reads back equal (RGBA, alpha 255)")
    func outputPNG() throws {
        let output = try Self.outputImage("pixelbuffer_identity_test.tiobundle", try Self.gradient(.rgb))
        #expect(pixelGrid(output).joined().allSatisfy { $0.a == 255 })
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("output.png")
            try output.write(to: url)
            let reread = try PixelBuffer(contentsOf: url)
            #expect(reread.format == .rgba)
            let equal = reread == output
            #expect(equal, "largest difference \(largestDifference(pixelGrid(reread), pixelGrid(output)))")
        }
    }

    @Test("a uint8 image output written to PNG reads back equal")
    func uint8OutputPNG() throws {
        let image = try makeImage(width: 4, height: 6) { x, y in RGBA(UInt8(x * 60), UInt8(y * 50), 77) }
        let output = try Self.outputImage("image_uint8_test.tiobundle", image)
        #expect(output == image)
        let reread = try PixelBuffer(data: output.pngData())
        #expect(reread == output)
    }

    // MARK: - Channel order and scale/bias on image outputs (edited copies of the identity bundle)

    /// Runs an edited copy of pixelbuffer_identity_test ((x + 1) − 1 on the tensor) on a 224 × 224 image
    /// of one colour and returns the output's first pixel.
    static func editedIdentity(_ colour: RGBA, edit: @escaping (inout JSONObject) throws -> Void) throws -> RGBA {
        try withFixtureCopy("pixelbuffer_identity_test.tiobundle", edit: edit) { url in
            let model = try ModelBundle(at: url).makeModel()
            let output = try model.run(try solidImage(colour, width: 224, height: 224))["output"].image
            let grid = pixelGrid(output)
            #expect(Set(grid.joined()).count == 1, "not one colour")
            return grid[0][0]
        }
    }

    @Test("BGR in and BGR out: the colours come back")
    func bgrOutput() throws {
        let colour = RGBA(200, 100, 50)
        let output = try Self.editedIdentity(colour) { json in
            json[path: "inputs[0].format"] = "BGR"
            json[path: "outputs[0].format"] = "BGR"
        }
        #expect(output == colour)
    }

    @Test("BGR in, RGB out: red and blue swap (the tensor really holds blue first)")
    func bgrInRGBOut() throws {
        let output = try Self.editedIdentity(RGBA(200, 100, 50)) { json in
            json[path: "inputs[0].format"] = "BGR"
        }
        #expect(output == RGBA(50, 100, 200))
    }

    @Test("scale and per-colour bias: normalize then denormalize gives the colour back, RGB and BGR",
          arguments: ["RGB", "BGR"])
    func scaleAndBias(_ format: String) throws {
        // In: v = 2p + bias (r 1, g 2, b 3). Out: (v + bias') · 0.5 with bias' = −bias → p.
        let colour = RGBA(200, 100, 50)
        let output = try Self.editedIdentity(colour) { json in
            json[path: "inputs[0].format"] = format
            json[path: "outputs[0].format"] = format
            json[path: "inputs[0].normalize"] = ["scale": 2, "bias": ["r": 1, "g": 2, "b": 3]] as JSONObject
            json[path: "outputs[0].denormalize"] = ["scale": 0.5, "bias": ["r": -1, "g": -2, "b": -3]] as JSONObject
        }
        #expect(output == colour)
    }

    @Test("denormalize clamps to 0…255: [-1,1] out of a [0,1] tensor halves the range")
    func denormalizeRange() throws {
        // Tensor p/255; denormalized from [-1,1]: (v + 1) · 127.5.
        let output = try Self.editedIdentity(RGBA(255, 0, 51)) { json in
            json[path: "outputs[0].denormalize"] = ["standard": "[-1,1]"] as JSONObject
        }
        #expect(output == RGBA(255, 128, 153), "\(output)")
    }

    // MARK: - Alpha

    @Test("alpha is skipped, not premultiplied, on the way into a layer")
    func alphaSkipped() throws {
        let image = try makeImage(width: 2, height: 3) { x, y in RGBA(UInt8(10 + 100 * y), UInt8(20 + 100 * x), 77, UInt8(x * 100 + y * 20)) }
        let tensor = try imageTensor(image, width: 2, height: 3)
        #expect(rgbGrid(tensor, width: 2) == pixelGrid(image).map { $0.map { RGBA($0.r, $0.g, $0.b) } })
        // Scaled too: a transparent solid colour keeps its colour.
        let transparent = try solidImage(RGBA(90, 180, 30, 0), width: 8, height: 8)
        let scaled = try imageTensor(transparent, width: 4, height: 4)
        #expect(scaled.allSatisfy { [90, 180, 30].contains($0) }, "\(scaled.prefix(6))")
    }

    // MARK: - Numbers into image layers

    @Test("numbers of the right count go straight into an image layer's tensor")
    func numbersIntoImageLayer() throws {
        let model = try Fixtures.model("image_asymmetric_test.tiobundle")
        let values = (0..<18).map { Float($0 * 7) }
        let output = try model.run(values)["output"].values(as: Double.self)
        #expect(output == values.map(Double.init))
    }
}
