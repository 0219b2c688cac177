@_spi(Internal) import TensorIO

/// Reads `model.json`'s `segmentation` entry (docs/model-json.md, "Segmentation") into a
/// ``SegmentationDescription``, recording every problem with its JSON path like the rest of the reader.
extension ModelJSONReader {
    static let segmentationKeys: Set<String> = ["output", "activation", "labels", "threshold"]

    mutating func readSegmentation(_ value: JSONValue?, outputs: [LayerDescription]) -> SegmentationDescription? {
        let path = "segmentation"
        guard let object = taskEntry(value, at: path, allowed: Self.segmentationKeys) else { return nil }
        let issuesBefore = issues.count
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) {
            SegmentationDescription.shapeProblem($0.shape)
        }
        let activation = readEnumeration(object, "activation", at: path, as: SegmentationDescription.Activation.self) ?? .none
        let labelsFile = optionalString(object, "labels", at: path)
        if let labelsFile { checkRelativePath(labelsFile, at: "\(path).labels") }
        var threshold: Float = 0.5
        if let number = number(object, "threshold", at: path) {
            if (0...1).contains(number) { threshold = Float(number) } else { issue("\(path).threshold", "\(number) is not a confidence: give a number from 0 to 1") }
        }
        guard issues.count == issuesBefore, let output else { return nil }
        return SegmentationDescription(output: output, activation: activation, threshold: threshold, labels: nil, labelsFile: labelsFile)
    }
}

extension SegmentationDescription {
    /// Why an output of `shape` cannot hold a segmentation — `[1, height, width, categories]` or
    /// `[height, width, categories]`, at most `maximumCategories` categories — or `nil` when it can.
    /// Sizes of -1 are left to the run, which checks them again.
    static func shapeProblem(_ shape: [Int]) -> String? {
        let image = shape.count == 4 && [1, -1].contains(shape[0]) ? Array(shape.dropFirst()) : shape
        guard image.count == 3 else {
            return "has shape \(shape); a segmentation output is [1, height, width, categories]"
        }
        if let categories = image.last, categories != -1, !(1...maximumCategories).contains(categories) {
            return "has \(categories) categories; a segmentation has 1 to \(maximumCategories)"
        }
        return nil
    }
}
