/// The `model` entry of `model.json`: which file to run, on which backend, and how.
public struct ModelFileDescription: Sendable, Hashable {
    /// The model file (`.tflite`) or SavedModel folder, relative to the bundle.
    public var path: String
    /// The backend named in `model.backend`, lowercased; `nil` when the bundle leaves it out.
    public var backend: String?
    /// Whether the model works on quantized (uint8) values: layers without a `dtype` are uint8 when
    /// `true` and float32 when `false`. `nil` when `model.json` leaves `quantized` out: each such layer
    /// then takes the element type of the tensor it is bound to.
    public var isQuantized: Bool?
    /// What the model can do; `[.predict]` when `model.modes` is left out.
    public var modes: Set<ModelMode>
    /// A free-form kind such as `image.classification.imagenet`.
    public var type: String?
    /// The name of a custom model type registered with ``ModelRegistry``, used instead of the backend.
    public var className: String?

    /// Creates a model entry.
    ///
    /// - Parameters:
    ///   - path: The model file or SavedModel folder, relative to the bundle (`model.file`).
    ///   - backend: The backend, lowercased (`model.backend`); `nil` for the default.
    ///   - isQuantized: Whether layers without a `dtype` are uint8 (`model.quantized`); `nil` to take each
    ///     tensor's element type.
    ///   - modes: What the model can do (`model.modes`).
    ///   - type: A free-form kind (`model.type`).
    ///   - className: A custom model type registered with ``ModelRegistry`` (`model.class`).
    public init(
        path: String, backend: String? = nil, isQuantized: Bool? = false,
        modes: Set<ModelMode> = [.predict], type: String? = nil, className: String? = nil
    ) {
        self.path = path
        self.backend = backend
        self.isQuantized = isQuantized
        self.modes = modes
        self.type = type
        self.className = className
    }
}
