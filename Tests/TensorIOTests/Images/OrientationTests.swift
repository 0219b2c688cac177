import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// The eight EXIF orientations, checked pixel by pixel on hand-made asymmetric images, and the EXIF tag
/// of a real JPEG.
@Suite("Images: orientation")
struct OrientationTests {
    /// Six distinct colours, numbered 0…5; every channel differs, so channel swaps show too.
    static let colours: [RGBA] = [
        RGBA(10, 240, 50), RGBA(50, 200, 90), RGBA(90, 160, 130),
        RGBA(130, 120, 170), RGBA(170, 80, 210), RGBA(210, 40, 250),
    ]

    /// The stored image, 3 wide × 2 high:
    /// ```
    /// 0 1 2
    /// 3 4 5
    /// ```
    static func storedImage(_ orientation: ImageOrientation, format: PixelBuffer.Format = .rgba) throws -> PixelBuffer {
        try makeImage(width: 3, height: 2, format: format, orientation: orientation) { x, y in colours[y * 3 + x] }
    }

    /// The upright image, written out by hand from the EXIF definitions (rows of colour numbers).
    static let upright: [ImageOrientation: [[Int]]] = [
        .up: [[0, 1, 2], [3, 4, 5]],  // 1: identity
        .upMirrored: [[2, 1, 0], [5, 4, 3]],  // 2: mirror left-right
        .down: [[5, 4, 3], [2, 1, 0]],  // 3: rotate 180°
        .downMirrored: [[3, 4, 5], [0, 1, 2]],  // 4: mirror top-bottom
        .leftMirrored: [[0, 3], [1, 4], [2, 5]],  // 5: transpose
        .right: [[3, 0], [4, 1], [5, 2]],  // 6: rotate 90° clockwise to display
        .rightMirrored: [[5, 2], [4, 1], [3, 0]],  // 7: transverse
        .left: [[2, 5], [1, 4], [0, 3]],  // 8: rotate 90° counter-clockwise to display
    ]

    /// The stored pixel shown at upright column `u`, row `v` of a stored `width × height` image, from the
    /// EXIF definitions (checked against the hand-written table above).
    static func storedPosition(_ orientation: ImageOrientation, u: Int, v: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch orientation.rawValue {
        case 1: (u, v)
        case 2: (width - 1 - u, v)
        case 3: (width - 1 - u, height - 1 - v)
        case 4: (u, height - 1 - v)
        case 5: (v, u)
        case 6: (v, height - 1 - u)
        case 7: (width - 1 - v, height - 1 - u)
        default: (width - 1 - v, u)
        }
    }

    /// The upright pixels of `image`'s stored pixels, by the EXIF definitions.
    static func expectedUpright(_ stored: [[RGBA]], _ orientation: ImageOrientation) -> [[RGBA]] {
        let height = stored.count, width = stored[0].count
        let swaps = orientation.rawValue >= 5
        let (uprightWidth, uprightHeight) = swaps ? (height, width) : (width, height)
        return (0..<uprightHeight).map { v in
            (0..<uprightWidth).map { u in
                let p = storedPosition(orientation, u: u, v: v, width: width, height: height)
                return stored[p.y][p.x]
            }
        }
    }

    @Test("the test's EXIF mapping agrees with the hand-written table", arguments: ImageOrientation.allCases)
    func mappingTable(_ orientation: ImageOrientation) throws {
        let stored = [[0, 1, 2], [3, 4, 5]].map { $0.map { Self.colours[$0] } }
        let table = try #require(Self.upright[orientation]).map { $0.map { Self.colours[$0] } }
        #expect(Self.expectedUpright(stored, orientation) == table)
    }

    @Test("each orientation through writeImage (stretch to the upright size, raw floats)",
          arguments: ImageOrientation.allCases, [PixelBuffer.Format.rgba, .bgr, .argb])
    func writeImage(_ orientation: ImageOrientation, _ format: PixelBuffer.Format) throws {
        let image = try Self.storedImage(orientation, format: format)
        let (width, height) = image.uprightSize
        let tensor = try imageTensor(image, width: width, height: height, mode: .stretch)
        let expected = try #require(Self.upright[orientation]).map { $0.map { Self.colours[$0] } }
        // Exact: the tensor holds the raw pixel values, unscaled.
        #expect(tensor.allSatisfy { $0 == $0.rounded() }, "\(tensor)")
        #expect(rgbGrid(tensor, width: width) == expected, "orientation \(orientation.rawValue) from \(format)")
    }

    @Test("each orientation with every fit mode at the upright size gives the same pixels",
          arguments: ImageOrientation.allCases, ImageResizeMode.allCases)
    func modesAtUprightSize(_ orientation: ImageOrientation, _ mode: ImageResizeMode) throws {
        let image = try Self.storedImage(orientation)
        let (width, height) = image.uprightSize
        let tensor = try imageTensor(image, width: width, height: height, mode: mode)
        let expected = try #require(Self.upright[orientation]).map { $0.map { Self.colours[$0] } }
        #expect(rgbGrid(tensor, width: width) == expected, "orientation \(orientation.rawValue), \(mode)")
    }

    @Test("each orientation while scaling down: 2×2 blocks of each colour", arguments: ImageOrientation.allCases)
    func orientationWhileScaling(_ orientation: ImageOrientation) throws {
        // 6 × 4 stored, each of the six colours a 2 × 2 block: halving gives the 3 × 2 image back.
        let image = try makeImage(width: 6, height: 4, orientation: orientation) { x, y in
            Self.colours[(y / 2) * 3 + x / 2]
        }
        let (width, height) = orientation.swapsDimensions ? (2, 3) : (3, 2)
        let tensor = try imageTensor(image, width: width, height: height, mode: .stretch)
        let expected = try #require(Self.upright[orientation]).map { $0.map { Self.colours[$0] } }
        #expect(rgbGrid(tensor, width: width) == expected, "orientation \(orientation.rawValue)")
    }

    @Test("each orientation with a centre crop: the crop is taken in upright coordinates",
          arguments: ImageOrientation.allCases)
    func orientationWithCrop(_ orientation: ImageOrientation) throws {
        // Upright 2 wide × 6 high in every case; every pixel distinct. Aspect fill to 2 × 2 keeps the
        // upright rows 2 and 3, at scale 1.
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (6, 2) : (2, 6)
        let colour = { (x: Int, y: Int) in RGBA(UInt8(20 + 30 * x), UInt8(20 + 18 * y), UInt8(200 - 10 * (x + y))) }
        let image = try makeImage(width: storedWidth, height: storedHeight, orientation: orientation, colour)
        let upright = Self.expectedUpright(pixelGrid(image), orientation)
        #expect(upright.count == 6 && upright[0].count == 2)
        let tensor = try imageTensor(image, width: 2, height: 2, mode: .aspectFill)
        #expect(rgbGrid(tensor, width: 2) == Array(upright[2...3]).map { $0.map { RGBA($0.r, $0.g, $0.b) } },
                "orientation \(orientation.rawValue)")
    }

    // MARK: - Through a model

    /// `image_asymmetric_test` (height 3, width 2, raw floats, array output): the model gives back the
    /// tensor it was given.
    @Test("each orientation through image_asymmetric_test", arguments: ImageOrientation.allCases)
    func throughModel(_ orientation: ImageOrientation) throws {
        let model = try Fixtures.model("image_asymmetric_test.tiobundle")
        // The upright image must be 2 wide × 3 high: stored 3 × 2 for 5–8, 2 × 3 for 1–4.
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (3, 2) : (2, 3)
        let image = try makeImage(width: storedWidth, height: storedHeight, orientation: orientation) { x, y in
            Self.colours[y * storedWidth + x]
        }
        #expect(image.uprightSize == (2, 3) as (Int, Int))
        let output = try model.run(image)["output"]
        #expect((try output.shape) == [3, 2, 3])
        let values = (try output.values(as: Double.self)).map(Float.init)
        let expected = Self.expectedUpright(pixelGrid(image), orientation)
        #expect(rgbGrid(values, width: 2) == expected, "orientation \(orientation.rawValue)")
    }

    @Test("image_asymmetric_test's own vector: element [y][x][c] = 100y + 10x + c")
    func asymmetricVector() throws {
        let model = try Fixtures.model("image_asymmetric_test.tiobundle")
        let image = try makeImage(width: 2, height: 3) { x, y in
            RGBA(UInt8(100 * y + 10 * x), UInt8(100 * y + 10 * x + 1), UInt8(100 * y + 10 * x + 2))
        }
        let output = try model.run(image)["output"].values(as: Double.self)
        #expect(output == [0, 1, 2, 10, 11, 12, 100, 101, 102, 110, 111, 112, 200, 201, 202, 210, 211, 212])
    }

    // MARK: - A real JPEG with an EXIF orientation

    @Test("cat.jpg has no orientation tag")
    func catIsUp() throws {
        let cat = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"))
        #expect(cat.orientation == .up)
        #expect(cat.width == 451 && cat.height == 300)
        #expect(cat.uprightSize == (451, 300) as (Int, Int))
    }

    @Test("an APP1 Exif segment's orientation is read (little- and big-endian TIFF)",
          arguments: ImageOrientation.allCases, [false, true])
    func exifOrientation(_ orientation: ImageOrientation, _ bigEndian: Bool) throws {
        let original = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        let tagged = original.insertingExifOrientation(UInt16(orientation.rawValue), bigEndian: bigEndian)
        #expect(tagged.count == original.count + 36)
        let image = try PixelBuffer(data: tagged)
        #expect(image.orientation == orientation)
        #expect(image.width == 451 && image.height == 300)
    }

    @Test("cat.jpg with orientation 6: read as .right, upright size swapped, pixels turned clockwise")
    func catRotated() throws {
        let original = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        let tagged = original.insertingExifOrientation(6)
        // The segment is right after SOI, as written by hand.
        #expect(Array(tagged.prefix(6)) == [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x22])
        #expect(Array(tagged[6..<12]) == Array("Exif".utf8) + [0, 0])
        #expect(Array(tagged[12..<16]) == [0x49, 0x49, 0x2A, 0x00])

        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("cat-rotated.jpg")
            try tagged.write(to: url)
            let rotated = try PixelBuffer(contentsOf: url)
            #expect(rotated.orientation == .right)
            #expect(rotated.width == 451 && rotated.height == 300)
            #expect(rotated.uprightSize == (300, 451) as (Int, Int))

            // The same stored pixels as the untagged file.
            let plain = try PixelBuffer(contentsOf: ImageFixtures.photo("cat.jpg"))
            let samePixels = rotated.bytes == plain.bytes
            #expect(samePixels)

            // Into a layer of the upright size, unscaled: the stored image turned 90° clockwise.
            let tensor = try imageTensor(rotated, width: 300, height: 451, mode: .stretch)
            let grid = rgbGrid(tensor, width: 300)
            let stored = pixelGrid(plain.converted(to: .rgb))
            var mismatches = 0
            for v in 0..<451 {
                for u in 0..<300 where grid[v][u] != stored[299 - u][v] { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }

    @Test("a JPEG with an unknown orientation value or no IFD entry reads as .up")
    func badExif() throws {
        let original = try Data(contentsOf: ImageFixtures.photo("cat.jpg"))
        #expect(try PixelBuffer(data: original.insertingExifOrientation(0)).orientation == .up)
        #expect(try PixelBuffer(data: original.insertingExifOrientation(9)).orientation == .up)
    }
}
