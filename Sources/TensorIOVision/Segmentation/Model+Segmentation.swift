public import Foundation
public import TensorIO

extension Model {
    /// Segments a photo: runs the model and turns its output into a category per pixel of the photo as
    /// displayed, as the bundle's `segmentation` description says (docs/model-json.md, "Segmentation").
    ///
    /// The photo is fitted and resampled as the image input's `resize` and `scaling` say (or the
    /// configuration, when it sets them); the confidences are resized back through that fit and the photo's
    /// EXIF orientation.
    ///
    /// - Parameter photo: The photo, in any format and orientation.
    /// - Returns: The mask, at the photo's displayed size.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/unsupported` when the bundle describes no
    ///   segmentation or has not one image input; `TensorIOError/Code/outputMismatch` when the output
    ///   disagrees with the description; what `run(_:)-(InputValue)` throws.
    public func segment(_ photo: PixelBuffer) throws -> SegmentationMask {
        let decoder = try SegmentationDecoder(bundle: bundle, configuration: configuration)
        return try decoder.mask(in: try run(.image(photo)), photo: photo.displayedSize)
    }

    /// Segments a photo without blocking the calling task's thread; see `segment(_:)`.
    ///
    /// - Parameter photo: The photo.
    /// - Returns: The mask, at the photo's displayed size.
    /// - Throws: As the synchronous call.
    public func segment(_ photo: PixelBuffer) async throws -> SegmentationMask {
        let decoder = try SegmentationDecoder(bundle: bundle, configuration: configuration)
        return try decoder.mask(in: try await run(.image(photo), placeholders: [:]), photo: photo.displayedSize)
    }

    /// Segments a JPEG or PNG photo file, decoded at full size so that the mask has the photo's displayed
    /// size.
    ///
    /// - Parameter url: The photo file.
    /// - Returns: The mask.
    /// - Throws: What decoding the file throws and what `segment(_:)` throws.
    public func segment(contentsOf url: URL) throws -> SegmentationMask {
        try segment(try PixelBuffer(contentsOf: url, limits: configuration.limits))
    }
}
