import Logging

/// The backends and custom model types a bundle can name.
///
/// `model.backend` picks a backend (`tflite` and `tensorflow` are built in); `model.class` picks a model type registered by
/// name, which then takes precedence over the backend, as in the original.
///
/// ```swift
/// ModelRegistry.shared.register(modelClass: "EchoModel") { bundle, configuration in
///     EchoModel(bundle: bundle)
/// }
/// ```
public final class ModelRegistry: Sendable {
    /// Builds a model for a bundle.
    public typealias Factory = @Sendable (ModelBundle, ModelConfiguration) throws -> any Model

    /// The registry `ModelBundle.makeModel(configuration:)` uses.
    public static let shared = ModelRegistry()

    /// The backend used when `model.backend` is left out.
    public static let defaultBackend = "tflite"

    /// Backend names `model.json` may use even when this build cannot run them, so that such bundles
    /// still validate.
    static let wellKnownBackends: Set<String> = ["tflite", "tensorflow"]

    private struct Entries {
        var backends: [String: Factory] = [:]
        var modelClasses: [String: Factory] = [:]
    }

    private let entries = LockedValue(Entries())
    private static let logger = Logger(label: "TensorIO.ModelRegistry")

    /// Creates a registry with the built-in backends.
    public init() {
        register(backend: "tflite") { bundle, configuration in
            RuntimeModel(bundle: bundle, configuration: configuration, engine: TFLiteEngine(bundle: bundle, configuration: configuration))
        }
        register(backend: "tensorflow") { bundle, configuration in
            RuntimeModel(bundle: bundle, configuration: configuration, engine: TensorFlowEngine(bundle: bundle, configuration: configuration))
        }
    }

    /// Registers (or replaces) a backend.
    ///
    /// - Parameters:
    ///   - name: The name `model.backend` uses; matched case-insensitively.
    ///   - factory: Builds a model for a bundle.
    public func register(backend name: String, factory: @escaping Factory) {
        entries.withLock { $0.backends[name.lowercased()] = factory }
    }

    /// Registers (or replaces) a custom model type.
    ///
    /// - Parameters:
    ///   - name: The name `model.class` uses; matched exactly.
    ///   - factory: Builds a model for a bundle.
    public func register(modelClass name: String, factory: @escaping Factory) {
        entries.withLock { $0.modelClasses[name] = factory }
    }

    /// The registered backends' names, sorted.
    public var backendNames: [String] { entries.withLock { $0.backends.keys.sorted() } }

    /// The registered model types' names, sorted.
    public var modelClassNames: [String] { entries.withLock { $0.modelClasses.keys.sorted() } }

    var knownBackendNames: Set<String> {
        Self.wellKnownBackends.union(entries.withLock { $0.backends.keys })
    }

    /// Builds the model a bundle asks for: a placeholder model, the registered `model.class`, or the
    /// registered `model.backend` (the default backend when none is named).
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when the class or backend is not
    ///   registered, or whatever the factory throws.
    public func makeModel(for bundle: ModelBundle, configuration: ModelConfiguration) throws -> any Model {
        if bundle.isPlaceholder {
            return PlaceholderModel(bundle: bundle, configuration: configuration)
        }
        let (backends, classes) = entries.withLock { ($0.backends, $0.modelClasses) }
        if let className = bundle.model.className {
            guard let factory = classes[className] else {
                throw TensorIOError(
                    .unsupported,
                    "\"\(className)\" is not a registered model class (registered: \(Self.list(classes.keys)))",
                    location: "model.class"
                )
            }
            return try factory(bundle, configuration)
        }
        let name = bundle.model.backend ?? Self.defaultBackend
        if bundle.model.backend == nil {
            Self.logger.warning("\(bundle.url.lastPathComponent): model.backend is not given; using \(name)")
        }
        guard let factory = backends[name] else {
            throw TensorIOError(
                .unsupported,
                "the \"\(name)\" backend is not available in this build (available: \(Self.list(backends.keys)))",
                location: "model.backend"
            )
        }
        return try factory(bundle, configuration)
    }

    private static func list(_ names: some Sequence<String>) -> String {
        let sorted = names.sorted()
        return sorted.isEmpty ? "none" : sorted.joined(separator: ", ")
    }
}
