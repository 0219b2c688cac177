internal import TensorIOSupport

/// The one error type TensorIO throws.
///
/// Every error says what went wrong in words a user can act on, and where: the JSON path inside
/// `model.json` (such as `outputs[0].labels`) or the layer concerned. Errors from the machine-learning
/// runtime keep the runtime's own message in ``runtimeMessage``.
public struct TensorIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; stable enough to switch on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier such as `invalid-input`.
        public let rawValue: String

        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The bundle folder or its `model.json` is missing, malformed, or breaks the schema.
        public static let invalidBundle = Code("invalid-bundle")
        /// A value given to `run` does not fit the model's inputs.
        public static let invalidInput = Code("invalid-input")
        /// An output was asked for by a name the run did not produce, or as a kind of value or a number
        /// type it does not hold (see ``Output``).
        public static let outputMismatch = Code("output-mismatch")
        /// A layer in `model.json` disagrees with the tensor the model really has.
        public static let layerMismatch = Code("layer-mismatch")
        /// The runtime library a backend needs is not installed or cannot be loaded.
        public static let runtimeUnavailable = Code("runtime-unavailable")
        /// The runtime reported a failure while loading or running the model.
        public static let runtimeFailure = Code("runtime-failure")
        /// The bundle asks for something this build cannot do: an unknown backend or model class, a mode
        /// the model does not support.
        public static let unsupported = Code("unsupported")
        /// Reading or writing a file failed.
        public static let io = Code("io")
        /// An image could not be decoded or encoded: not an image, a format TensorIO does not read,
        /// truncated or corrupt data, or a zero size.
        public static let invalidImage = Code("invalid-image")
        /// A size or count read from outside (a `model.json`, a model file, an image header, an archive)
        /// is past one of the ``ModelLimits`` or overflows; the location names the field and the message
        /// the limit.
        public static let limitExceeded = Code("limit-exceeded")
        /// The model file is not one the runtime may be given: not a regular file inside the bundle, too
        /// large, or structurally broken (an offset, size or index out of range).
        public static let invalidModelFile = Code("invalid-model-file")
        /// The runtime crashed or ran past its time or memory limit while an isolated check loaded the
        /// model (see ``ModelBundle/checkLoading(_:configuration:registry:)``); the message names the signal.
        public static let runtimeCrashed = Code("runtime-crashed")
        /// A zip archive is not readable: malformed, corrupt or using an unsupported feature; for a
        /// bundle archive (TensorIODelivery), also one not holding exactly one bundle folder.
        public static let invalidArchive = Code("invalid-archive")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence describing the failure, without the location.
    public var message: String
    /// Where it happened: a JSON path such as `inputs[1].quantize`, or `layer "image"`; `nil` when the
    /// failure concerns the whole model.
    public var location: String?
    /// Every problem found when ``code`` is ``Code/invalidBundle``, in the order they were found.
    public var issues: [BundleIssue]
    /// The runtime's own words, when a runtime reported the failure.
    public var runtimeMessage: String?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, location: String? = nil, issues: [BundleIssue] = [],
        runtimeMessage: String? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.issues = issues
        self.runtimeMessage = runtimeMessage
    }

    /// One line: location, message and the runtime's message.
    public var description: String {
        var text = location.map { "\($0): \(message)" } ?? message
        if let runtimeMessage, !runtimeMessage.isEmpty { text += " (runtime: \(runtimeMessage))" }
        return text
    }
}

extension TensorIOError {
    static func invalidBundle(_ issues: [BundleIssue]) -> TensorIOError {
        let message = issues.count == 1
            ? issues[0].description
            : "\(issues.count) problems: " + issues.map(\.description).joined(separator: "; ")
        return TensorIOError(.invalidBundle, message, issues: issues)
    }

    static func invalidInput(_ message: String, layer: String? = nil) -> TensorIOError {
        TensorIOError(.invalidInput, message, location: layer.map { "layer \"\($0)\"" })
    }

    static func layerMismatch(_ message: String, layer: String) -> TensorIOError {
        TensorIOError(.layerMismatch, message, location: "layer \"\(layer)\"")
    }
}

/// `SystemErrorText.reason(of:)` gives a TensorIOError's own description.
extension TensorIOError: SelfDescribingError {}
