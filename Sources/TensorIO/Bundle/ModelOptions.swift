public import Foundation

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
    /// Every other key of `options`, as one JSON object (keys sorted; `{}` when there are none), for your
    /// app to decode into a type of its own:
    ///
    /// ```swift
    /// struct CameraOptions: Decodable { var exposure: Double }
    /// let camera = try JSONDecoder().decode(CameraOptions.self, from: bundle.options.other)
    /// ```
    public var other: Data

    /// Creates options.
    ///
    /// - Parameters:
    ///   - devicePosition: `options.device_position`.
    ///   - outputFormat: `options.output_format`.
    ///   - other: The other keys, as a JSON object.
    public init(devicePosition: DevicePosition? = nil, outputFormat: String = "", other: Data = Data("{}".utf8)) {
        self.devicePosition = devicePosition
        self.outputFormat = outputFormat
        self.other = other
    }
}
