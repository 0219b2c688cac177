import Foundation
import Logging
/// The backends and custom model types a bundle can name: a value the caller builds and passes, not
/// process-wide state.
///
/// `model.backend` picks a backend (`tflite` and `tensorflow` are built in); `model.class` picks a model type
/// registered by name, which then takes precedence over the backend, as in the original. Functions that
/// build models or check bundles take a registry and default to ``builtIn``.
///
/// ```swift
/// var registry = ModelRegistry.builtIn
/// registry.register(modelClass: "EchoModel") { bundle, configuration in
///     EchoModel(bundle: bundle)
/// }
/// let bundle = try ModelBundle(at: url, registry: registry)
/// let model = try bundle.makeModel(registry: registry)
/// ```
public struct ModelRegistry: Sendable {
    /// Builds a model for a bundle.
    public typealias Factory = @Sendable (ModelBundle, ModelConfiguration) throws -> any Model

    /// The built-in backends, `tflite` and `tensorflow`, the embedding task, and no custom model types.
    public static let builtIn = ModelRegistry()

    /// The backend used when `model.backend` is left out.
    public static let defaultBackend = "tflite"

    /// Backend names `model.json` may use even when a registry cannot run them, so that such bundles
    /// still validate.
    static let wellKnownBackends: Set<String> = ["tflite", "tensorflow"]

    private var backends: [String: Factory] = [:]
    private var modelClasses: [String: Factory] = [:]
    /// The tasks whose `model.json` entries are read when a bundle opens and inferred from bare models
    /// (``builtIn`` has the embedding task; each task module adds its own, e.g. `ModelRegistry.vision`).
    package private(set) var tasks = TaskRegistry()

    /// Creates a registry with the built-in backends and the embedding task (the same as ``builtIn``).
    public init() {
        // Embeddings are the core's own task: image and text embedders share the entry and the value.
        register(task: EmbeddingTask.self)
        register(backend: "tflite") { bundle, configuration in
            Self.runtimeModel(bundle, configuration, engine: LiteRTEngine(bundle: bundle, configuration: configuration))
        }
        register(backend: "tensorflow") { bundle, configuration in
            Self.runtimeModel(bundle, configuration, engine: TensorFlowEngine(bundle: bundle, configuration: configuration))
        }
    }

    /// A built-in backend's model: a ``TrainableModel`` only when the bundle trains (`model.modes`), so a
    /// predict-only model cannot be cast to one.
    private static func runtimeModel(
        _ bundle: ModelBundle, _ configuration: ModelConfiguration, engine: any BackendEngine
    ) -> any Model {
        if bundle.modelFile.modes.contains(.train) {
            return TrainableRuntimeModel(bundle: bundle, configuration: configuration, engine: engine)
        }
        return RuntimeModel(bundle: bundle, configuration: configuration, engine: engine)
    }

    /// Registers (or replaces) a backend.
    ///
    /// - Parameters:
    ///   - name: The name `model.backend` uses; matched case-insensitively.
    ///   - factory: Builds a model for a bundle.
    public mutating func register(backend name: String, factory: @escaping Factory) {
        backends[name.lowercased()] = factory
    }

    /// Registers (or replaces) a custom model type.
    ///
    /// - Parameters:
    ///   - name: The name `model.class` uses; matched exactly.
    ///   - factory: Builds a model for a bundle.
    public mutating func register(modelClass name: String, factory: @escaping Factory) {
        modelClasses[name] = factory
    }

    /// Registers (or replaces) a task.
    ///
    /// - Parameter task: The task; its entry is read when a bundle opens and inferred from bare models.
    package mutating func register(task: any ModelTask.Type) {
        tasks.register(task)
    }

    /// This registry with tasks added (a task module's `addingXTasks()`).
    package func adding(_ tasks: any ModelTask.Type...) -> ModelRegistry {
        var registry = self
        for task in tasks { registry.register(task: task) }
        return registry
    }

    /// The registered tasks' `model.json` keys, in registration order.
    public var taskNames: [String] { tasks.tasks.map { $0.entryKey } }

    /// The registered backends' names, sorted.
    public var backendNames: [String] { backends.keys.sorted() }

    /// The registered model types' names, sorted.
    public var modelClassNames: [String] { modelClasses.keys.sorted() }

    /// The backend names a bundle may give and still validate: the registered ones and the well-known ones.
    var knownBackendNames: Set<String> {
        Self.wellKnownBackends.union(backends.keys)
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
        if let className = bundle.modelFile.className {
            let factory = try Self.factory(
                className, in: modelClasses, "\"\(className)\" is not a registered model class", location: "model.class"
            )
            return try factory(bundle, configuration)
        }
        let name = bundle.modelFile.backend ?? Self.defaultBackend
        if bundle.modelFile.backend == nil {
            configuration.logger.warning("\(bundle.url.lastPathComponent): model.backend is not given; using \(name)")
        }
        let factory = try Self.factory(
            name, in: backends, "the \"\(name)\" backend is not in the model registry", location: "model.backend"
        )
        return try factory(bundle, configuration)
    }

    /// The factory registered under `name`, or an ``TensorIOError/Code/unsupported`` error: `unregistered`
    /// followed by the names that are registered.
    private static func factory(
        _ name: String, in factories: [String: Factory], _ unregistered: String, location: String
    ) throws -> Factory {
        guard let factory = factories[name] else {
            let registered = factories.keys.sorted()
            throw TensorIOError(
                .unsupported,
                "\(unregistered) (registered: \(registered.isEmpty ? "none" : registered.joined(separator: ", ")))",
                location: location
            )
        }
        return factory
    }
}
