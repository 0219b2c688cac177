/// What to add to the bundle TensorIO infers from a bare model: what the model file cannot say.
public struct BundleInferenceOptions: Sendable, Hashable {
    /// Inputs to treat as images (by layer name), whatever the metadata says.
    public var imageInputs: Set<String>
    /// How image inputs without metadata normalization map pixels to floats.
    public var normalization: NormalizationSpec?
    /// Labels by output layer name, one per element, replacing the metadata's.
    public var labels: [String: [String]]
    /// The locale of the labels to take when the metadata has several (its first labels file otherwise).
    public var locale: String?
    /// Settings of the task modules (a MediaPipe detector family: `TensorIOVision`'s `detector`), by name.
    package var taskSettings: [String: String] = [:]

    /// Creates options.
    ///
    /// - Parameters:
    ///   - imageInputs: Input layer names to treat as images.
    ///   - normalization: The normalization of image inputs the metadata does not describe.
    ///   - labels: Labels by output layer name.
    ///   - locale: The labels' locale, such as `en`.
    public init(
        imageInputs: Set<String> = [], normalization: NormalizationSpec? = nil, labels: [String: [String]] = [:],
        locale: String? = nil
    ) {
        self.imageInputs = imageInputs
        self.normalization = normalization
        self.labels = labels
        self.locale = locale
    }
}

extension NormalizationSpec {
    /// The normalization `(p − mean[colour]) / std[colour]` that TFLite metadata's
    /// `NormalizationOptions` describes, as scale `1/std` and bias `−mean/std`.
    ///
    /// - Parameters:
    ///   - mean: One mean, or one per colour channel (red, green, blue).
    ///   - std: One standard deviation, or one per colour channel; none may be zero.
    /// - Returns: The normalization, or `nil` when the counts are not 1 or 3 or a value is not finite or
    ///   a standard deviation is zero.
    public static func meanAndStandardDeviation(mean: [Float], std: [Float]) -> NormalizationSpec? {
        guard [1, 3].contains(mean.count), [1, 3].contains(std.count),
              (mean + std).allSatisfy(\.isFinite), !std.contains(0)
        else { return nil }
        func channel(_ values: [Float], _ index: Int) -> Float { values[values.count == 1 ? 0 : index] }
        let scale = ChannelValues(red: 1 / channel(std, 0), green: 1 / channel(std, 1), blue: 1 / channel(std, 2))
        let bias = ChannelValues(
            red: -channel(mean, 0) / channel(std, 0), green: -channel(mean, 1) / channel(std, 1),
            blue: -channel(mean, 2) / channel(std, 2)
        )
        return .scaleAndBias(scale: scale, bias: bias)
    }
}
