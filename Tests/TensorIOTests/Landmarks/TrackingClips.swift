import Foundation
import TensorIO
import TensorIOTestSupport
import TensorIOVideo

/// The clips `scripts/fixtures/make_tracking_clips.sh` writes for the tracker's reference
/// (`Tests/Fixtures/Landmarks/tracking.json`): made once per version of the script into
/// `.build/tracking-clips/`, never committed. The hand clip is made from a gesture photo of the test data.
enum TrackingClips {
    /// The test-data photo the hand clip shows.
    static let gesture = "task-data/gestures/call/0413d5c5-f5ba-476f-a921-ea5e967692a9.jpg"

    /// The folder holding the clips, made by the first test that asks.
    static let folder: Result<URL, any Error> = Result { try make() }

    /// The clip called `name`.
    static func url(_ name: String) throws -> URL { try folder.get().appendingPathComponent(name) }

    /// Every frame of the clip called `name`, decoded on this thread.
    static func frames(_ name: String) throws -> [VideoFrame] {
        let decoder = try VideoReader(contentsOf: url(name)).makeDecoder()
        var frames: [VideoFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The SHA-256 of each byte string, in hexadecimal (by `sha256sum`: the test target has no digest of its own).
    static func sha256(_ items: [Data]) throws -> [String] {
        let folder = try makeTemporaryDirectory()
        let files = try items.enumerated().map { index, data in
            let file = folder.appendingPathComponent(String(format: "%04d", index))
            try data.write(to: file)
            return file.path
        }
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), files)
        guard result.status == 0 else { throw TestFailure("sha256sum failed: \(result)") }
        return String(decoding: result.stdoutData, as: UTF8.self).split(separator: "\n").map { String($0.prefix(64)) }
    }

    /// Runs the script into `.build/tracking-clips/SCRIPT-CRC` unless that folder is there already; written
    /// beside and renamed, so a run cut short leaves nothing half made.
    private static func make() throws -> URL {
        let script = Fixtures.repositoryURL("scripts/fixtures/make_tracking_clips.sh")
        let version = String(CRC32.checksum(try Data(contentsOf: script)), radix: 16)
        let cache = Fixtures.repositoryURL(".build/tracking-clips")
        let folder = cache.appendingPathComponent(version)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("pose.mp4").path) { return folder }
        let scratch = cache.appendingPathComponent(".making-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path, scratch.path], timeLimit: .seconds(120))
        guard result.exited, result.status == 0 else { throw TestFailure("make_tracking_clips.sh failed: \(result)") }
        do {
            try FileManager.default.moveItem(at: scratch, to: folder)
        } catch where FileManager.default.fileExists(atPath: folder.path) {
            // Another test process made them meanwhile.
        }
        return folder
    }
}
