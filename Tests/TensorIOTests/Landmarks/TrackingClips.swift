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
    static let folder: Result<URL, any Error> = Result {
        try ScriptOutput.folder(script: "scripts/fixtures/make_tracking_clips.sh", cache: "tracking-clips", marker: "pose.mp4")
    }

    /// The clip called `name`.
    static func url(_ name: String) throws -> URL { try folder.get().appendingPathComponent(name) }

    /// Every frame of the clip called `name`, decoded on this thread.
    static func frames(_ name: String) throws -> [VideoFrame] {
        try VideoClips.decodeAll(VideoReader(contentsOf: url(name)))
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
}
