@_spi(Internal) package import TensorIO

extension SegmentationDescription {
    /// The `segmentation` entry of `model.json` that reads back as this description (its labels file
    /// named, not included: it goes in `assets/`).
    package var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = [
            .init(key: "output", value: .string(output)), .init(key: "activation", value: .string(activation.rawValue)),
        ]
        if let file = labels?.file ?? labelsFile { members.append(.init(key: "labels", value: .string(file))) }
        if threshold != 0.5 { members.append(.init(key: "threshold", value: .number(Double(threshold)))) }
        return .object(members)
    }
}
