import Foundation
import TensorIO
import TensorIOSupport

/// The tokenizers `Model.classify(text:)` and `Model.embed(text:)` built, by bundle: reading a vocabulary
/// costs milliseconds, a run on a short text microseconds. An entry is rebuilt when its description
/// changes, or when one of its files (the model file, for an inferred bundle) changes size or date —
/// checked at most once every ``revalidation``, since checking costs more than tokenizing. At most
/// ``capacity`` are kept.
enum TokenizerCache {
    struct Key: Hashable {
        let bundle: URL
        let description: TextDescription
    }

    struct Entry {
        let tokenizer: TextTokenizer
        /// The files' size and date when the tokenizer was built.
        let stamp: [String]
        var checked: ContinuousClock.Instant
    }

    static let capacity = 16
    static let revalidation = Duration.seconds(1)
    private static let entries = LockedValue<[Key: Entry]>([:])

    static func tokenizer(for bundle: ModelBundle) throws -> TextTokenizer {
        guard let description = try bundle.text else { return try TextTokenizer(bundle: bundle) }  // throws: no text entry
        let key = Key(bundle: bundle.url, description: description)
        let now = ContinuousClock.now
        let cached = entries.withLock { $0[key] }
        if let cached, now - cached.checked < revalidation { return cached.tokenizer }
        let stamp = Self.stamp(of: bundle, description)
        if let cached, cached.stamp == stamp {
            entries.withLock { $0[key]?.checked = now }
            return cached.tokenizer
        }
        let tokenizer = try TextTokenizer(bundle: bundle)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = Entry(tokenizer: tokenizer, stamp: stamp, checked: now)
        }
        return tokenizer
    }

    /// The size and modification date of the tokenizer's files and of the model file.
    private static func stamp(of bundle: ModelBundle, _ description: TextDescription) -> [String] {
        let paths = description.files.map { bundle.url.path + "/assets/" + $0 } + [bundle.modelFileURL?.path].compactMap { $0 }
        return paths.map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return "\(attributes?[.size] ?? 0) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }
}
