import CFFmpeg
import Foundation
import TensorIO

/// An MP4 file written with libavformat's muxer, its one video stream encoded by libavcodec — libx264 when
/// FFmpeg has it, else its own MPEG-4 part 2 encoder — from BGRA rows converted to YUV 4:2:0 by libswscale.
///
/// Unsafe because it owns FFmpeg's C objects: the output context and its file, the codec context, a frame,
/// a packet, the scaler and a padded copy of the rows, all freed in `deinit` (the file finished first when
/// ``finish()`` was not called). The contract: sizes are checked by the caller (even, at least 2, within
/// ``VideoLimits``) before ``init(path:width:height:rate:threads:)``; ``encode(bgra:rowBytes:position:)`` is
/// given at least `height` rows of `rowBytes` bytes, `rowBytes` at least `width × 4`, and strictly
/// increasing positions; one thread at a time uses an encoder.
final class FFmpegEncoder {
    /// The encoders tried, in order, by FFmpeg's names: H.264 where Debian's build has libx264, else
    /// FFmpeg's own MPEG-4 part 2, which every build has.
    static let encoders = ["libx264", "mpeg4"]
    /// The largest time base denominator MPEG-4 part 2 can code (16 bits).
    private static let mpeg4MaximumDenominator: Int32 = 65535

    /// The codec written, by FFmpeg's name (`h264` or `mpeg4`).
    let codecName: String
    /// The time base of the frames' `pts`: one frame of the rate given (reduced for MPEG-4 when its
    /// denominator is too large).
    let timeBase: AVRational
    /// One frame of the rate given: the unit of the positions ``encode(bgra:rowBytes:position:)`` takes.
    private let positionUnit: AVRational
    private let width: Int32
    private let height: Int32
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    /// The output's stream, owned by ``output``.
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// The rows copied with a stride aligned to 64 bytes and padding after the last: libswscale's vector
    /// code reads whole blocks, and a caller's array ends where its pixels do.
    private var rows: UnsafeMutablePointer<UInt8>?
    private let rowsStride: Int
    private var fileOpen = false
    private var headerWritten = false
    private var finished = false

    /// Opens the encoder and the file at `path` (replaced if it is there) and writes the container's header.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - width: The frames' width, even.
    ///   - height: The frames' height, even.
    ///   - rate: The frame rate.
    ///   - encoders: The encoders to try, by FFmpeg's names, in order.
    ///   - threads: libavcodec's threads.
    /// - Throws: `TensorIOError`: `io` when the file cannot be made, `invalidVideo` when FFmpeg cannot set up
    ///   the encoder or the container. Nothing is left at `path` then.
    init(path: String, width: Int, height: Int, rate frameRate: VideoFrameRate, encoders: [String] = encoders, threads: Int) throws {
        _ = FFmpegError.quietLog
        self.width = Int32(width)
        self.height = Int32(height)
        rowsStride = (width * 4 + 63) & ~63
        guard let (encoder, name) = encoders.lazy.compactMap({ name in avcodec_find_encoder_by_name(name).map { ($0, name) } }).first else {
            throw TensorIOError.invalidVideo("FFmpeg has none of the encoders TensorIO writes with (\(encoders.joined(separator: ", ")))")
        }
        codecName = String(cString: avcodec_get_name(encoder.pointee.id))
        // VideoFrameRate keeps both terms within Int32.
        var rate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        positionUnit = AVRational(num: rate.den, den: rate.num)
        if name == "mpeg4", rate.num > Self.mpeg4MaximumDenominator {
            // The nearest rate MPEG-4 part 2 can state; the frames' timing stays within a frame's rounding.
            var (num, den) = (Int32(0), Int32(0))
            av_reduce(&num, &den, Int64(rate.num), Int64(rate.den), Int64(Self.mpeg4MaximumDenominator))
            rate = AVRational(num: max(num, 1), den: max(den, 1))
        }
        timeBase = AVRational(num: rate.den, den: rate.num)

        var output: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&output, nil, "mp4", nil)
        guard status >= 0, let output else { throw TensorIOError.invalidVideo("FFmpeg cannot make an MP4 muxer: \(FFmpegError.text(status))") }
        self.output = output
        guard let stream = avformat_new_stream(output, nil), let codec = avcodec_alloc_context3(encoder),
              let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw TensorIOError.invalidVideo("FFmpeg could not allocate an encoder") }
        self.stream = stream
        self.codec = codec
        self.frame = frame
        self.packet = packet

        codec.pointee.width = self.width
        codec.pointee.height = self.height
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = timeBase
        codec.pointee.framerate = rate
        codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // libswscale's RGB to YUV is BT.601 in limited range: said in the stream, so a player and TensorIO's
        // decoder convert back with the same matrix.
        codec.pointee.colorspace = AVCOL_SPC_BT470BG
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.thread_count = Int32(max(1, threads))
        if name == "libx264" {
            // Fast, and close to the frames: an annotated video is looked at, not archived.
            av_opt_set(codec.pointee.priv_data, "preset", "veryfast", 0)
            av_opt_set(codec.pointee.priv_data, "crf", "20", 0)
        } else {
            // A fixed quantiser (3, on MPEG-4's scale of 1 to 31): its default bit rate blurs a 1080p frame.
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            codec.pointee.global_quality = FF_QP2LAMBDA * 3
        }
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        status = avcodec_open2(codec, encoder, nil)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg cannot open the \(name) encoder: \(FFmpegError.text(status))") }
        status = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg cannot describe the stream: \(FFmpegError.text(status))") }
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = rate

        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = self.width
        frame.pointee.height = self.height
        status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg could not allocate a \(width)×\(height) frame: \(FFmpegError.text(status))") }
        scaler = sws_getContext(self.width, self.height, AV_PIX_FMT_BGRA, self.width, self.height, AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
        guard scaler != nil else { throw TensorIOError.invalidVideo("libswscale cannot convert BGRA to YUV 4:2:0 at \(width)×\(height)") }
        rows = av_malloc(rowsStride * height + 64)?.assumingMemoryBound(to: UInt8.self)
        guard rows != nil else { throw TensorIOError.invalidVideo("FFmpeg could not allocate \(rowsStride * height + 64) bytes for a frame") }

        // The file protocol, named: a path with a colon in it is not taken for another protocol's URL.
        status = avio_open2(&output.pointee.pb, "file:" + path, AVIO_FLAG_WRITE, nil, nil)
        guard status >= 0 else { throw TensorIOError(.io, "cannot write the video: \(FFmpegError.text(status))") }
        fileOpen = true
        status = avformat_write_header(output, nil)
        guard status >= 0 else {
            closeFile()
            try? FileManager.default.removeItem(atPath: path)
            throw TensorIOError.invalidVideo("FFmpeg cannot write the MP4 header: \(FFmpegError.text(status))")
        }
        headerWritten = true
    }

    deinit {
        if headerWritten, !finished { try? finish() }
        closeFile()
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
        sws_freeContext(scaler)
        av_free(rows)
        avformat_free_context(output)  // frees the stream too
    }

    /// Converts one frame of BGRA rows to YUV and encodes it, shown at `position` frames of the rate given.
    ///
    /// - Throws: `TensorIOError`: `invalidVideo` when libswscale or the encoder fails, `io` when the file
    ///   cannot be written.
    func encode(bgra: [UInt8], rowBytes: Int, position: Int64) throws {
        guard let frame, let scaler, let rows, !finished else { throw TensorIOError.invalidVideo("the video is finished") }
        // The encoder may still hold the last frame's buffers (a reference for its look-ahead).
        var status = av_frame_make_writable(frame)
        guard status >= 0 else { throw TensorIOError.invalidVideo("FFmpeg could not make a frame writable: \(FFmpegError.text(status))") }
        let copied = Int(width) * 4
        bgra.withUnsafeBufferPointer { source in
            for row in 0..<Int(height) {
                (rows + row * rowsStride).update(from: source.baseAddress! + row * rowBytes, count: copied)
            }
        }
        status = tio_scale_into_frame(scaler, rows, Int32(rowsStride), height, frame)
        guard status == height else { throw TensorIOError.invalidVideo("libswscale could not convert a \(width)×\(height) frame") }
        frame.pointee.pts = av_rescale_q(position, positionUnit, timeBase)
        try send(frame)
    }

    /// Drains the encoder, writes the container's index (the trailer) and closes the file; once.
    ///
    /// - Throws: `TensorIOError`: `invalidVideo` when the encoder fails, `io` when the file cannot be written.
    func finish() throws {
        guard !finished, headerWritten else { return }
        finished = true
        defer { closeFile() }
        try send(nil)
        let status = av_write_trailer(output)
        guard status >= 0 else { throw TensorIOError(.io, "cannot finish the video: \(FFmpegError.text(status))") }
    }

    /// Sends `frame` (`nil`: the end) to the encoder and writes every packet it gives back.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        guard let codec, let packet, let stream, let output else { return }
        var status = avcodec_send_frame(codec, frame)
        guard status >= 0 else { throw TensorIOError.invalidVideo("the encoder refused a frame: \(FFmpegError.text(status))") }
        while true {
            status = avcodec_receive_packet(codec, packet)
            if status == tio_averror(EAGAIN) || status == tio_averror_eof() { return }
            guard status >= 0 else { throw TensorIOError.invalidVideo("the encoder failed: \(FFmpegError.text(status))") }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            // Takes the packet's data and leaves it blank for the next one.
            status = av_interleaved_write_frame(output, packet)
            guard status >= 0 else { throw TensorIOError(.io, "cannot write the video: \(FFmpegError.text(status))") }
        }
    }

    private func closeFile() {
        guard fileOpen, let output else { return }
        fileOpen = false
        avio_closep(&output.pointee.pb)
    }
}
