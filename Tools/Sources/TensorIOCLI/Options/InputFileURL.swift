import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport

/// A file named on the command line for a command to read: a folder there gets one error, with the files in
/// it as the hint, whatever the command.
enum InputFileURL {
    /// The kinds of files the commands read one by one.
    enum Kind {
        case image, audio, video

        /// The files a folder holds, with a pattern for them: "image files" and `*.jpg`.
        var description: (files: String, pattern: String) {
            switch self {
            case .image: return ("image files", "*.jpg")
            case .audio: return ("audio files", "*.wav")
            case .video: return ("video files", "*.mp4")
            }
        }
    }

    /// `path` as a file URL.
    ///
    /// - Throws: ``CLIError`` when `path` is a folder: "PATH is a folder: give the image files in it, such as
    ///   PATH/*.jpg".
    static func checked(_ path: String, _ kind: Kind) throws -> URL {
        let url = URL(fileURLWithPath: path)
        if UntrustedFile.kind(of: url) == .directory {
            let (files, pattern) = kind.description
            throw CLIError("\(path) is a folder: give the \(files) in it, such as \(path)/\(pattern)")
        }
        return url
    }
}
