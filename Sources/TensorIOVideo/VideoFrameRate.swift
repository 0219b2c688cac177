/// A frame rate as the fraction a container states it: 30000/1001 for NTSC's 29.97 frames per second,
/// which a `Double` only approximates.
///
/// ``VideoInfo/exactFrameRate`` gives a stream's; ``VideoWriter`` takes one, so that a video written from
/// another's frames keeps their timing exactly.
public struct VideoFrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames in ``denominator`` seconds; more than 0.
    public let numerator: Int
    /// Seconds in which ``numerator`` frames are shown; more than 0.
    public let denominator: Int

    /// Creates a frame rate of `numerator` frames every `denominator` seconds.
    ///
    /// - Parameters:
    ///   - numerator: Frames; from 1 to `Int32.max`.
    ///   - denominator: Seconds; from 1 to `Int32.max`.
    /// - Returns: `nil` when either is out of range (FFmpeg keeps both as 32-bit integers).
    public init?(numerator: Int, denominator: Int) {
        guard (1...Int(Int32.max)).contains(numerator), (1...Int(Int32.max)).contains(denominator) else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Creates a whole number of frames per second.
    ///
    /// - Parameter framesPerSecond: Frames per second; from 1 to `Int32.max`.
    /// - Returns: `nil` when it is out of range.
    public init?(_ framesPerSecond: Int) {
        self.init(numerator: framesPerSecond, denominator: 1)
    }

    /// The rate in frames per second.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}
