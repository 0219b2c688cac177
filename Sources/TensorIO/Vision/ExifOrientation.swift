/// Reads the orientation tag from a JPEG's EXIF block (APP1), without decoding the image.
enum ExifOrientation {
    static func read(from bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data: no EXIF before it
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let segment = offset + 4
            guard length >= 2, segment + length - 2 <= bytes.count else { return nil }
            if marker == 0xE1, length >= 8,
               bytes[segment] == 0x45, bytes[segment + 1] == 0x78, bytes[segment + 2] == 0x69,
               bytes[segment + 3] == 0x66, bytes[segment + 4] == 0, bytes[segment + 5] == 0
            {
                return orientation(inTIFF: UnsafeRawBufferPointer(rebasing: bytes[(segment + 6)..<(segment + length - 2)]))
            }
            offset = segment + length - 2
        }
        return nil
    }

    /// Finds tag 0x0112 in IFD0 of a TIFF header.
    private static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(littleEndian ? at + 2 : at), let low = u16(littleEndian ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, let value = u16(entry + 8) {
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
