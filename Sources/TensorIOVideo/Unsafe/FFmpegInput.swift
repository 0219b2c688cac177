import CFFmpeg
import Foundation
import TensorIO

/// A video open in libavformat — a file through our own `AVIOContext` over a ``VideoByteSource``, or a live
/// stream's URL through libavformat's network protocols — its container recognised and checked, its best
/// video stream chosen and described (``VideoInfo``).
///
/// Only MP4/MOV, Matroska/WebM and AVI are opened (and MPEG-TS and RTSP for live streams), and only their
/// video streams' codecs among a few are ever decoded, even while libavformat probes the streams: FFmpeg
/// reads hundreds of formats and codecs, and each one refused here is parser code a crafted file cannot
/// reach. A file opens nothing else (`io_open` refuses): a playlist or a reference to a second file is not
/// followed; a URL opens only the network protocols a live stream needs.
///
/// Unsafe because it owns C objects with a contract: the `AVIOContext` holds a pointer to ``source``
/// without a reference (see ``VideoByteSource``), and the interrupt callback one to ``interrupt``, so they
/// are this object's and are freed in `deinit`, the format context first, then the I/O context, then the
/// source. One thread at a time uses an input.
final class FFmpegInput {
    /// The demuxers opened, by the first of FFmpeg's names for them (`mov,mp4,m4a,3gp,3g2,mj2`,
    /// `matroska,webm`, `avi`).
    static let containers: Set<String> = ["mov", "matroska", "avi"]
    /// The demuxers a live stream may also use: MPEG-TS (HTTP, UDP, standard input) and RTSP (URLs only).
    static let streamContainers: Set<String> = containers.union(["mpegts"])
    static let urlContainers: Set<String> = streamContainers.union(["rtsp"])
    /// The protocols a live stream's URL may use, and those they open themselves (RTSP opens RTP over UDP
    /// or TCP; HTTPS, TLS over TCP).
    static let urlProtocols = ["http", "https", "tls", "tcp", "udp", "rtp", "rtsp"]
    /// The decoders used, by FFmpeg's names: H.264, HEVC, MPEG-4 part 2, VP8, VP9, AV1 (dav1d), Motion
    /// JPEG, MPEG-1 and MPEG-2 video.
    static let decoders = ["h264", "hevc", "mpeg4", "vp8", "vp9", "libdav1d", "mjpeg", "mpeg1video", "mpeg2video"]
    /// The size of the buffer libavformat reads the source through.
    private static let ioBufferSize: Int32 = 1 << 16

    /// The bytes read, for a file, memory or standard input; `nil` for a URL.
    let source: VideoByteSource?
    /// A live stream's reason to give a blocking read up.
    let interrupt: LiveInterrupt?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The chosen video stream, owned by ``context``.
    private(set) var stream: UnsafeMutablePointer<AVStream>?
    /// The decoder for it (FFmpeg's static description; nothing to free).
    private(set) var decoder: UnsafePointer<AVCodec>?
    /// What the stream says of itself, checked against the limits.
    private(set) var info = VideoInfo.empty
    /// The stream's first timestamp, in microseconds (0 when the container does not say).
    private(set) var startMicroseconds: Int64 = 0

    /// Opens `source`, recognises its container and chooses its video stream.
    ///
    /// - Throws: `TensorIOError`: `invalidVideo` when it is not a container or codec TensorIO reads or
    ///   FFmpeg cannot read it, `limitExceeded` when the container or stream is past a limit.
    init(_ source: VideoByteSource, limits: VideoLimits, interrupt: LiveInterrupt? = nil) throws {
        _ = FFmpegError.quietLog
        self.source = source
        self.interrupt = interrupt
        if !source.isStream, source.size == 0 { throw TensorIOError.invalidVideo("the file is empty") }
        try openIO(seekable: !source.isStream)
        let format = try probe(source.isStream ? Self.streamContainers : Self.containers)
        try openContainer(format, url: "", containers: source.isStream ? Self.streamContainers : Self.containers, limits: limits)
        try chooseStream(limits: limits)
    }

    /// Opens a live stream's URL with libavformat's own protocols (``urlProtocols``).
    ///
    /// - Throws: `TensorIOError`: `io` when the stream cannot be reached or sends nothing for the
    ///   interrupt's timeout; otherwise as ``init(_:limits:interrupt:)``.
    init(url: String, limits: VideoLimits, interrupt: LiveInterrupt) throws {
        _ = FFmpegError.quietLog
        source = nil
        self.interrupt = interrupt
        try openContainer(nil, url: url, containers: Self.urlContainers, limits: limits)
        try chooseStream(limits: limits)
    }

    deinit {
        // The format context reads through the I/O context, which reads ``source``: freed in that order.
        if context != nil { avformat_close_input(&context) }
        if let io {
            var buffer: UnsafeMutablePointer<UInt8>? = io.pointee.buffer  // FFmpeg may have replaced ours
            av_freep(&buffer)
            var pointer: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&pointer)
        }
    }

    /// The `AVIOContext` reading ``source`` through its two functions (one for a stream, which cannot seek).
    private func openIO(seekable: Bool) throws {
        guard let source else { return }
        guard let buffer = av_malloc(Int(Self.ioBufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw TensorIOError.invalidVideo("FFmpeg could not allocate a read buffer")
        }
        let opaque = Unmanaged.passUnretained(source).toOpaque()
        io = avio_alloc_context(buffer, Self.ioBufferSize, 0, opaque, { opaque, buffer, count in
            guard let opaque, let buffer else { return tio_averror(EINVAL) }
            let read = Unmanaged<VideoByteSource>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(count))
            return read > 0 ? Int32(read) : read == 0 ? tio_averror_eof() : read == -2 ? tio_averror_exit() : tio_averror(EIO)
        }, nil, !seekable ? nil : { opaque, offset, whence in
            guard let opaque else { return Int64(tio_averror(EINVAL)) }
            let source = Unmanaged<VideoByteSource>.fromOpaque(opaque).takeUnretainedValue()
            if whence & AVSEEK_SIZE != 0 { return source.size }
            let position = source.seek(to: offset, whence: whence & ~AVSEEK_FORCE)
            return position >= 0 ? position : Int64(tio_averror(EINVAL))
        })
        guard let io else {
            av_free(buffer)
            throw TensorIOError.invalidVideo("FFmpeg could not allocate its reader")
        }
        if !seekable { io.pointee.seekable = 0 }
    }

    /// Recognises the container from the file's first bytes (up to 1 MiB), before any demuxer parses it.
    private func probe(_ containers: Set<String>) throws -> UnsafePointer<AVInputFormat> {
        var format: UnsafePointer<AVInputFormat>?
        let status = av_probe_input_buffer2(io, &format, "", nil, 0, 0)
        try checkBudget()
        guard status >= 0, let format else {
            throw TensorIOError.invalidVideo("not a video file FFmpeg recognises (\(FFmpegError.text(status)))")
        }
        let names = String(cString: format.pointee.name).split(separator: ",").map(String.init)
        guard let name = names.first, containers.contains(name) else {
            let description = format.pointee.long_name.map { String(cString: $0) } ?? names.joined(separator: ", ")
            throw TensorIOError.invalidVideo("\(description) is not a container TensorIO reads (\(Self.describe(containers)))")
        }
        return format
    }

    /// The containers' names as a person knows them, for errors.
    private static func describe(_ containers: Set<String>) -> String {
        let names = ["mov": "MP4, MOV", "matroska": "Matroska, WebM", "avi": "AVI", "mpegts": "MPEG-TS", "rtsp": "RTSP"]
        return containers.sorted().compactMap { names[$0] }.joined(separator: ", ")
    }

    /// Opens the container — with the demuxer ``probe(_:)`` chose over ``source``, or the one libavformat
    /// recognises at `url` — and reads its streams' parameters.
    private func openContainer(
        _ format: UnsafePointer<AVInputFormat>?, url: String, containers: Set<String>, limits: VideoLimits
    ) throws {
        guard let context = avformat_alloc_context() else { throw TensorIOError.invalidVideo("FFmpeg could not allocate a demuxer") }
        context.pointee.max_streams = Int32(clamping: limits.maximumStreams)
        // Belt and braces: the demuxers and decoders allowed, checked by FFmpeg itself too; for a file, no
        // other file or URL opened (a playlist, an external reference); for a URL, the network protocols only.
        context.pointee.format_whitelist = av_strdup(containers.sorted().joined(separator: ","))
        context.pointee.codec_whitelist = av_strdup(Self.decoders.joined(separator: ","))
        if source != nil {
            context.pointee.pb = io
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            context.pointee.protocol_whitelist = av_strdup("none")
            context.pointee.io_open = { _, _, _, _, _ in tio_averror(EPERM) }
        } else {
            context.pointee.protocol_whitelist = av_strdup(Self.urlProtocols.joined(separator: ","))
        }
        if let interrupt {
            // Asked by libavformat while it waits on the network: the consumer has gone, or the stream is silent.
            context.pointee.interrupt_callback = AVIOInterruptCB(
                callback: { opaque in
                    guard let opaque else { return 0 }
                    return Unmanaged<LiveInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldStop ? 1 : 0
                },
                opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&opened, url, format, nil)
        try checkBudget()
        guard status >= 0, let opened else {
            if source == nil {
                throw TensorIOError(.io, "the stream cannot be opened: \(FFmpegError.text(status))")
            }
            // avformat_open_input frees the context when it fails.
            let streams = status == tio_averror(ENOMEM) ? " (or it holds more streams than VideoLimits.maximumStreams, \(limits.maximumStreams))" : ""
            throw TensorIOError.invalidVideo("FFmpeg cannot open it: \(FFmpegError.text(status))\(streams)\(cutShort)")
        }
        self.context = opened
        endedInHeader = source?.readPastEnd ?? false
        let count = Int(opened.pointee.nb_streams)
        guard count <= limits.maximumStreams else {
            throw TensorIOError.videoLimit("the file holds \(count) streams, more than \(limits.maximumStreams) (VideoLimits.maximumStreams)")
        }
        // Probing the streams decodes a few frames: with the same limit on their size, one thread each, and
        // the same decoders only.
        let options = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: max(count, 1))
        options.initialize(repeating: nil, count: max(count, 1))
        defer {
            for index in 0..<max(count, 1) { av_dict_free(&options[index]) }
            options.deallocate()
        }
        for index in 0..<count {
            av_dict_set(&options[index], "max_pixels", String(limits.maximumPixels), 0)
            av_dict_set(&options[index], "threads", "1", 0)
            av_dict_set(&options[index], "codec_whitelist", Self.decoders.joined(separator: ","), 0)
        }
        let found = avformat_find_stream_info(opened, options)
        try checkBudget()
        guard found >= 0 else {
            throw TensorIOError.invalidVideo("FFmpeg cannot read its streams: \(FFmpegError.text(found))")
        }
    }

    /// Chooses the video stream (libavformat's best, never a cover picture) and its decoder, and checks what
    /// it claims.
    private func chooseStream(limits: VideoLimits) throws {
        guard let context, let streams = context.pointee.streams else { throw TensorIOError.invalidVideo("the file holds no stream\(cutShort)") }
        let count = Int(context.pointee.nb_streams)
        func isPicture(_ stream: UnsafeMutablePointer<AVStream>) -> Bool { stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }
        func isVideo(_ stream: UnsafeMutablePointer<AVStream>) -> Bool { stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        var best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if best >= 0, let chosen = streams[Int(best)], isPicture(chosen) {
            best = (0..<count).first { streams[$0].map { isVideo($0) && !isPicture($0) } ?? false }.map(Int32.init) ?? -1
        }
        guard best >= 0, let stream = streams[Int(best)] else {
            let kinds = (0..<count).compactMap { streams[$0].map { av_get_media_type_string($0.pointee.codecpar.pointee.codec_type).map { String(cString: $0) } ?? "unknown" } }
            let held = kinds.isEmpty ? "no stream" : Dictionary(grouping: kinds, by: { $0 }).sorted { $0.key < $1.key }
                .map { "\($0.value.count) \($0.key)" }.joined(separator: ", ")
            throw TensorIOError.invalidVideo("the file holds no video stream (it holds \(held))\(cutShort)")
        }
        self.stream = stream
        let parameters = stream.pointee.codecpar.pointee
        let codecName = String(cString: avcodec_get_name(parameters.codec_id))
        // AV1: dav1d, not FFmpeg's own decoder, which only drives hardware.
        let decoder = parameters.codec_id == AV_CODEC_ID_AV1 ? avcodec_find_decoder_by_name("libdav1d") : avcodec_find_decoder(parameters.codec_id)
        guard let decoder, Self.decoders.contains(String(cString: decoder.pointee.name)) else {
            throw TensorIOError.invalidVideo("the video is coded in \(codecName), which TensorIO does not decode (H.264, HEVC, MPEG-4 part 2, VP8, VP9, AV1, Motion JPEG, MPEG-1 and MPEG-2 video)")
        }
        self.decoder = decoder
        let (width, height) = (Int(parameters.width), Int(parameters.height))
        guard width > 0, height > 0 else { throw TensorIOError.invalidVideo("the video stream does not say its size (\(width)×\(height))") }
        if let problem = limits.frameSizeProblem(width: width, height: height) { throw TensorIOError.videoLimit("the video stream claims \(problem)") }

        let rates: [AVRational] = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate]
        let rate = rates.first { $0.num > 0 && $0.den > 0 }
        let frameRate: Double? = rate.map { Double($0.num) / Double($0.den) }
        if let frameRate, frameRate > limits.maximumFrameRate {
            throw TensorIOError.videoLimit("the video stream claims \(frameRate) frames per second, more than \(limits.maximumFrameRate) (VideoLimits.maximumFrameRate)")
        }
        let timeBase = stream.pointee.time_base
        if stream.pointee.start_time != tio_nopts_value(), timeBase.num > 0, timeBase.den > 0 {
            startMicroseconds = av_rescale_q(stream.pointee.start_time, timeBase, AVRational(num: 1, den: 1_000_000))
        }
        var seconds: Double?
        if stream.pointee.duration != tio_nopts_value(), stream.pointee.duration > 0, timeBase.num > 0, timeBase.den > 0 {
            seconds = Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
        } else if context.pointee.duration != tio_nopts_value(), context.pointee.duration > 0 {
            seconds = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        let limitSeconds = Double(FrameSampler.microseconds(limits.maximumDuration)) / 1_000_000
        if let seconds, seconds > limitSeconds {
            throw TensorIOError.videoLimit("the video claims to last \(FrameSampler.clamped(seconds)) s, longer than \(limits.maximumDuration) (VideoLimits.maximumDuration)")
        }
        var matrix: [Int32] = []
        var size: Int = 0
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * MemoryLayout<Int32>.size {
            matrix = (0..<9).map { UnsafeRawPointer(data).loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        }
        let container = String(cString: context.pointee.iformat.pointee.name).split(separator: ",").first.map(String.init) ?? ""
        info = VideoInfo(
            width: width, height: height, orientation: DisplayMatrix.orientation(matrix), frameRate: frameRate,
            exactFrameRate: rate.flatMap { VideoFrameRate(numerator: Int($0.num), denominator: Int($0.den)) },
            duration: seconds.map { .microseconds(FrameSampler.clamped(($0 * 1_000_000).rounded())) },
            frameCount: stream.pointee.nb_frames > 0 ? Int(clamping: stream.pointee.nb_frames) : nil,
            codec: codecName, container: container
        )
    }

    /// Whether libavformat read to the end of the file while it read the container's header.
    private var endedInHeader = false

    /// A note for an error when libavformat read to the end of the file while reading the container's header
    /// (the streams' probing reads a small file to its end whole, so only the header's reading says it).
    private var cutShort: String {
        guard let source, !source.isStream else { return "" }
        return source.readPastEnd && (context == nil || endedInHeader) ? " (the file ended before FFmpeg had read its header: is it cut short?)" : ""
    }

    /// Throws when a read was refused because the source's read budget is spent, or a live stream's wait
    /// was given up.
    func checkBudget() throws {
        if let interrupt, !interrupt.isCancelled, interrupt.timedOut {
            throw TensorIOError(.io, "nothing came from the stream for \(interrupt.timeout)")
        }
        guard let source else { return }
        if source.budgetExhausted {
            throw TensorIOError.videoLimit("reading the video took more than 16 times its size in bytes: its index points at the same data again and again")
        }
        if let code = source.readError {
            throw TensorIOError(.io, "the video file cannot be read: \(String(cString: strerror(code)))")
        }
    }

    /// Reads the next packet of any stream into `packet` (`av_read_frame`).
    ///
    /// - Returns: 0, `AVERROR_EOF` at the end, or another negative `AVERROR`.
    func read(into packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        let status = av_read_frame(context, packet)
        if status >= 0 { interrupt?.progressed() }
        return status
    }

    /// The index of the chosen stream among the container's.
    var streamIndex: Int32 { stream?.pointee.index ?? -1 }

    /// The stream's time base, in which its packets' and frames' timestamps count.
    var timeBase: AVRational { stream?.pointee.time_base ?? AVRational(num: 1, den: 1) }

    /// Moves to the key frame at or before `microseconds` in the chosen stream.
    ///
    /// - Returns: Whether libavformat could seek there.
    func seek(toMicroseconds microseconds: Int64) -> Bool {
        guard let context, let stream else { return false }
        let target = av_rescale_q(microseconds, AVRational(num: 1, den: 1_000_000), stream.pointee.time_base)
        return av_seek_frame(context, stream.pointee.index, target, AVSEEK_FLAG_BACKWARD) >= 0
    }
}
