import Foundation
import Testing
import TensorIOTestSupport

/// A folder named where a command reads files one by one: the same one line from every command
/// (InputFileURL), naming the folder and the files to give instead; the other files still run.
@Suite("CLI: a folder among the files")
struct InputFolderTests {
    @Test("classify, segment, embed and classify on audio: one line with the folder and the files in it, exit 1", arguments: [
        (["classify", "Examples/efficientnet-lite0-float32.tiobundle", "Examples/photos/cat.jpg", "Examples/photos"], "image files", "*.jpg"),
        (["segment", "Tests/Fixtures/Metadata/selfie_segmentation.tflite", "Examples/photos/cat.jpg", "Examples/photos"], "image files", "*.jpg"),
        (["embed", "Examples/efficientnet-lite0-embedding.tiobundle", "Examples/photos/cat.jpg", "Examples/photos"], "image files", "*.jpg"),
        (["classify", ".build/zoo/wake-phrase/star_trek_activation_phrase_v2.tflite", "Tests/Fixtures/Audio/wake_phrase_fr_44100.wav", "Examples/photos"], "audio files", "*.wav"),
    ])
    func folder(_ arguments: [String], _ files: String, _ pattern: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stderrLines == ["error: Examples/photos is a folder: give the \(files) in it, such as Examples/photos/\(pattern)"], "\(result)")
        #expect(!result.stdout.isEmpty, "the file before the folder is still printed: \(result)")
    }
}
