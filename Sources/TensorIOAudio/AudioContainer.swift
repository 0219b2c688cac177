import Foundation
import TensorIO

/// The audio containers TensorIO reads, recognised and checked by their headers before any byte reaches
/// libsndfile: only these three, with sample rates and channel counts in range and, for WAV, only plain
/// PCM or IEEE float samples. libsndfile reads a dozen more formats and codecs (ADPCM, AIFF, raw, …);
/// they are refused here, which keeps a crafted file to the parsers the three need.
enum AudioContainer: String, Sendable {
    case wav = "WAV"
    case flac = "FLAC"
    case ogg = "Ogg"

    /// What the header says, checked.
    struct Header: Equatable {
        var container: AudioContainer
        /// `nil` for Opus, which decodes at a rate of libsndfile's choosing (checked once it has opened).
        var sampleRate: Int?
        var channels: Int
    }

    /// The most chunks of a WAV file walked to find `fmt ` and `data`.
    static let maximumWAVChunks = 1024

    /// Recognises and checks `data`'s header.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The container, its sample rate and channel count.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidAudio`) naming what is wrong.
    static func check(_ data: Data) throws -> Header {
        let bytes = ByteView(data)
        if bytes.matches("RIFF", at: 0), bytes.matches("WAVE", at: 8) { return try checkWAV(bytes) }
        if bytes.matches("fLaC", at: 0) { return try checkFLAC(bytes) }
        if bytes.matches("OggS", at: 0) { return try checkOgg(bytes) }
        if data.isEmpty { throw TensorIOError.invalidAudio("the file is empty") }
        throw TensorIOError.invalidAudio("not a WAV, FLAC or Ogg file (TensorIO reads these three)")
    }

    private static func checkWAV(_ bytes: ByteView) throws -> Header {
        var offset = 12
        var format: Header?
        for _ in 0..<maximumWAVChunks {
            guard let size = bytes.uint32LE(at: offset + 4) else { break }
            let body = offset + 8
            if bytes.matches("fmt ", at: offset) {
                format = try checkWAVFormat(bytes, at: body, size: Int(size))
            } else if bytes.matches("data", at: offset) {
                guard let format else { throw TensorIOError.invalidAudio("WAV: the data chunk comes before the fmt chunk") }
                return format
            }
            // Chunks are padded to an even size; a size past the end of the file ends the walk.
            let (next, overflow) = body.addingReportingOverflow(Int(size) + Int(size & 1))
            guard !overflow, next > offset, next < bytes.count else { break }
            offset = next
        }
        throw TensorIOError.invalidAudio(format == nil ? "WAV: no fmt chunk" : "WAV: no data chunk")
    }

    private static func checkWAVFormat(_ bytes: ByteView, at offset: Int, size: Int) throws -> Header {
        guard size >= 16, let tag = bytes.uint16LE(at: offset), let channels = bytes.uint16LE(at: offset + 2),
              let rate = bytes.uint32LE(at: offset + 4), let blockAlign = bytes.uint16LE(at: offset + 12),
              let bits = bytes.uint16LE(at: offset + 14)
        else { throw TensorIOError.invalidAudio("WAV: the fmt chunk is truncated") }
        // WAVE_FORMAT_EXTENSIBLE names its real format in the first two bytes of its sub-format GUID.
        var format = tag
        if tag == 0xFFFE {
            guard size >= 40, let subformat = bytes.uint16LE(at: offset + 24) else {
                throw TensorIOError.invalidAudio("WAV: the extensible fmt chunk is truncated")
            }
            format = subformat
        }
        let validBits: Set<UInt16> = format == 1 ? [8, 16, 24, 32] : format == 3 ? [32, 64] : []
        guard !validBits.isEmpty else {
            throw TensorIOError.invalidAudio("WAV: sample format 0x\(String(format, radix: 16)) is not PCM or IEEE float (TensorIO reads those two)")
        }
        guard validBits.contains(bits) else {
            throw TensorIOError.invalidAudio("WAV: \(bits)-bit \(format == 1 ? "PCM" : "float") samples are not supported")
        }
        let header = Header(container: .wav, sampleRate: Int(rate), channels: Int(channels))
        try checkRange(header)
        guard Int(blockAlign) == Int(channels) * Int(bits) / 8 else {
            throw TensorIOError.invalidAudio("WAV: block align \(blockAlign) does not match \(channels) channels of \(bits)-bit samples")
        }
        return header
    }

    private static func checkFLAC(_ bytes: ByteView) throws -> Header {
        // The first metadata block is STREAMINFO (type 0, 34 bytes): sample rate in 20 bits, channels − 1
        // in 3, bits per sample − 1 in 5.
        guard let blockHeader = bytes.uint32BE(at: 4), let packed = bytes.uint64BE(at: 18) else {
            throw TensorIOError.invalidAudio("FLAC: the STREAMINFO block is truncated")
        }
        guard (blockHeader >> 24) & 0x7F == 0, blockHeader & 0xFF_FFFF == 34 else {
            throw TensorIOError.invalidAudio("FLAC: the first metadata block is not a 34-byte STREAMINFO")
        }
        let rate = Int(packed >> 44)
        let channels = Int((packed >> 41) & 0x7) + 1
        let bits = Int((packed >> 36) & 0x1F) + 1
        guard bits >= 4 else { throw TensorIOError.invalidAudio("FLAC: \(bits)-bit samples are not a FLAC sample size") }
        let header = Header(container: .flac, sampleRate: rate, channels: channels)
        try checkRange(header)
        return header
    }

    private static func checkOgg(_ bytes: ByteView) throws -> Header {
        // The first page holds the codec's identification header as its first packet.
        guard let version = bytes.byte(at: 4), let segments = bytes.byte(at: 26) else {
            throw TensorIOError.invalidAudio("Ogg: the first page is truncated")
        }
        guard version == 0 else { throw TensorIOError.invalidAudio("Ogg: page version \(version) is not 0") }
        let packet = 27 + Int(segments)
        if bytes.byte(at: packet) == 1, bytes.matches("vorbis", at: packet + 1) {
            guard let channels = bytes.byte(at: packet + 11), let rate = bytes.uint32LE(at: packet + 12) else {
                throw TensorIOError.invalidAudio("Ogg Vorbis: the identification header is truncated")
            }
            let header = Header(container: .ogg, sampleRate: Int(rate), channels: Int(channels))
            try checkRange(header)
            return header
        }
        if bytes.matches("OpusHead", at: packet) {
            guard let channels = bytes.byte(at: packet + 9) else {
                throw TensorIOError.invalidAudio("Ogg Opus: the identification header is truncated")
            }
            // The header's input rate is informational: Opus decodes at 48 kHz or a rate libsndfile picks.
            let header = Header(container: .ogg, sampleRate: nil, channels: Int(channels))
            try checkRange(header)
            return header
        }
        throw TensorIOError.invalidAudio("Ogg: the stream is not Vorbis or Opus (TensorIO reads those two)")
    }

    private static func checkRange(_ header: Header) throws {
        if let rate = header.sampleRate, let problem = AudioBuffer.sampleRateProblem(rate) {
            throw TensorIOError.invalidAudio("\(header.container.rawValue): \(problem)")
        }
        if let problem = AudioBuffer.channelsProblem(header.channels) {
            throw TensorIOError.invalidAudio("\(header.container.rawValue): \(problem)")
        }
    }
}

/// Little- and big-endian reads of a file's bytes that answer `nil` past its end.
struct ByteView {
    private let data: Data

    init(_ data: Data) { self.data = data }

    var count: Int { data.count }

    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < data.count else { return nil }
        return data[data.startIndex + offset]
    }

    func matches(_ text: String, at offset: Int) -> Bool {
        let expected = Array(text.utf8)
        guard offset >= 0, offset <= data.count - expected.count else { return false }
        return data[(data.startIndex + offset)..<(data.startIndex + offset + expected.count)].elementsEqual(expected)
    }

    func uint16LE(at offset: Int) -> UInt16? { integer(at: offset, size: 2, bigEndian: false).map { UInt16($0) } }
    func uint32LE(at offset: Int) -> UInt32? { integer(at: offset, size: 4, bigEndian: false).map { UInt32($0) } }
    func uint32BE(at offset: Int) -> UInt32? { integer(at: offset, size: 4, bigEndian: true).map { UInt32($0) } }
    func uint64BE(at offset: Int) -> UInt64? { integer(at: offset, size: 8, bigEndian: true) }

    private func integer(at offset: Int, size: Int, bigEndian: Bool) -> UInt64? {
        guard offset >= 0, offset <= data.count - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(data[data.startIndex + offset + (bigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
