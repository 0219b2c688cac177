import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Bad image files and images given to the wrong layers: a thrown ``TensorIOError`` that names the file or
/// layer and the reason, never a crash.
@Suite("Images: bad input")
struct ImageBadInputTests {
    /// Writes `data` as `name` in a temporary folder and tries to decode it from the file.
    static func decodeFile(_ name: String, _ data: Data) throws -> TensorIOError? {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent(name)
            try data.write(to: url)
            let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: url) }
            // The location is the file's path.
            #expect(error?.location == url.path, "\(String(describing: error))")
            #expect(error?.description.contains(name) == true, "\(String(describing: error))")
            // The same with a target size (the reduced-decode path).
            let sized = expectTensorIOError { _ = try PixelBuffer(contentsOf: url, targetSize: ImageSize(width: 8, height: 8)) }
            #expect(sized?.code == error?.code)
            #expect(sized?.location == url.path)
            return error
        }
    }

    @Test("a missing file → io, naming the file")
    func missingFile() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-photo-\(UUID().uuidString).jpg")
        let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: url) }
        #expect(error?.code == .io)
        #expect(error?.location == url.path)
        #expect(error?.description.contains(url.lastPathComponent) == true, "\(String(describing: error))")
        #expect(error?.message == "the image does not exist", "\(String(describing: error))")
    }

    @Test("a folder instead of a file → io, naming it")
    func folder() throws {
        try withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("photo.jpg")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: folder) }
            #expect(error?.code == .io || error?.code == .invalidImage, "\(String(describing: error))")
            #expect(error?.description.contains("photo.jpg") == true, "\(String(describing: error))")
        }
    }

    @Test("a truncated JPEG (cat.jpg cut in half) → invalidImage naming the file")
    func truncatedJPEG() throws {
        let cat = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        let half = cat.prefix(cat.count / 2)
        let error = try Self.decodeFile("half-cat.jpg", half)
        #expect(error?.code == .invalidImage)
        #expect(error?.message.contains("JPEG") == true, "\(String(describing: error))")
        // In memory too (no location then).
        let inMemory = expectTensorIOError { _ = try PixelBuffer(data: Data(half)) }
        #expect(inMemory?.code == .invalidImage)
    }

    @Test("JPEGs cut at other places → invalidImage", arguments: [3, 20, 200, 1000, 40_000])
    func truncatedJPEGs(_ length: Int) throws {
        let cat = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        let error = expectTensorIOError { _ = try PixelBuffer(data: Data(cat.prefix(length))) }
        #expect(error?.code == .invalidImage, "cut at \(length): \(String(describing: error))")
    }

    @Test("a JPEG with its scan data overwritten → invalidImage or a picture, never a crash")
    func corruptJPEG() throws {
        var cat = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        for index in stride(from: 2000, to: cat.count - 2, by: 97) { cat[index] = 0xFF }
        do {
            let image = try PixelBuffer(data: cat)
            #expect(image.width == 451 && image.height == 300)
        } catch let error as TensorIOError {
            #expect(error.code == .invalidImage)
        }
    }

    @Test("a truncated PNG → invalidImage naming the file")
    func truncatedPNG() throws {
        let image = try makeImage(width: 64, height: 64, format: .rgb) { x, y in RGBA(UInt8(x * 4), UInt8(y * 4), UInt8(x ^ y)) }
        let png = try image.pngData()
        let error = try Self.decodeFile("half.png", png.prefix(png.count / 2))
        #expect(error?.code == .invalidImage)
        #expect(error?.message.contains("PNG") == true, "\(String(describing: error))")
        #expect(expectTensorIOError { _ = try PixelBuffer(data: Data(HandMadePNG.signature)) }?.code == .invalidImage)
    }

    @Test("a non-image file (model.json) → invalidImage: not a JPEG or PNG")
    func notAnImage() throws {
        let json = Fixtures.url("pixelbuffer_identity_test.tiobundle").appendingPathComponent("model.json")
        let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: json) }
        #expect(error?.code == .invalidImage)
        #expect(error?.location == json.path)
        #expect(error?.message.contains("not a JPEG or PNG") == true, "\(String(describing: error))")
        #expect(error?.description.contains("model.json") == true)
    }

    static let unsupportedFiles: [(String, [UInt8])] = {
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3B]
        let bmp: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
        var webp: [UInt8] = Array("RIFF".utf8) + [26, 0, 0, 0]
        webp += Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 18)
        return [("image.gif", gif), ("image.bmp", bmp), ("image.webp", webp)]
    }()

    @Test("an unsupported format (GIF, BMP, WebP headers) → invalidImage: not a JPEG or PNG", arguments: unsupportedFiles)
    func unsupportedFormat(_ name: String, _ bytes: [UInt8]) throws {
        let error = try Self.decodeFile(name, Data(bytes))
        #expect(error?.code == .invalidImage)
        #expect(error?.message.contains("not a JPEG or PNG") == true, "\(String(describing: error))")
    }

    @Test("an empty file → invalidImage naming the file")
    func emptyFile() throws {
        let error = try Self.decodeFile("empty.png", Data())
        #expect(error?.code == .invalidImage)
        #expect(expectTensorIOError { _ = try PixelBuffer(data: Data()) }?.code == .invalidImage)
    }

    @Test("a zero-sized PNG (IHDR width or height 0) → invalidImage naming the file",
          arguments: [(UInt32(0), UInt32(1)), (1, 0), (0, 0)])
    func zeroSizedPNG(_ width: UInt32, _ height: UInt32) throws {
        let png = HandMadePNG.withHeader(width: width, height: height)
        let error = try Self.decodeFile("zero.png", png)
        #expect(error?.code == .invalidImage)
        #expect(error?.message.isEmpty == false)
    }

    @Test("a PNG header claiming a huge image is refused before anything is allocated")
    func hugePNG() throws {
        let error = try Self.decodeFile("huge.png", HandMadePNG.withHeader(width: 60_000, height: 60_000))
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("60000×60000 pixels, more than the limit of 67108864") == true, "\(String(describing: error))")
    }

    @Test("a 16384 × 16384 PNG (inside the old 256-megapixel limit) is refused at the default limit, decoded when it is raised")
    func decodedPixelLimit() throws {
        let error = try Self.decodeFile("big.png", HandMadePNG.withHeader(width: 16384, height: 16384))
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("ModelLimits.maximumDecodedImagePixels") == true)
        // Raised, the header passes and decoding fails later on the missing pixel data instead.
        let raised = expectTensorIOError {
            _ = try PixelBuffer(
                data: HandMadePNG.withHeader(width: 16384, height: 16384),
                limits: ModelLimits(maximumDecodedImagePixels: 1 << 28)
            )
        }
        #expect(raised?.code == .invalidImage)
    }

    @Test("a FIFO or a folder given as an image file is refused at once, never read")
    func fifoAsImage() throws {
        try withTemporaryDirectory { folder in
            let fifo = folder.appendingPathComponent("photo.jpg")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: fifo) }
            #expect(error?.code == .io)
            #expect(error?.message.contains("a FIFO, not a regular file") == true, "\(String(describing: error))")
            let folderError = expectTensorIOError { _ = try PixelBuffer(contentsOf: folder) }
            #expect(folderError?.message.contains("a directory, not a regular file") == true)
        }
    }

    @Test("an image file larger than ModelLimits.maximumImageFileBytes is refused before it is read")
    func imageFileLimit() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("big.png")
            try Data(count: 4096).write(to: file)
            let error = expectTensorIOError { _ = try PixelBuffer(contentsOf: file, limits: ModelLimits(maximumImageFileBytes: 1024)) }
            #expect(error?.code == .limitExceeded)
            #expect(error?.location == file.path)
        }
    }

    @Test("the hand-made PNG is well formed: with a 1 × 1 header it is only short of pixel data")
    func handMadePNGIsValid() throws {
        // A sanity check of the zero-size test: with width and height 1 the header is accepted, and
        // decoding fails later (the IDAT holds no pixels) — still invalidImage, still no crash.
        let error = expectTensorIOError { _ = try PixelBuffer(data: HandMadePNG.withHeader(width: 1, height: 1)) }
        #expect(error?.code == .invalidImage)
        #expect(error?.message.contains("zero") == false, "\(String(describing: error))")
        // A real 1 × 1 PNG from the encoder decodes.
        let tiny = try PixelBuffer(data: try solidImage(.white, width: 1, height: 1).pngData())
        #expect(tiny.width == 1 && tiny.height == 1)
    }

    @Test("a JPEG or PNG signature followed by garbage → invalidImage")
    func garbageAfterSignature() {
        let jpeg = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 500))
        #expect(expectTensorIOError { _ = try PixelBuffer(data: jpeg) }?.code == .invalidImage)
        let png = Data(HandMadePNG.signature + [UInt8](repeating: 0x42, count: 500))
        #expect(expectTensorIOError { _ = try PixelBuffer(data: png) }?.code == .invalidImage)
    }

    // MARK: - Images and numbers given to the wrong layers

    @Test("an image given to an array layer → invalidInput naming the layer")
    func imageToArrayLayer() throws {
        let model = try Fixtures.model("1_in_1_out_vectors_test.tiobundle")
        let image = try solidImage(.white, width: 2, height: 2)
        let error = expectTensorIOError { _ = try model.run(image) }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input\"", "\(String(describing: error))")
        #expect(error?.message.contains("image") == true, "\(String(describing: error))")
        // By name too.
        let named = expectTensorIOError { _ = try model.run(["input": image]) }
        #expect(named?.code == .invalidInput)
        #expect(named?.location == "layer \"input\"")
    }

    @Test("an image given to a string layer → invalidInput naming the layer")
    func imageToStringLayer() throws {
        let model = try Fixtures.model("1_in_1_out_string_test.tiobundle")
        let error = expectTensorIOError { _ = try model.run(try solidImage(.white, width: 1, height: 1)) }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input\"", "\(String(describing: error))")
    }

    @Test("writeImage on an array layer → invalidInput naming it")
    func writeImageArrayLayer() throws {
        let layer = LayerDescription(name: "features", shape: [12], kind: .array())
        var values = [Float](repeating: 0, count: 12)
        let error = expectTensorIOError {
            try values.withUnsafeMutableBytes { try layer.writeImage(try solidImage(.white, width: 2, height: 2), into: $0) }
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.description.contains("features") == true, "\(String(describing: error))")
    }

    @Test("writeImage into a buffer that is too small or a type that cannot hold pixels → invalidInput")
    func writeImageBadBuffer() throws {
        let layer = LayerDescription(name: "picture", shape: [4, 4, 3], kind: .image(format: .rgb))
        let image = try solidImage(.white, width: 4, height: 4)
        var small = [Float](repeating: 0, count: 47)
        let tooSmall = expectTensorIOError { try small.withUnsafeMutableBytes { try layer.writeImage(image, into: $0) } }
        #expect(tooSmall?.code == .invalidInput)
        #expect(tooSmall?.description.contains("picture") == true, "\(String(describing: tooSmall))")
        var ints = [Int32](repeating: 0, count: 48)
        let wrongType = expectTensorIOError { try ints.withUnsafeMutableBytes { try layer.writeImage(image, into: $0, dataType: .int32) } }
        #expect(wrongType?.code == .invalidInput)
        #expect(wrongType?.description.contains("picture") == true, "\(String(describing: wrongType))")
    }

    @Test("numbers of the wrong count given to an image layer → invalidInput naming the layer",
          arguments: [3, 224 * 224 * 3 - 1, 224 * 224 * 3 + 1])
    func wrongNumbersToImageLayer(_ count: Int) throws {
        let model = try Fixtures.model("pixelbuffer_identity_test.tiobundle")
        let error = expectTensorIOError { _ = try model.run([Float](repeating: 0.5, count: count)) }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input\"", "\(String(describing: error))")
        #expect(error?.message.contains("\(224 * 224 * 3)") == true, "\(String(describing: error))")
        #expect(error?.message.contains("\(count)") == true, "\(String(describing: error))")
    }

    @Test("two_images_test: a good image and wrong numbers → invalidInput naming the second layer")
    func twoImagesOneBad() throws {
        let model = try Fixtures.model("two_images_test.tiobundle")
        let white = try solidImage(.white, width: 4, height: 4)
        let byName = expectTensorIOError { _ = try model.run(["left": InputValue.image(white), "right": [1, 2, 3]]) }
        #expect(byName?.code == .invalidInput)
        #expect(byName?.location == "layer \"right\"", "\(String(describing: byName))")
        // Only one image for two image layers.
        let one = expectTensorIOError { _ = try model.run(white) }
        #expect(one?.code == .invalidInput)
        #expect(one?.message.contains("2 inputs") == true, "\(String(describing: one))")
        // An unknown layer name.
        let unknown = expectTensorIOError { _ = try model.run(["left": white, "middle": white]) }
        #expect(unknown?.code == .invalidInput)
        #expect(unknown?.message.contains("middle") == true, "\(String(describing: unknown))")
    }

    @Test("bytes of the wrong size given to an image layer → invalidInput naming the layer")
    func wrongBytesToImageLayer() throws {
        let model = try Fixtures.model("image_uint8_test.tiobundle")
        let error = expectTensorIOError { _ = try model.run(Data(count: 71)) }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input\"", "\(String(describing: error))")
        // The right size goes straight in as raw pixels.
        let bytes = Data((0..<72).map { UInt8($0 * 3) })
        let output = try model.run(bytes)["output"].image
        #expect(output.converted(to: .rgb).bytes == Array(bytes))
    }
}
