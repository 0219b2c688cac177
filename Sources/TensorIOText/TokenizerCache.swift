import Foundation
import TensorIO
import TensorIOSupport

/// The tokenizers `Model.classify(text:)` and `Model.embed(text:)` built, by bundle: reading a vocabulary
/// costs milliseconds, a run on a short text microseconds. An entry is rebuilt when its description or
/// one of its files changes (size or modification time); at most ``capacity`` are kept.
enum TokenizerCache {
    struct Key: Hashable {
        let bundle: URL
        let description: TextDescription
        let files: [String]
    }

    static let capacity = 16
    private static let tokenizers = LockedValue<[Key: TextTokenizer]>([:])

    static func tokenizer(for bundle: ModelBundle) throws -> TextTokenizer {
        // The files' size and date (an inferred bundle's come from the model file).
        let files = try description(of: bundle).files.map { bundle.assetURL(named: $0) } + [bundle.modelFileURL].compactMap { $0 }
        let key = Key(
            bundle: bundle.url, description: try description(of: bundle),
            files: files.map { url in
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
                return "\(attributes?[.size] ?? 0) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            }
        )
        if let tokenizer = tokenizers.withLock({ $0[key] }) { return tokenizer }
        let tokenizer = try TextTokenizer(bundle: bundle)
        tokenizers.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = tokenizer
        }
        return tokenizer
    }

    private static func description(of bundle: ModelBundle) throws -> TextDescription {
        if let text = bundle.text { return text }
        return try TextTokenizer(bundle: bundle).description  // throws the "no text entry" error
    }
}
