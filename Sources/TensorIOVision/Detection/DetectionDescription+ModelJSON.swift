@_spi(Internal) package import TensorIO

extension DetectionDescription {
    /// The `detection` entry of `model.json` that reads back as this description (its files named, not
    /// included: the labels and calibration files go in `assets/`).
    package var modelJSON: OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("type", .string(kind.rawValue)), ("boxes", .string(boxesOutput)), ("scores", .string(scoresOutput)),
        ]
        if let classesOutput { members.append(("classes", .string(classesOutput))) }
        if let countOutput { members.append(("count", .string(countOutput))) }
        if let file = labels?.file ?? labelsFile { members.append(("labels", .string(file))) }
        if !displayNamesFiles.isEmpty {
            members.append(("display_names", Self.object(displayNamesFiles.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if kind == .postProcessed {
            members.append(("box", .object([
                .init(key: "type", value: .string(boxLayout.shape.rawValue)),
                .init(key: "order", value: .array(boxLayout.order.map { .string($0) })),
                .init(key: "coordinates", value: .string(boxLayout.coordinates.rawValue)),
            ])))
        }
        if let settings = calibrationSettings {
            let transformation = switch settings.transformation {
            case .identity: "identity"
            case .log: "log"
            case .inverseLogistic: "inverse_logistic"
            }
            members.append(("score_calibration", .object([
                .init(key: "file", value: .string(settings.file)), .init(key: "transformation", value: .string(transformation)),
                .init(key: "default_score", value: .number(Double(settings.defaultScore))),
            ])))
        }
        if let fixedAnchorsFile {
            members.append(("anchors", Self.object([("file", .string(fixedAnchorsFile))])))
        } else if let anchors = anchorOptions {
            var items: [(String, OrderedJSON)] = [
                ("input_size", .array([.integer(anchors.inputSizeWidth), .integer(anchors.inputSizeHeight)])),
                ("layers", .integer(anchors.numLayers)),
            ]
            if !anchors.strides.isEmpty { items.append(("strides", .array(anchors.strides.map { .integer($0) }))) }
            if !anchors.featureMapWidths.isEmpty {
                items.append(("feature_map_sizes", .array(zip(anchors.featureMapWidths, anchors.featureMapHeights).map {
                    .array([.integer($0), .integer($1)])
                })))
            }
            items += [
                ("min_scale", .number(Double(anchors.minScale))), ("max_scale", .number(Double(anchors.maxScale))),
                ("offset", .array([.number(Double(anchors.anchorOffsetX)), .number(Double(anchors.anchorOffsetY))])),
                ("aspect_ratios", .array(anchors.aspectRatios.map { .number(Double($0)) })),
                ("interpolated_scale_aspect_ratio", .number(Double(anchors.interpolatedScaleAspectRatio))),
            ]
            if anchors.reduceBoxesInLowestLayer { items.append(("reduce_boxes_in_lowest_layer", .bool(true))) }
            items.append(("fixed_size", .bool(anchors.fixedAnchorSize)))
            members.append(("anchors", Self.object(items)))
        }
        if let decoding {
            let format = switch decoding.boxFormat {
            case .yxhw: "yxhw"
            case .xywh: "xywh"
            case .xyxy: "xyxy"
            }
            var items: [(String, OrderedJSON)] = [
                ("format", .string(format)),
                ("scale", .array([decoding.xScale, decoding.yScale, decoding.wScale, decoding.hScale].map { .number(Double($0)) })),
                ("box_offset", .integer(decoding.boxCoordOffset)), ("keypoints", .integer(decoding.numKeypoints)),
                ("keypoint_offset", .integer(decoding.keypointCoordOffset)), ("classes", .integer(decoding.numClasses)),
                ("exponential_size", .bool(decoding.applyExponentialOnBoxSize)), ("sigmoid", .bool(decoding.sigmoidScore)),
            ]
            if let clipping = decoding.scoreClippingThreshold { items.append(("score_clipping", .number(Double(clipping)))) }
            members.append(("decoding", Self.object(items)))
        }
        if let suppression {
            let algorithm = suppression.algorithm == .weighted ? "weighted" : "hard"
            let overlap = switch suppression.overlapType {
            case .intersectionOverUnion: "iou"
            case .jaccard: "jaccard"
            case .modifiedJaccard: "modified_jaccard"
            }
            members.append(("suppression", Self.object([
                ("algorithm", .string(algorithm)), ("overlap", .string(overlap)),
                ("threshold", .number(Double(suppression.minSuppressionThreshold))), ("class_aware", .bool(suppression.classAware)),
            ])))
        }
        if let minimumScore { members.append(("min_score", .number(Double(minimumScore)))) }
        if let maximumResults { members.append(("max_results", .integer(maximumResults))) }
        return Self.object(members)
    }

    private static func object(_ members: [(String, OrderedJSON)]) -> OrderedJSON {
        .object(members.map { OrderedJSON.Member(key: $0.0, value: $0.1) })
    }
}
