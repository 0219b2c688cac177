import Foundation
import Testing
@_spi(Tools) import TensorIO
import TensorIOTestSupport

/// The hostile regression corpus (`Tests/Fixtures/Hostile/`, written by its `make_hostile.py`): every
/// case goes through the check `cases.json` names and must end with the error it names — never a crash,
/// a hang, or success. Archive cases run in `TensorIODeliveryTests`, which has the archive reader.
@Suite("Hostile corpus")
struct HostileCorpusTests {
    @Test("the corpus lists a case of every kind")
    func corpusIsComplete() {
        #expect(Set(HostileCorpus.cases.map(\.kind)).isSuperset(of: ["bundle", "model-json", "image", "model-file", "archive"]))
    }

    @Test("each case gives its error", arguments: HostileCorpus.cases(of: ["bundle", "model-json", "image", "model-file"]))
    func hostileCase(_ hostile: HostileCorpus.Case) throws {
        let error = Self.error(for: hostile.kind, at: hostile.url)
        #expect(error?.code.rawValue == hostile.code, "\(hostile.file): \(String(describing: error)) — \(hostile.why)")
        #expect(error?.description.contains(hostile.message) == true, "\(hostile.file): \(String(describing: error))")
    }

    @Test("a FIFO as model.file is refused at once (made here: git cannot hold one)")
    func fifoModelFile() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { bundle in
            let model = bundle.appendingPathComponent("model.tflite")
            try FileManager.default.removeItem(at: model)
            #expect(mkfifo(model.path, 0o600) == 0)
            let error = Self.error(for: "bundle", at: bundle)
            #expect(error?.code == .invalidBundle)
            #expect(error?.description == "model.file: \"model.tflite\" is a FIFO, not a regular file or folder")
        }
    }

    /// Runs the check for `kind` and returns the TensorIOError it threw; `nil` when it succeeded.
    static func error(for kind: String, at url: URL) -> TensorIOError? {
        do {
            switch kind {
            case "bundle":
                let model = try ModelBundle(at: url).makeModel()
                try model.load()
            case "model-json":
                let issues = ModelBundleValidator.issues(inModelJSON: try Data(contentsOf: url))
                if !issues.isEmpty { throw TensorIOError(.invalidBundle, issues.map(\.description).joined(separator: "; ")) }
            case "image":
                _ = try PixelBuffer(contentsOf: url)
            case "model-file":
                let bytes = try Data(contentsOf: url)
                _ = try bytes.withUnsafeBytes { try TFLiteModelVerifier.verify($0, fileName: url.lastPathComponent) }
            default:
                Issue.record("unknown kind \(kind)")
            }
            return nil
        } catch let error as TensorIOError {
            return error
        } catch {
            Issue.record("not a TensorIOError: \(error)")
            return nil
        }
    }
}
