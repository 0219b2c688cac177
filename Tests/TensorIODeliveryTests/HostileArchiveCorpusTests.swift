#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// The archive cases of the hostile regression corpus (`Tests/Fixtures/Hostile/cases.json`): each must
/// be refused with its error, within the time limit, by `inspect`, by `extract` (leaving nothing behind)
/// and by the in-memory reader.
@Suite("Hostile archive corpus")
struct HostileArchiveCorpusTests {
    static let cases = HostileCorpus.cases(of: ["archive"])

    @Test("the corpus has archive cases")
    func corpusHasArchives() {
        #expect(Self.cases.count >= 4)
    }

    @Test("each archive is refused with its error and nothing is left on disk", arguments: cases)
    func hostileArchive(_ hostile: HostileCorpus.Case) async throws {
        let url = hostile.url
        let start = Date()
        try withTemporaryDirectory { scratch in
            let destination = scratch.appendingPathComponent("out")
            let errors: [TensorIOError?] = [
                Self.error { try BundleArchive.validate(url) },
                Self.error { _ = try BundleArchive.extract(url, into: destination) },
                Self.error { _ = try BundleArchive.unpack(Data(contentsOf: url), name: hostile.file) },
            ]
            // `inspect` reads headers only; a case about the data itself may pass it, never extraction.
            for error in errors.dropFirst() {
                #expect(error?.code.rawValue == hostile.code, "\(hostile.file): \(String(describing: error)) — \(hostile.why)")
                #expect(error?.description.contains(hostile.message) == true, "\(hostile.file): \(String(describing: error))")
            }
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: destination.path)) ?? []
            #expect(left.filter { !$0.hasSuffix("/") && !Self.isDirectory(destination.appendingPathComponent($0)) } == [])
        }
        #expect(Date().timeIntervalSince(start) < 30)
    }

    static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }

    static func error(_ body: () throws -> Void) -> TensorIOError? {
        do {
            try body()
            return nil
        } catch let error as TensorIOError {
            return error
        } catch {
            return TensorIOError(.io, "not a TensorIOError: \(error)")
        }
    }
}
#endif
