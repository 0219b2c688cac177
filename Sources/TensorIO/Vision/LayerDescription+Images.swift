extension LayerDescription {
    /// The size images are scaled to for this image layer (`nil` for other layers): the one place a
    /// layer's image size is derived from its shape.
    public var imageSize: ImageSize? {
        imageVolume.map { ImageSize(width: $0.width, height: $0.height) }
    }

    /// Writes an image into memory laid out as this image layer's tensor: oriented, fitted to the layer's
    /// size, channels in the layer's order, normalized as the layer's normalization says (an input's `normalize`) — what
    /// a run does, without a model.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - buffer: Memory for `height × width × channels` elements of `dataType`.
    ///   - dataType: `float32`, or `uint8` for quantized models.
    ///   - resizeMode: How the image is fitted; `nil` for the layer's ``imageResizeMode``, else the centre
    ///     crop. It is resampled with the layer's ``imageScalingFilter`` (the box filter when it has none).
    /// - Throws: ``TensorIOError`` when this is not an image layer, the type is not float32 or uint8, or
    ///   the buffer is too small.
    public func writeImage(
        _ image: PixelBuffer, into buffer: UnsafeMutableRawBufferPointer, dataType: DataType = .float32,
        resizeMode: ImageResizeMode? = nil
    ) throws {
        guard let volume = imageVolume else {
            throw TensorIOError.invalidInput("\(name) is not an image layer", layer: name)
        }
        let binding = TensorBinding(
            layer: self, dataType: dataType, shape: [volume.height, volume.width, volume.channels],
            quantizer: nil, dequantizer: nil
        )
        guard let base = buffer.baseAddress, buffer.count >= binding.byteCount else {
            throw TensorIOError.invalidInput("the buffer holds \(buffer.count) bytes; the layer needs \(binding.byteCount)", layer: name)
        }
        guard let size = imageSize else { return }  // an image layer has one (imageVolume above)
        let memory = TensorMemory(unsafeBase: base, byteCount: buffer.count)
        let prepared = VisionPipeline.prepare(
            image, target: size, mode: resizeMode ?? imageResizeMode ?? .aspectFill, filter: imageScalingFilter ?? .box
        )
        try binding.writeImage(prepared, to: memory)
    }
}
