import CSndFile
import Foundation
import TensorIO

/// Decodes a WAV, FLAC or Ogg file held in memory with libsndfile, after ``AudioContainer`` has checked
/// its header: the codec reads exactly the checked bytes (no second read of the file), through
/// libsndfile's virtual I/O.
///
/// Decoding goes block by block and stops at the end of the stream or at ``AudioLimits/maximumSamples``,
/// whatever the header claims: a WAV whose data chunk says 2^32 frames reads the frames the file holds.
enum AudioDecoder {
    /// Frames decoded per call into libsndfile.
    static let blockFrames = 1 << 16

    static func decode(_ data: Data, limits: AudioLimits) throws -> AudioBuffer {
        let header = try AudioContainer.check(data)
        var info = SF_INFO()
        let file: InMemorySoundFile
        do { file = try InMemorySoundFile(data, info: &info) } catch {
            throw TensorIOError.invalidAudio("\(header.container.rawValue): \(error.reason)")
        }
        // libsndfile must have read the container the header check recognised, with the same format.
        let type = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let expected: Set<Int> = switch header.container {
        case .wav: [Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX)]
        case .flac: [Int(SF_FORMAT_FLAC)]
        case .ogg: [Int(SF_FORMAT_OGG)]
        }
        guard expected.contains(type), Int(info.channels) == header.channels, Int(info.samplerate) == header.sampleRate ?? Int(info.samplerate)
        else {
            throw TensorIOError.invalidAudio("\(header.container.rawValue): the codec reads this file differently from its header")
        }
        let sampleRate = Int(info.samplerate)
        if let problem = AudioBuffer.sampleRateProblem(sampleRate) { throw TensorIOError.invalidAudio("\(header.container.rawValue): \(problem)") }
        let channels = header.channels
        // What the header claims, up to the limit, is decoded straight into the samples' own storage; a
        // stream that holds more (a header that lies low) goes on block by block, and one that holds less
        // leaves the rest unused. Either way what is decoded, not what is claimed, decides the length.
        // A header may claim far more than the file holds (FLAC's 36-bit sample count, say): the storage
        // reserved from it is also held to 8 samples per byte of the file, more than any real PCM or FLAC
        // stream needs; a recording that decodes to more goes on block by block.
        let plausible = data.count.multipliedReportingOverflow(by: 8).partialValue / channels
        let claimed = min(max(Int(clamping: info.frames), 0), limits.maximumSamples / channels, plausible)
        var decoded = 0
        var samples = try [Float](unsafeUninitializedCapacity: claimed * channels) { buffer, count in
            while decoded < claimed {
                let block = decoded * channels..<(decoded + min(blockFrames, claimed - decoded)) * channels
                let frames = file.readFrames(into: UnsafeMutableBufferPointer(rebasing: buffer[block]))
                guard frames > 0 else { break }
                try Self.checkFinite(buffer, from: decoded * channels, count: frames * channels)
                decoded += frames
            }
            count = decoded * channels
        }
        if decoded == claimed {
            var block = [Float](repeating: 0, count: blockFrames * channels)
            while true {
                let frames = block.withUnsafeMutableBufferPointer { file.readFrames(into: $0) }
                guard frames > 0 else { break }
                let count = frames * channels
                guard samples.count <= limits.maximumSamples - count else {
                    throw TensorIOError(
                        .limitExceeded, "the recording holds more than \(limits.maximumSamples) samples, the limit (AudioLimits.maximumSamples)"
                    )
                }
                try block.withUnsafeMutableBufferPointer { try Self.checkFinite($0, from: 0, count: count, before: samples.count) }
                samples.append(contentsOf: block[0..<count])
            }
        }
        let status = file.error
        if status != 0 {
            throw TensorIOError.invalidAudio("\(header.container.rawValue): \(String(cString: sf_error_number(status)))")
        }
        return AudioBuffer(unchecked: samples, channelCount: channels, sampleRate: sampleRate)
    }
}

extension AudioDecoder {
    /// Throws for the first sample of `buffer[start..<start + count]` that is not a finite number (a float
    /// WAV may hold NaN or infinity; a model would answer NaN).
    static func checkFinite(_ buffer: UnsafeMutableBufferPointer<Float>, from start: Int, count: Int, before earlier: Int = 0) throws {
        for index in start..<(start + count) where !buffer[index].isFinite {
            throw TensorIOError.invalidAudio("sample \(earlier + index) is not a finite number")
        }
    }
}
