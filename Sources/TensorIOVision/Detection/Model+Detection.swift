public import Foundation
public import TensorIO

extension Model {
    /// Finds objects on a photo: runs the model and turns its outputs into detections on the photo as
    /// displayed, as the bundle's `detection` description says (docs/model-json.md, "Detection").
    ///
    /// The photo is fitted and resampled as the image input's `resize` and `scaling` say (or the
    /// configuration, when it sets them), and every box and keypoint is mapped back through that fit and
    /// the photo's EXIF orientation.
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation.
    ///   - options: What to keep: at most how many, above which score, which categories.
    /// - Returns: The detections, best first.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/unsupported` when the bundle describes no
    ///   detection or has not one image input; `TensorIOError/Code/outputMismatch` when the outputs
    ///   disagree with the description; what `run(_:)-(InputValue)` throws.
    public func detect(_ photo: PixelBuffer, options: DetectionOptions = DetectionOptions()) throws -> [Detection] {
        let decoder = try DetectionDecoder(bundle: bundle, configuration: configuration)
        let outputs = try run(.image(photo))
        return try decoder.detections(in: outputs, photo: photo.displayedSize, options: options)
    }

    /// Finds objects on a photo without blocking the calling task's thread; see
    /// `detect(_:options:)`.
    ///
    /// - Parameters:
    ///   - photo: The photo.
    ///   - options: What to keep.
    /// - Returns: The detections, best first.
    /// - Throws: As the synchronous call.
    public func detect(_ photo: PixelBuffer, options: DetectionOptions = DetectionOptions()) async throws -> [Detection] {
        let decoder = try DetectionDecoder(bundle: bundle, configuration: configuration)
        let outputs = try await run(.image(photo), placeholders: [:])
        return try decoder.detections(in: outputs, photo: photo.displayedSize, options: options)
    }

    /// Finds objects on a JPEG or PNG photo file, decoded at full size so that the detections are in the
    /// pixels of the photo as displayed.
    ///
    /// - Parameters:
    ///   - url: The photo file.
    ///   - options: What to keep.
    /// - Returns: The detections, best first, in pixels of the photo as displayed.
    /// - Throws: What decoding the file throws (`TensorIOError/Code/invalidImage`, `TensorIOError/Code/io`…)
    ///   and what `detect(_:options:)` throws.
    public func detect(contentsOf url: URL, options: DetectionOptions = DetectionOptions()) throws -> [Detection] {
        try detect(try PixelBuffer(contentsOf: url, limits: configuration.limits), options: options)
    }
}

extension PixelBuffer {
    /// The photo's size as displayed: its upright width and height.
    var displayedSize: ImageSize {
        let (width, height) = uprightSize
        return ImageSize(width: width, height: height)
    }
}
