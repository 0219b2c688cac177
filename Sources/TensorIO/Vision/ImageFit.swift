/// Where an image layer's tensor lies on a photo as displayed: the rectangle of the upright photo, in its
/// pixels, that the tensor's full width and height cover.
///
/// The rectangle reaches beyond the photo when the photo is letterboxed (``ImageResizeMode/aspectFit``)
/// and lies inside it when it is cropped (``ImageResizeMode/aspectFill``). A point the model reports in
/// normalized tensor coordinates (0…1 across the tensor) is at `x + nx × width`, `y + ny × height` on the
/// photo, whatever the photo's EXIF orientation: the rectangle is in upright coordinates.
package struct ImageFit: Sendable, Hashable {
    /// The left edge, in upright photo pixels (negative when letterboxed left and right).
    package var x: Double
    /// The top edge, in upright photo pixels.
    package var y: Double
    /// The width the tensor's width covers, in upright photo pixels.
    package var width: Double
    /// The height the tensor's height covers, in upright photo pixels.
    package var height: Double

    /// A rectangle given edge by edge.
    package init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The rectangle a photo of `photo` upright pixels is fitted with.
    ///
    /// The box filter places whole pixels (``VisionPipeline/fit(width:height:target:mode:)``: a crop
    /// rounded to pixels, scaled to a size rounded to pixels, at an offset rounded down); bilinear
    /// sampling maps the tensor onto the exact rectangle, as MediaPipe's image-to-tensor step does.
    ///
    /// - Parameters:
    ///   - photo: The photo's size as displayed (after its orientation); each side at least 1.
    ///   - target: The image layer's size; each side at least 1.
    ///   - mode: How the photo is fitted.
    ///   - filter: How it is resampled.
    package init(photo: ImageSize, target: ImageSize, mode: ImageResizeMode, filter: ImageScalingFilter) {
        let photoWidth = Double(max(1, photo.width)), photoHeight = Double(max(1, photo.height))
        let targetWidth = Double(max(1, target.width)), targetHeight = Double(max(1, target.height))
        switch filter {
        case .box, .libyuvBilinear:
            let plan = VisionPipeline.fit(width: max(1, photo.width), height: max(1, photo.height), target: target, mode: mode)
            // Tensor pixel edge t is photo edge crop.x + (t − offset.x) × crop.width / placed.width.
            let scaleX = Double(plan.crop.width) / Double(max(1, plan.placed.width))
            let scaleY = Double(plan.crop.height) / Double(max(1, plan.placed.height))
            x = Double(plan.crop.x) - Double(plan.offset.x) * scaleX
            y = Double(plan.crop.y) - Double(plan.offset.y) * scaleY
            width = targetWidth * scaleX
            height = targetHeight * scaleY
        case .bilinear:
            let scale: Double
            switch mode {
            case .stretch:
                (x, y, width, height) = (0, 0, photoWidth, photoHeight)
                return
            case .aspectFill: scale = max(targetWidth / photoWidth, targetHeight / photoHeight)
            case .aspectFit: scale = min(targetWidth / photoWidth, targetHeight / photoHeight)
            }
            width = targetWidth / scale
            height = targetHeight / scale
            x = (photoWidth - width) / 2
            y = (photoHeight - height) / 2
        }
    }

    /// The upright photo point at normalized tensor coordinates (`nx`, `ny`), in photo pixels (not clipped).
    package func photoPoint(normalizedX nx: Double, normalizedY ny: Double) -> (x: Double, y: Double) {
        (x + nx * width, y + ny * height)
    }
}
