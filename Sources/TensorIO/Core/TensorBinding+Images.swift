internal import CYUV

extension TensorBinding {
    /// The image layer's size and channel layout.
    private var imageGeometry: (size: ImageSize, format: ImageTensorFormat)? {
        guard let volume = layer.imageVolume, let size = layer.imageSize else { return nil }
        return (size, layer.pixelFormat ?? (volume.channels == 1 ? .gray : .rgb))
    }

    /// Writes an image already oriented and scaled to the layer's size (``InputPreparer`` made it so)
    /// into the tensor, with the layer's normalization fused into that one pass (alpha skipped, channels
    /// in the layer's order).
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when the layer is not an image
    ///   layer or its tensor type cannot hold pixels.
    func writeImage(_ image: PixelBuffer, to destination: TensorMemory) throws {
        guard layer.isImage, let (size, format) = imageGeometry else {
            throw TensorIOError.invalidInput(
                "expected \(elementCount) numbers or \(byteCount) bytes for this \(layer.kindName) layer, got an image",
                layer: layer.name
            )
        }
        guard dataType == .float32 || dataType == .uint8 else {
            throw TensorIOError.invalidInput("images can fill float32 or uint8 tensors, not \(dataType)", layer: layer.name)
        }
        // Every caller prepares the image first (the core for runs, batches and training steps; the
        // public `LayerDescription.writeImage` for itself): scaling it here would be the second pass
        // over its pixels.
        guard image.width == size.width, image.height == size.height, image.format == .bgra, image.orientation == .up else {
            assertionFailure("an image reaches its tensor unprepared: \(image.width)×\(image.height) for a \(size.width)×\(size.height) layer")
            throw TensorIOError.invalidInput(
                "an image for this layer must be upright BGRA of \(size.width)×\(size.height) here, got \(image.width)×\(image.height)",
                layer: layer.name
            )
        }
        let pixelCount = size.width * size.height
        let normalizer = layer.normalization.map(PixelNormalizer.init)

        image.bytes.withUnsafeBufferPointer { bgra in
            guard let source = bgra.baseAddress else { return }
            if dataType == .uint8, normalizer == nil {
                // Raw pixels into a quantized model: libyuv writes the channels straight into the tensor.
                let stride = Int32(size.width * 4), width = Int32(size.width), height = Int32(size.height)
                destination.elements(UInt8.self, count: pixelCount * format.channelCount).withUnsafeMutableBufferPointer { tensor in
                    let out = tensor.baseAddress
                    switch format {
                    case .rgb: _ = ARGBToRAW(source, stride, out, width * 3, width, height)
                    case .bgr: _ = ARGBToRGB24(source, stride, out, width * 3, width, height)
                    case .gray: _ = ARGBToJ400(source, stride, out, width, width, height)
                    }
                }
                return
            }
            let normalizer = normalizer ?? PixelNormalizer()
            if format == .gray {
                var luminance = [UInt8](repeating: 0, count: pixelCount)
                luminance.withUnsafeMutableBufferPointer { gray in
                    _ = ARGBToJ400(source, Int32(size.width * 4), gray.baseAddress, Int32(size.width),
                                   Int32(size.width), Int32(size.height))
                }
                let table = PixelNormalizer.table(scale: normalizer.scale.luminance, bias: normalizer.bias.luminance)
                store(count: pixelCount, into: destination) { index in table[Int(luminance[index])] }
                return
            }
            // BGRA in memory: blue at 0, green at 1, red at 2. Each tensor channel takes its colour's byte
            // and its colour's bias, so BGR layers get the right biases.
            let offsets = format.channels.map { channel in
                switch channel {
                case .red: return 2
                case .green: return 1
                case .blue: return 0
                }
            }
            let biases = format.channels.map { normalizer.bias[$0] }
            let scales = format.channels.map { normalizer.scale[$0] }
            let (o0, o1, o2) = (offsets[0], offsets[1], offsets[2])
            let (b0, b1, b2) = (biases[0], biases[1], biases[2])
            let (s0, s1, s2) = (scales[0], scales[1], scales[2])
            if dataType == .float32 {
                // Eight pixels at a time where the processor can; per value `byte × scale + bias` rounded
                // once, as the uint8 branch below computes it (PixelNormalizer).
                destination.elements(Float.self, count: pixelCount * 3).withUnsafeMutableBufferPointer { out in
                    PixelTensorConversion.floats(
                        from: UnsafeBufferPointer(rebasing: bgra[0..<pixelCount * 4]), offsets: (o0, o1, o2),
                        scales: (s0, s1, s2), biases: (b0, b1, b2), into: out)
                }
            } else {
                // A byte in, a byte out: each channel's 256 answers once, then a lookup a value.
                let bytes = { (scale: Float, bias: Float) in PixelNormalizer.table(scale: scale, bias: bias).map(clampedByte) }
                let (t0, t1, t2) = (bytes(s0, b0), bytes(s1, b1), bytes(s2, b2))
                let out = destination.elements(UInt8.self, count: pixelCount * 3)
                for pixel in 0..<pixelCount {
                    let p = pixel * 4
                    out[pixel * 3] = t0[Int(bgra[p + o0])]
                    out[pixel * 3 + 1] = t1[Int(bgra[p + o1])]
                    out[pixel * 3 + 2] = t2[Int(bgra[p + o2])]
                }
            }
        }
    }

    /// Writes `count` normalized values as the tensor's type (float32, or clamped bytes).
    private func store(count: Int, into destination: TensorMemory, _ value: (Int) -> Float) {
        if dataType == .float32 {
            let out = destination.elements(Float.self, count: count)
            for index in 0..<count { out[index] = value(index) }
        } else {
            let out = destination.elements(UInt8.self, count: count)
            for index in 0..<count { out[index] = clampedByte(value(index)) }
        }
    }

    /// Reads an image output: denormalized into RGBA (alpha 255) for three channels, gray for one.
    /// Returns `nil` when the tensor's type cannot be read as pixels.
    func readImage(from source: TensorMemory) -> PixelBuffer? {
        guard let (size, format) = imageGeometry, dataType == .float32 || dataType == .uint8 else { return nil }
        let pixelCount = size.width * size.height
        let valueCount = pixelCount * format.channelCount
        let bytes = source.elements(UInt8.self, count: dataType == .uint8 ? valueCount : 0)
        let floats = source.elements(Float.self, count: dataType == .float32 ? valueCount : 0)
        let denormalizer = layer.normalization.map(PixelDenormalizer.init)
        func value(_ index: Int, _ channel: ColorChannel?) -> UInt8 {
            if dataType == .uint8 {
                let byte = bytes[index]
                guard let denormalizer else { return byte }
                return channel.map { denormalizer(Float(byte), channel: $0) }
                    ?? clampedByte((Float(byte) + denormalizer.bias.luminance) * denormalizer.scale.luminance)
            }
            let float = floats[index]
            guard let denormalizer else { return clampedByte(float) }
            return channel.map { denormalizer(float, channel: $0) }
                ?? clampedByte((float + denormalizer.bias.luminance) * denormalizer.scale.luminance)
        }
        if format == .gray {
            let pixels = (0..<pixelCount).map { value($0, nil) }
            return PixelBuffer(unchecked: size.width, height: size.height, format: .gray, bytes: pixels)
        }
        var pixels = [UInt8](repeating: 255, count: pixelCount * 4)
        let channels = format.channels
        for pixel in 0..<pixelCount {
            for (index, channel) in channels.enumerated() {
                let offset = switch channel {
                case .red: 0
                case .green: 1
                case .blue: 2
                }
                pixels[pixel * 4 + offset] = value(pixel * 3 + index, channel)
            }
        }
        return PixelBuffer(unchecked: size.width, height: size.height, format: .rgba, bytes: pixels)
    }
}
