import CFFmpeg

/// FFmpeg's error codes in words, and its log kept quiet.
///
/// In the fence because it calls FFmpeg's C functions directly. The contract is FFmpeg's own: `av_strerror`
/// writes at most the buffer's size, NUL included, and the log level is one process-wide integer, set once.
enum FFmpegError {
    /// `av_strerror`'s text for `code` (a negative `AVERROR`).
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "FFmpeg error \(code)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Silences FFmpeg's log, once per process, unless the app has set a level of its own: FFmpeg writes
    /// every complaint about a damaged stream to standard error, and TensorIO reports what matters as a
    /// `TensorIOError` instead. An app that called `av_log_set_level` before opening its first video keeps
    /// its level (FFmpeg's default is `AV_LOG_INFO`, which is taken to mean nobody chose one).
    static let quietLog: Void = {
        if av_log_get_level() == AV_LOG_INFO { av_log_set_level(AV_LOG_QUIET) }
    }()
}
