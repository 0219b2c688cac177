@_spi(Internal) package import TensorIO

extension LandmarksDescription: TaskDescription {
    /// The `landmarks` entry of `model.json` that reads back as this description, in the documented key
    /// order (what `tensorio init --landmarker` writes).
    package var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = [
            .init(key: "detector", value: .string(detector)),
            .init(key: "region", value: region.modelJSON),
            .init(key: "points", value: .object([
                .init(key: "output", value: .string(points.output)), .init(key: "count", value: .integer(points.count)),
                .init(key: "keep", value: .integer(points.keep)),
                .init(key: "values", value: .integer(points.values)), .init(key: "normalize_z", value: .number(points.normalizeZ)),
                .init(key: "activation", value: .string(points.activation.rawValue)),
            ])),
        ]
        if let heatmap {
            members.append(.init(key: "heatmap", value: .object([
                .init(key: "output", value: .string(heatmap.output)), .init(key: "kernel", value: .integer(heatmap.kernel)),
                .init(key: "min_confidence", value: .number(heatmap.minimumConfidence)),
            ])))
        }
        if let presence {
            members.append(.init(key: "presence", value: .object([
                .init(key: "output", value: .string(presence.output)),
                .init(key: "activation", value: .string(presence.activation.rawValue)),
            ])))
        }
        if let handedness {
            members.append(.init(key: "handedness", value: .object([
                .init(key: "output", value: .string(handedness.output)),
                .init(key: "labels", value: .array(handedness.labels.map { .string($0) })),
            ])))
        }
        if let worldPoints { members.append(.init(key: "world_points", value: .string(worldPoints))) }
        if !connections.isEmpty {
            members.append(.init(key: "connections", value: .array(connections.map { .array($0.map { .integer($0) }) })))
        }
        members.append(.init(key: "defaults", value: .object([
            .init(key: "max_instances", value: .integer(maximumInstances)),
            .init(key: "min_detection_score", value: .number(minimumDetectionScore)),
            .init(key: "min_presence_score", value: .number(minimumPresenceScore)),
        ])))
        if let tracking { members.append(.init(key: "tracking", value: tracking.modelJSON)) }
        return .object(members)
    }
}
