@_spi(Internal) import TensorIO

/// Reads `model.json`'s `classifier_head` entry, every problem with its JSON path.
extension ModelJSONReader {
    static let classifierHeadKeys: Set<String> = ["base", "features", "feature_count", "input", "output", "labels"]

    mutating func readClassifierHead(
        _ value: JSONValue?, inputs: [LayerDescription], outputs: [LayerDescription]
    ) -> ClassifierHeadDescription? {
        let path = ClassifierHeadTask.entryKey
        let issuesBefore = issues.count
        guard let object = taskEntry(value, at: path, allowed: Self.classifierHeadKeys) else { return nil }
        let base = optionalString(object, "base", at: path)
        if let base { checkRelativePath(base, at: "\(path).base") }
        var features: ClassifierFeatures?
        if let name = requiredString(object, "features", at: path) {
            features = ClassifierFeatures(rawValue: name)
            if features == nil {
                issue("\(path).features", "\"\(name)\" is not one of \(quotedList(ClassifierFeatures.allCases.map(\.rawValue)))")
            }
        }
        switch (features, base) {
        case (.given?, _?): issue("\(path).base", "features that are given need no base bundle")
        case (.embedding?, nil), (.handWorldLandmarks?, nil): issue("\(path).base", "required for \(features!.rawValue) features")
        default: break
        }
        let input = readLayerName(object, "input", in: inputs, role: "input", at: path) { _ in nil }
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) { _ in nil }
        let inputWidth = input.flatMap { name in inputs.first { $0.name == name } }.map(Self.itemWidth)
        var featureCount: Int?
        if let number = number(object, "feature_count", at: path) {
            let most = inputWidth ?? Int.max
            if number == number.rounded(), number >= 1, number <= Double(min(most, 1 << 20)) {
                featureCount = Int(number)
            } else {
                issue("\(path).feature_count", "\(JSONValue.number(number).brief) is not a count from 1 to the input's width (\(inputWidth.map(String.init) ?? "?"))")
            }
        } else if object["feature_count"] == nil {
            issue("\(path).feature_count", "required")
        }
        if features == .handWorldLandmarks, let featureCount, featureCount != HandFeatures.count {
            issue("\(path).feature_count", "hand world landmark features are \(HandFeatures.count) values, not \(featureCount)")
        }
        let labelsFile = requiredString(object, "labels", at: path)
        if let labelsFile { checkRelativePath(labelsFile, at: "\(path).labels") }
        guard issues.count == issuesBefore, let features, let featureCount, let input, let output, let labelsFile else { return nil }
        return ClassifierHeadDescription(
            base: base, features: features, featureCount: featureCount, input: input, output: output, labelsFile: labelsFile, labels: []
        )
    }

    /// The values per item of a layer whose first dimension may be the batch (−1).
    static func itemWidth(_ layer: LayerDescription) -> Int {
        let shape = layer.shape.first == -1 ? Array(layer.shape.dropFirst()) : layer.shape
        return shape.reduce(1) { $0.multipliedReportingOverflow(by: max($1, 0)).overflow ? Int.max : $0 * max($1, 0) }
    }
}
