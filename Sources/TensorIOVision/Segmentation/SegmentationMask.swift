public import TensorIO

/// What a segmenter found on a photo: one category per pixel of the photo as displayed (after its EXIF
/// orientation), and each category's confidence per pixel on request.
///
/// The model's scores are turned into confidences at the tensor's resolution (the description's
/// activation), resized bilinearly onto the photo through the image input's fit (fill's crop, fit's
/// letterbox, stretch), and each pixel takes its most confident category — MediaPipe's order. A
/// one-category model (a foreground) has two categories here: 0 background, 1 foreground, a pixel being
/// foreground when its confidence passes the description's threshold.
public struct SegmentationMask: Sendable {
    /// The photo's width as displayed, in pixels.
    public let width: Int
    /// The photo's height as displayed, in pixels.
    public let height: Int
    /// Each pixel's category, row by row from the top-left corner (`width × height` values).
    public let categoryIndices: [UInt8]
    /// The number of categories: the output's channels, or 2 for a one-channel model.
    public let categoryCount: Int
    /// Each category's label, by index (`nil` where the model has none; for a one-channel model, index 0
    /// is "background" and index 1 the model's only label, or "foreground" when it has none).
    public let labels: [String?]

    /// The confidences at the tensor's resolution, activated, and how they map onto the photo.
    let field: ConfidenceField

    /// Each category's share of the photo's pixels, by index (`categoryCount` values, summing to 1).
    public var fractions: [Double] {
        var counts = [Int](repeating: 0, count: categoryCount)
        for index in categoryIndices where Int(index) < categoryCount { counts[Int(index)] += 1 }
        let total = Double(max(1, categoryIndices.count))
        return counts.map { Double($0) / total }
    }

    /// The category indices as an 8-bit gray image at the photo's displayed size (write it with
    /// `PixelBuffer/pngData()`): each pixel's value is its category index.
    ///
    /// - Returns: The image, upright.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidImage`) for an empty mask.
    public func categoryImage() throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .gray, bytes: categoryIndices)
    }

    /// The confidence of category `index` at every pixel of the photo, row by row (`width × height`
    /// values): the activated scores resized bilinearly onto the photo. For a one-channel model, category
    /// 1 is the model's confidence and category 0 its complement.
    ///
    /// - Parameter index: A category index, `0..<categoryCount`.
    /// - Returns: The confidences.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidInput`) for an index out of range.
    public func confidences(forCategory index: Int) throws -> [Float] {
        guard (0..<categoryCount).contains(index) else {
            throw TensorIOError(.invalidInput, "no category \(index): the mask has \(categoryCount) categories (0…\(categoryCount - 1))")
        }
        if field.channels == 1 {
            let foreground = field.resized(channel: 0)
            return index == 1 ? foreground : foreground.map { 1 - $0 }
        }
        return field.resized(channel: index)
    }
}
