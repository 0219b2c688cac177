public import Foundation

/// A bundle inferred from a bare model file, with what was inferred and what could not be known.
public struct InferredBundle: Sendable, Hashable {
    /// One thing worth telling whoever turns the model into a bundle.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// What kind of note it is.
        public enum Kind: String, Sendable, Hashable {
            /// Taken from the model or its metadata.
            case inferred
            /// Not in the model: a guess or a gap to fill by editing `model.json` (or with flags).
            case unknown
            /// In the metadata, read, but not used by TensorIO.
            case unused
        }

        /// The kind.
        public var kind: Kind
        /// The layer it is about, if any.
        public var layer: String?
        /// What it says.
        public var message: String

        /// Creates a note.
        public init(_ kind: Kind, layer: String? = nil, _ message: String) {
            self.kind = kind
            self.layer = layer
            self.message = message
        }

        public var description: String {
            (layer.map { "\($0): " } ?? "") + message
        }
    }

    /// The bundle, in memory: its `url` is the model's folder and ``ModelBundle/modelFile`` names the model file.
    public var bundle: ModelBundle
    /// Files for the bundle's `assets/` folder (labels), by name.
    public var assets: [String: Data]
    /// What was inferred, what could not be known, what was not used, in order.
    public var notes: [Note]
}
