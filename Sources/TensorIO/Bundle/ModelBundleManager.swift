public import Foundation
public import Logging
internal import TensorIOSupport

/// Every bundle in a folder, found by identifier.
public struct ModelBundleManager: Sendable {
    /// A bundle that could not be opened, and why.
    public struct Failure: Sendable, Hashable {
        /// The folder that failed.
        public var url: URL
        /// Why it failed.
        public var error: TensorIOError
    }

    /// The bundles that opened, sorted by name, case-insensitively.
    public let bundles: [ModelBundle]
    /// The bundle folders that did not open.
    public let failures: [Failure]

    /// Opens every `.tfbundle` and `.tiobundle` folder directly inside `directory`.
    ///
    /// - Parameters:
    ///   - directory: The folder holding the bundles.
    ///   - registry: The backends bundles may name (see ``ModelBundle/init(at:limits:registry:logger:)``).
    ///   - logger: Where notes on the bundles go (a deprecated `.tfbundle` extension).
    /// - Throws: ``TensorIOError`` when the folder cannot be read or holds no bundle that opens.
    public init(
        loadingBundlesIn directory: URL, registry: ModelRegistry = .builtIn, logger: Logger = Logger.current
    ) throws {
        let entries: [URL]
        do {
            entries = try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]
            )
        } catch {
            throw TensorIOError(.io, "cannot list the folder: \(SystemErrorText.reason(of: error))", location: directory.path)
        }
        var bundles: [ModelBundle] = []
        var failures: [Failure] = []
        let candidates = entries
            .filter { ["tfbundle", "tiobundle"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        for url in candidates {
            do {
                bundles.append(try ModelBundle(at: url, registry: registry, logger: logger))
            } catch let error as TensorIOError {
                failures.append(Failure(url: url, error: error))
            }
        }
        guard !bundles.isEmpty else {
            throw TensorIOError(.invalidBundle, "no bundle in the folder could be opened", location: directory.path)
        }
        self.bundles = bundles.sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
        self.failures = failures
    }

    /// The bundle whose `id` is `identifier`, or `nil`.
    public func bundle(withIdentifier identifier: String) -> ModelBundle? {
        bundles.first { $0.identifier == identifier }
    }

    /// The bundles with these identifiers, in the order asked; unknown identifiers are skipped.
    public func bundles(withIdentifiers identifiers: [String]) -> [ModelBundle] {
        identifiers.compactMap(bundle(withIdentifier:))
    }
}
