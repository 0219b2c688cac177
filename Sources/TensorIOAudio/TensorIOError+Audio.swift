public import TensorIO

extension TensorIOError.Code {
    /// Audio that cannot be read: not a WAV, FLAC or Ogg (Vorbis, Opus) file, a header out of range, a
    /// stream the codec rejects, samples that are not finite numbers.
    public static let invalidAudio = TensorIOError.Code("invalid-audio")
}

extension TensorIOError {
    static func invalidAudio(_ message: String) -> TensorIOError {
        TensorIOError(.invalidAudio, message)
    }
}
