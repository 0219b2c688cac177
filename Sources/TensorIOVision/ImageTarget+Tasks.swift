import Foundation
@_spi(Internal) import TensorIO

extension ImageTarget {
    /// The target of a vision task's bundle, which must take exactly one image (a detector, a segmenter).
    ///
    /// - Parameters:
    ///   - bundle: The bundle.
    ///   - configuration: The model's configuration (its resize mode and scaling filter, when set).
    ///   - task: What the bundle is used as, for the message: "a detector".
    /// - Throws: `TensorIOError` (`TensorIOError/Code/unsupported`) when it has not one image input.
    static func onlyImageInput(of bundle: ModelBundle, configuration: ModelConfiguration, task: String) throws -> ImageTarget {
        let inputs = bundle.predictionInputs
        guard inputs.count == 1, let target = ImageTarget(layer: inputs[0], configuration: configuration) else {
            throw TensorIOError(
                .unsupported, "\(task) takes one image input; \(bundle.url.lastPathComponent) has \(inputs.map { "\($0.name) (\($0.kindName))" }.joined(separator: ", "))",
                location: "inputs"
            )
        }
        return target
    }
}
