public import TensorIO

extension TensorIOError.Code {
    /// Video that cannot be read: not an MP4, MOV, Matroska, WebM or AVI file, no video stream, a codec
    /// TensorIO does not decode, a stream FFmpeg rejects, a file cut short or damaged.
    public static let invalidVideo = TensorIOError.Code("invalid-video")
}

extension TensorIOError {
    static func invalidVideo(_ message: String) -> TensorIOError {
        TensorIOError(.invalidVideo, message)
    }

    static func videoLimit(_ message: String) -> TensorIOError {
        TensorIOError(.limitExceeded, message)
    }
}
