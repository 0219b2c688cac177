import CFFmpeg
import Foundation
import TensorIO

/// The chosen stream's decoder (libavcodec, with its own frame and slice threads) and the conversion of
/// its frames to BGRA pixels (libswscale), over an ``FFmpegInput``.
///
/// Unsafe because it owns libavcodec's and libswscale's C objects: the codec context, a packet, a frame, the
/// scaler and its output buffer, all freed in `deinit` (the codec context first, which joins its threads).
/// The contract: the input outlives the decoder (it holds it); the frame ``decodeNext()`` fills stays valid
/// until the next call, and ``pixels(orientation:)`` reads it in between; one thread at a time uses a
/// decoder.
final class FFmpegDecoder {
    /// What ``decodeNext()`` decoded.
    struct Decoded {
        var width: Int
        var height: Int
        /// The presentation timestamp (FFmpeg's best effort) in microseconds, when the stream has one.
        var timestampMicroseconds: Int64?
    }

    private let input: FFmpegInput
    private let limits: VideoLimits
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    /// What ``scaler`` was set up for: width, height, pixel format, colour space, full range.
    private var scalerKey: [Int32] = []
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var scratchSize = 0
    /// Whether the end of the stream has been sent to the decoder (it then gives what it holds).
    private var draining = false
    /// A read error other than the end of the file, thrown once the decoder has given what it holds.
    private var readFailure: Int32?
    private var packetsWithoutFrame = 0
    /// The last error libavcodec reported for a packet or frame it could not decode.
    private(set) var lastDecodeError: Int32?

    /// Opens the decoder for `input`'s stream.
    ///
    /// - Parameter lowDelay: A live stream's: slice threads only, since frame threads hold each frame back
    ///   until as many more have come as there are threads.
    /// - Throws: `TensorIOError` (`invalidVideo`) when libavcodec cannot open it.
    init(_ input: FFmpegInput, limits: VideoLimits, lowDelay: Bool = false) throws {
        self.input = input
        self.limits = limits
        guard let decoder = input.decoder, let stream = input.stream, let codec = avcodec_alloc_context3(decoder),
              let packet = av_packet_alloc(), let frame = av_frame_alloc()
        else { throw TensorIOError.invalidVideo("FFmpeg could not allocate a decoder") }
        self.codec = codec
        self.packet = packet
        self.frame = frame
        var status = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg cannot set up the decoder: \(FFmpegError.text(status))") }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        // libavcodec refuses a larger frame before allocating it.
        codec.pointee.max_pixels = Int64(limits.maximumPixels)
        codec.pointee.codec_whitelist = av_strdup(FFmpegInput.decoders.joined(separator: ","))
        codec.pointee.thread_count = Int32(max(1, min(limits.maximumDecodingThreads, ProcessInfo.processInfo.activeProcessorCount)))
        codec.pointee.thread_type = lowDelay ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE
        status = avcodec_open2(codec, decoder, nil)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg cannot open the \(input.info.codec) decoder: \(FFmpegError.text(status))") }
    }

    deinit {
        avcodec_free_context(&codec)
        av_packet_free(&packet)
        av_frame_free(&frame)
        sws_freeContext(scaler)
        av_free(scratch)
    }

    /// Decodes the next frame of the stream.
    ///
    /// - Returns: The frame's size and timestamp, or `nil` at the end of the stream.
    /// - Throws: `TensorIOError`: `limitExceeded` past ``VideoLimits/maximumPacketsWithoutFrame`` or the read
    ///   budget, or for a frame past the size limits; `invalidVideo` when the file cannot be read to its end.
    func decodeNext() throws -> Decoded? {
        guard let codec, let packet, let frame else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                packetsWithoutFrame = 0
                let (width, height) = (Int(frame.pointee.width), Int(frame.pointee.height))
                if let problem = limits.frameSizeProblem(width: width, height: height) {
                    throw TensorIOError.videoLimit("the stream holds \(problem)")
                }
                var timestamp = frame.pointee.best_effort_timestamp
                if timestamp == tio_nopts_value() { timestamp = frame.pointee.pts }
                let microseconds = timestamp == tio_nopts_value() ? nil
                    : av_rescale_q(timestamp, input.timeBase, AVRational(num: 1, den: 1_000_000))
                return Decoded(width: width, height: height, timestampMicroseconds: microseconds)
            }
            if received == tio_averror_eof() {
                if let readFailure {
                    self.readFailure = nil
                    throw TensorIOError.invalidVideo("the file is damaged or cut short: \(FFmpegError.text(readFailure))")
                }
                return nil
            }
            if received != tio_averror(EAGAIN) {
                // A frame libavcodec could not decode (frame threads report a packet's errors here).
                if received == tio_averror(ENOMEM) { throw TensorIOError.invalidVideo("FFmpeg ran out of memory decoding the video") }
                lastDecodeError = received
                try countPacketWithoutFrame()
                continue
            }
            // The decoder wants more: the next packet of our stream, or the end.
            if draining { return nil }
            try countPacketWithoutFrame()
            let status = input.read(into: packet)
            if status < 0 {
                try input.checkBudget()
                if status != tio_averror_eof() { readFailure = status }
                avcodec_send_packet(codec, nil)
                draining = true
                continue
            }
            guard packet.pointee.stream_index == input.streamIndex else {
                av_packet_unref(packet)
                continue
            }
            let sent = avcodec_send_packet(codec, packet)
            av_packet_unref(packet)
            if sent == tio_averror(ENOMEM) { throw TensorIOError.invalidVideo("FFmpeg ran out of memory decoding the video") }
            if sent < 0 { lastDecodeError = sent }
        }
    }

    private func countPacketWithoutFrame() throws {
        packetsWithoutFrame += 1
        if packetsWithoutFrame > limits.maximumPacketsWithoutFrame {
            throw TensorIOError.videoLimit(
                "\(limits.maximumPacketsWithoutFrame) packets in a row gave no frame (VideoLimits.maximumPacketsWithoutFrame)"
                    + (lastDecodeError.map { "; the decoder's last error: \(FFmpegError.text($0))" } ?? "")
            )
        }
    }

    /// Forgets what the decoder holds, after a seek.
    func flush() {
        if let codec { avcodec_flush_buffers(codec) }
    }

    /// The frame ``decodeNext()`` last decoded, as BGRA pixels with `orientation`.
    ///
    /// - Throws: `TensorIOError` (`invalidVideo`) when libswscale cannot convert its pixel format.
    func pixels(orientation: ImageOrientation) throws -> PixelBuffer {
        guard let frame else { throw TensorIOError.invalidVideo("no frame was decoded") }
        let (width, height, format) = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
        let pixelFormat = AVPixelFormat(rawValue: format)
        let formatName = av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "\(format)"
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else {
            throw TensorIOError.invalidVideo("the decoder gave frames of an unknown pixel format (\(format))")
        }
        let fullRangeFormats = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG || fullRangeFormats.contains(pixelFormat) ? 1 : 0
        let colorSpace = Int32(bitPattern: frame.pointee.colorspace.rawValue)
        let key = [width, height, format, colorSpace, fullRange]
        if key != scalerKey {
            scaler = sws_getCachedContext(scaler, width, height, pixelFormat, width, height, AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil)
            guard let scaler else {
                scalerKey = []
                throw TensorIOError.invalidVideo("libswscale cannot convert frames of pixel format \(formatName)")
            }
            // YUV to RGB with the stream's own matrix (BT.601, BT.709, …) and range; RGB sources need none.
            if descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 {
                sws_setColorspaceDetails(scaler, sws_getCoefficients(colorSpace), fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
            }
            scalerKey = key
        }
        // libswscale's own layout for its output: rows aligned to 64 bytes and padding after the last, since
        // its vector code may write a little past a row's last pixel. The tight copy is the frame's.
        let rowBytes = Int(width) * 4
        let stride = (rowBytes + 63) & ~63
        let needed = stride * Int(height) + 64
        if needed > scratchSize {
            av_free(scratch)
            scratch = av_malloc(needed)?.assumingMemoryBound(to: UInt8.self)
            scratchSize = scratch == nil ? 0 : needed
        }
        guard let scratch else { throw TensorIOError.invalidVideo("FFmpeg could not allocate \(needed) bytes for a frame") }
        let rows = tio_scale_frame(scaler, frame, scratch, Int32(stride))
        guard rows == height else {
            throw TensorIOError.invalidVideo("libswscale could not convert a \(width)×\(height) \(formatName) frame")
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * Int(height)) { buffer, count in
            for row in 0..<Int(height) {
                (buffer.baseAddress! + row * rowBytes).update(from: scratch + row * stride, count: rowBytes)
            }
            count = rowBytes * Int(height)
        }
        return try PixelBuffer(width: Int(width), height: Int(height), format: .bgra, bytes: bytes, orientation: orientation)
    }
}
