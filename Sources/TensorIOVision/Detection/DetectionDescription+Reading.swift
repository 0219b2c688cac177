@_spi(Internal) import TensorIO

/// Reads `model.json`'s `detection` entry (docs/model-json.md, "Detection") into a
/// ``DetectionDescription``, recording every problem with its JSON path like the rest of the reader.
///
/// Everything in it is untrusted: counts and sizes are bounded before anything is allocated (the anchors
/// by ``DetectionDescription/maximumAnchors``), names must be outputs of the bundle, and the box and
/// score outputs' fixed sizes must agree with the anchors and the decoding.
extension ModelJSONReader {
    static let detectionKeys: Set<String> = [
        "type", "boxes", "scores", "classes", "count", "labels", "box", "score_calibration", "anchors", "decoding",
        "suppression", "min_score", "max_results", "display_names",
    ]

    mutating func readDetection(_ value: JSONValue?, outputs: [LayerDescription]) -> DetectionDescription? {
        let path = "detection"
        guard let object = taskEntry(value, at: path, allowed: Self.detectionKeys) else { return nil }
        let issuesBefore = issues.count

        let kind: DetectionDescription.Kind? = object["type"] == nil
            ? { issue("\(path).type", "required: \"post_processed\" or \"anchors\""); return nil }()
            : readEnumeration(object, "type", at: path, as: DetectionDescription.Kind.self)
        let names = Set(outputs.map(\.name))
        func output(_ key: String, required: Bool) -> String? {
            let name = required ? requiredString(object, key, at: path) : optionalString(object, key, at: path)
            if let name, !names.contains(name) {
                issue("\(path).\(key)", "\"\(name)\" is not an output (outputs: \(quotedList(outputs.map(\.name))))")
                return nil
            }
            return name
        }
        let boxes = output("boxes", required: true)
        let scores = output("scores", required: true)
        let classes = output("classes", required: kind == .postProcessed)
        let count = output("count", required: kind == .postProcessed)
        let labelsFile = optionalString(object, "labels", at: path)
        if let labelsFile { checkRelativePath(labelsFile, at: "\(path).labels") }
        var displayNamesFiles: [String: String] = [:]
        if let value = object["display_names"] {
            if case .object(let files) = value, files.count <= Self.maximumListCount {
                for (locale, file) in files.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let name) = file, !locale.isEmpty else {
                        issue("\(path).display_names.\(locale)", "expected the name of a file in assets/, got \(file.brief)")
                        continue
                    }
                    checkRelativePath(name, at: "\(path).display_names.\(locale)")
                    displayNamesFiles[locale] = name
                }
            } else {
                issue("\(path).display_names", "expected an object of at most \(Self.maximumListCount) locales, each naming a labels file in assets/, got \(value.brief)")
            }
        }
        let minimumScore = number(object, "min_score", at: path).map(Float.init)
        let maximumResults = integer(object, "max_results", at: path, in: 1...DetectionDescription.maximumResultsLimit)

        var boxLayout = DetectionDescription.BoxLayout.standard
        var calibration: DetectionDescription.CalibrationSettings?
        var anchorOptions: SSDAnchorOptions?
        var anchors: [Anchor] = []
        var fixedAnchorsFile: String?
        var decoding: BoxDecodingOptions?
        var suppression: NonMaxSuppression?
        switch kind {
        case .postProcessed:
            for key in ["anchors", "decoding", "suppression"] where object[key] != nil {
                issue("\(path).\(key)", "only anchor detectors (\"type\": \"anchors\") take \"\(key)\"")
            }
            if let box = object["box"] { boxLayout = readBoxLayout(box, at: "\(path).box") ?? boxLayout }
            if let value = object["score_calibration"] { calibration = readCalibration(value, at: "\(path).score_calibration") }
        case .anchors:
            for key in ["classes", "count", "box", "score_calibration"] where object[key] != nil {
                issue("\(path).\(key)", "only post-processed detectors (\"type\": \"post_processed\") take \"\(key)\"")
            }
            if case .object(let anchorObject)? = object["anchors"], anchorObject["file"] != nil {
                // The anchors are listed in a file of assets/, read when the bundle opens.
                checkKeys(anchorObject, allowed: ["file"], at: "\(path).anchors")
                fixedAnchorsFile = requiredString(anchorObject, "file", at: "\(path).anchors")
                if let fixedAnchorsFile { checkRelativePath(fixedAnchorsFile, at: "\(path).anchors.file") }
            } else {
                anchorOptions = object["anchors"] == nil
                    ? { issue("\(path).anchors", "required for anchor detectors"); return nil }()
                    : readAnchorOptions(object["anchors"], at: "\(path).anchors")
            }
            if let anchorOptions, let made = recordingErrors(at: "\(path).anchors", {
                try anchorOptions.anchors(limit: DetectionDescription.maximumAnchors, location: "\(path).anchors")
            }) {
                anchors = made
            }
            // With an anchors file the box count is the file's, set when the bundle opens (ModelBundleValidator).
            decoding = readDecoding(object["decoding"], anchorCount: fixedAnchorsFile == nil ? anchors.count : 1, at: "\(path).decoding")
            suppression = readSuppression(object["suppression"], at: "\(path).suppression")
            if fixedAnchorsFile == nil, let decoding, let boxes, let layer = outputs.first(where: { $0.name == boxes }) {
                checkSize(of: layer, rows: anchors.count, columns: decoding.numCoords, at: "\(path).boxes")
            }
        case nil:
            break
        }
        guard issues.count == issuesBefore, let kind, let boxes, let scores else { return nil }
        return DetectionDescription(
            kind: kind, boxesOutput: boxes, scoresOutput: scores, classesOutput: classes, countOutput: count,
            minimumScore: minimumScore, maximumResults: maximumResults, labels: nil, boxLayout: boxLayout,
            labelsFile: labelsFile, calibrationSettings: calibration, calibration: nil, anchorOptions: anchorOptions,
            anchors: anchors, fixedAnchorsFile: fixedAnchorsFile, decoding: decoding, suppression: suppression,
            displayNamesFiles: displayNamesFiles
        )
    }

    // MARK: - Post-processed detectors

    private mutating func readBoxLayout(_ value: JSONValue, at path: String) -> DetectionDescription.BoxLayout? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["order", "type", "coordinates"], at: path)
        let shape = readEnumeration(object, "type", at: path, as: DetectionDescription.BoxLayout.Shape.self) ?? .boundaries
        let coordinates = readEnumeration(object, "coordinates", at: path, as: DetectionDescription.BoxLayout.Coordinates.self) ?? .ratio
        var positions = [0, 1, 2, 3]
        if let order = object["order"] {
            guard case .array(let items) = order, items.count == 4 else {
                issue("\(path).order", "expected the four element names in the box's order, such as \(quotedList(["top", "left", "bottom", "right"]))")
                return nil
            }
            let names = items.compactMap { item -> String? in if case .string(let text) = item { text } else { nil } }
            guard names.count == 4, Set(names) == Set(shape.elementNames) else {
                issue("\(path).order", "a \(shape.rawValue) box lists \(quotedList(shape.elementNames)), each once, in the order the model gives them")
                return nil
            }
            positions = shape.elementNames.map { element in names.firstIndex(of: element) ?? 0 }
        }
        return DetectionDescription.BoxLayout(shape: shape, positions: positions, coordinates: coordinates)
    }

    private mutating func readCalibration(_ value: JSONValue, at path: String) -> DetectionDescription.CalibrationSettings? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["file", "transformation", "default_score"], at: path)
        let file = requiredString(object, "file", at: path)
        if let file { checkRelativePath(file, at: "\(path).file") }
        let transformations: [(name: String, value: ScoreCalibration.Transformation)] = [
            ("identity", .identity), ("log", .log), ("inverse_logistic", .inverseLogistic),
        ]
        let transformation = readChoice(object, "transformation", at: path, from: transformations) ?? .identity
        let defaultScore = number(object, "default_score", at: path).map(Float.init) ?? 0
        guard let file else { return nil }
        return DetectionDescription.CalibrationSettings(file: file, transformation: transformation, defaultScore: defaultScore)
    }

    // MARK: - Anchor detectors

    private mutating func readAnchorOptions(_ value: JSONValue?, at path: String) -> SSDAnchorOptions? {
        guard let value, let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: [
            "input_size", "layers", "strides", "feature_map_sizes", "min_scale", "max_scale", "offset", "aspect_ratios",
            "reduce_boxes_in_lowest_layer", "interpolated_scale_aspect_ratio", "fixed_size",
        ], at: path)
        guard let size = integers(object["input_size"], count: 2, at: "\(path).input_size", required: true) else { return nil }
        var options = SSDAnchorOptions(inputSizeWidth: size[0], inputSizeHeight: size[1])
        options.numLayers = integer(object, "layers", at: path, in: 1...SSDAnchorOptions.largestDimension) ?? 0
        if object["layers"] == nil { issue("\(path).layers", "required") }
        options.strides = integers(object["strides"], count: nil, at: "\(path).strides", required: false) ?? []
        if let sizes = object["feature_map_sizes"] {
            guard case .array(let items) = sizes else {
                issue("\(path).feature_map_sizes", "expected an array of [width, height] pairs, got \(sizes.brief)")
                return nil
            }
            for (index, item) in items.prefix(Self.maximumListCount).enumerated() {
                guard let pair = integers(item, count: 2, at: "\(path).feature_map_sizes[\(index)]", required: true) else { return nil }
                options.featureMapWidths.append(pair[0])
                options.featureMapHeights.append(pair[1])
            }
        }
        options.minScale = number(object, "min_scale", at: path).map(Float.init) ?? options.minScale
        options.maxScale = number(object, "max_scale", at: path).map(Float.init) ?? options.maxScale
        if let offset = floats(object["offset"], count: 2, at: "\(path).offset") {
            (options.anchorOffsetX, options.anchorOffsetY) = (offset[0], offset[1])
        }
        options.aspectRatios = floats(object["aspect_ratios"], count: nil, at: "\(path).aspect_ratios") ?? []
        options.reduceBoxesInLowestLayer = optionalBool(object, "reduce_boxes_in_lowest_layer", at: path) ?? false
        options.interpolatedScaleAspectRatio = number(object, "interpolated_scale_aspect_ratio", at: path).map(Float.init)
            ?? options.interpolatedScaleAspectRatio
        options.fixedAnchorSize = optionalBool(object, "fixed_size", at: path) ?? false
        return options
    }

    private mutating func readDecoding(_ value: JSONValue?, anchorCount: Int, at path: String) -> BoxDecodingOptions? {
        guard let value else {
            issue(path, "required for anchor detectors")
            return nil
        }
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: [
            "classes", "format", "scale", "box_offset", "keypoints", "keypoint_offset", "exponential_size", "sigmoid",
            "score_clipping",
        ], at: path)
        let classes = integer(object, "classes", at: path, in: 1...DetectionDescription.maximumClasses) ?? 1
        let keypoints = integer(object, "keypoints", at: path, in: 0...DetectionDescription.maximumKeypoints) ?? 0
        let boxOffset = integer(object, "box_offset", at: path, in: 0...DetectionDescription.maximumKeypoints * 2) ?? 0
        let keypointOffset = integer(object, "keypoint_offset", at: path, in: 0...DetectionDescription.maximumKeypoints * 2 + 4)
            ?? boxOffset + 4
        var options = BoxDecodingOptions(
            numClasses: classes, numBoxes: anchorCount, numCoords: max(boxOffset + 4, keypointOffset + 2 * keypoints)
        )
        options.boxCoordOffset = boxOffset
        options.keypointCoordOffset = keypointOffset
        options.numKeypoints = keypoints
        let formats: [(name: String, value: BoxDecodingOptions.BoxFormat)] = [("yxhw", .yxhw), ("xywh", .xywh), ("xyxy", .xyxy)]
        if let format = readChoice(object, "format", at: path, from: formats) { options.boxFormat = format }
        if let scale = floats(object["scale"], count: 4, at: "\(path).scale") {
            (options.xScale, options.yScale, options.wScale, options.hScale) = (scale[0], scale[1], scale[2], scale[3])
        } else if object["scale"] == nil {
            issue("\(path).scale", "required: [x, y, w, h], the sizes box offsets are given in (the input size for MediaPipe's detectors)")
        }
        options.applyExponentialOnBoxSize = optionalBool(object, "exponential_size", at: path) ?? false
        options.sigmoidScore = optionalBool(object, "sigmoid", at: path) ?? false
        options.scoreClippingThreshold = number(object, "score_clipping", at: path).map(Float.init)
        guard recordingErrors(at: path, { try options.validate(location: path) }) != nil else { return nil }
        return options
    }

    private mutating func readSuppression(_ value: JSONValue?, at path: String) -> NonMaxSuppression? {
        guard let value else { return NonMaxSuppression(algorithm: .hard, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3) }
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["algorithm", "overlap", "threshold", "class_aware"], at: path)
        var options = NonMaxSuppression(algorithm: .hard, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        let algorithms: [(name: String, value: NonMaxSuppression.Algorithm)] = [("hard", .hard), ("weighted", .weighted)]
        if let algorithm = readChoice(object, "algorithm", at: path, from: algorithms) { options.algorithm = algorithm }
        let overlapTypes: [(name: String, value: NonMaxSuppression.OverlapType)] = [
            ("iou", .intersectionOverUnion), ("jaccard", .jaccard), ("modified_jaccard", .modifiedJaccard),
        ]
        if let overlapType = readChoice(object, "overlap", at: path, from: overlapTypes) { options.overlapType = overlapType }
        if let threshold = number(object, "threshold", at: path) {
            guard (0...1).contains(threshold) else {
                issue("\(path).threshold", "\(threshold) is not an overlap: give a number from 0 to 1")
                return nil
            }
            options.minSuppressionThreshold = Float(threshold)
        }
        options.classAware = optionalBool(object, "class_aware", at: path) ?? false
        return options
    }

    /// Checks that an output's fixed shape holds `rows` × `columns` values (`[rows, columns]`, optionally
    /// with a leading 1); sizes of -1 are left to the run.
    private mutating func checkSize(of layer: LayerDescription, rows: Int, columns: Int, at path: String) {
        if let problem = DetectionDescription.boxesShapeProblem(layer, rows: rows, columns: columns) { issue(path, problem) }
    }

    // MARK: - Values

    /// Lists in the description (strides, aspect ratios, feature-map sizes) hold at most this many items.
    static let maximumListCount = 64

    private mutating func integer(_ object: [String: JSONValue], _ key: String, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = number(object, key, at: path) else { return nil }
        guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            issue(join(path, key), "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)")
            return nil
        }
        return Int(value)
    }

    private mutating func integers(_ value: JSONValue?, count: Int?, at path: String, required: Bool) -> [Int]? {
        guard let value else {
            if required { issue(path, "required") }
            return nil
        }
        guard case .array(let items) = value, items.count <= Self.maximumListCount, count.map({ items.count == $0 }) ?? true else {
            issue(path, "expected \(count.map { "\($0) whole numbers" } ?? "an array of at most \(Self.maximumListCount) whole numbers"), got \(value.brief)")
            return nil
        }
        var result: [Int] = []
        for (index, item) in items.enumerated() {
            guard case .number(let number) = item, number.rounded() == number, number >= 1, number <= Double(SSDAnchorOptions.largestDimension) else {
                issue("\(path)[\(index)]", "expected a whole number from 1 to \(SSDAnchorOptions.largestDimension), got \(item.brief)")
                return nil
            }
            result.append(Int(number))
        }
        return result
    }

    private mutating func floats(_ value: JSONValue?, count: Int?, at path: String) -> [Float]? {
        guard let value else { return nil }
        guard case .array(let items) = value, items.count <= Self.maximumListCount, count.map({ items.count == $0 }) ?? true else {
            issue(path, "expected \(count.map { "\($0) numbers" } ?? "an array of at most \(Self.maximumListCount) numbers"), got \(value.brief)")
            return nil
        }
        var result: [Float] = []
        for (index, item) in items.enumerated() {
            guard case .number(let number) = item, number.isFinite, abs(number) <= 1e9 else {
                issue("\(path)[\(index)]", "expected a finite number, got \(item.brief)")
                return nil
            }
            result.append(Float(number))
        }
        return result
    }
}

extension DetectionDescription {
    /// Why the boxes output `layer` cannot hold `rows` anchors × `columns` values, or `nil` when its fixed
    /// shape (`[rows, columns]`, optionally after leading 1s) agrees; sizes of -1 are left to the run.
    static func boxesShapeProblem(_ layer: LayerDescription, rows: Int, columns: Int) -> String? {
        let shape = Array(layer.shape.drop { $0 == 1 }.suffix(2))
        guard !layer.shape.contains(-1), shape.count == 2, shape != [rows, columns] else { return nil }
        return "\"\(layer.name)\" has shape \(layer.shape), but the anchors and decoding make [1, \(rows), \(columns)] (\(rows) anchors × \(columns) values)"
    }

    /// The most anchors a description may make (1,048,576): far more than any detector has (BlazeFace has
    /// 896, the COCO SSD 1,917), and few enough to decode in milliseconds.
    static let maximumAnchors = 1 << 20
    /// The most classes an anchor detector's scores may have.
    static let maximumClasses = 100_000
    /// The most keypoints an anchor detector's boxes may carry.
    static let maximumKeypoints = 1024
    /// The largest `max_results`.
    static let maximumResultsLimit = 100_000
}
