/// The `options` entry of `model.json`: hints for the app, which TensorIO keeps but does not act on.
public struct ModelOptions: Sendable, Hashable {
    /// Which camera a vision model prefers.
    public enum DevicePosition: String, Sendable, Hashable, CaseIterable {
        case front
        case back
    }

    /// `options.device_position`, when given.
    public var devicePosition: DevicePosition?
    /// `options.output_format`; empty when not given, as in the original.
    public var outputFormat: String
    /// Every other key of `options`, as written.
    public var other: [String: JSONValue]

    /// Creates options.
    public init(devicePosition: DevicePosition? = nil, outputFormat: String = "", other: [String: JSONValue] = [:]) {
        self.devicePosition = devicePosition
        self.outputFormat = outputFormat
        self.other = other
    }
}
