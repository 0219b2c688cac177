import Foundation
import Testing
import TensorIOTestSupport

/// The one list of fixture bundles (``Fixtures/validBundles``, ``Fixtures/invalidBundles``) that every test
/// target uses: it must name what is on disk, so that a bundle added to `Tests/Fixtures/Bundles` is
/// tested everywhere or fails here.
@Suite("Fixture lists")
struct FixtureListTests {
    @Test("the lists name every folder of Tests/Fixtures/Bundles exactly once")
    func listsMatchTheFolder() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Fixtures.bundlesDirectory.path)
            .filter { !$0.hasPrefix(".") }
        let listed = Fixtures.validBundles + Fixtures.invalidBundles + [Fixtures.bundleWithoutExtension]
        #expect(listed.count == Set(listed).count, "a bundle is listed twice: \(listed.sorted())")
        #expect(Set(listed) == Set(folders), "on disk, not listed: \(Set(folders).subtracting(listed).sorted()); listed, not on disk: \(Set(listed).subtracting(folders).sorted())")
    }
}
