import Foundation
@testable import TensorIO
import TensorIOMetadata

/// Renders ``TFLiteMetadata`` the way tflite-support's MetadataDisplayer (flatc's JSON) does: snake-case
/// names, enum names, and fields at their default value left out.
enum DisplayerJSON {
    static func render(_ metadata: TFLiteMetadata) -> [String: Any] {
        var json: [String: Any] = [:]
        json["name"] = metadata.name
        json["description"] = metadata.description
        json["version"] = metadata.version
        if !metadata.subgraphs.isEmpty { json["subgraph_metadata"] = metadata.subgraphs.map(render) }
        json["author"] = metadata.author
        json["license"] = metadata.license
        if !metadata.associatedFiles.isEmpty { json["associated_files"] = metadata.associatedFiles.map(render) }
        json["min_parser_version"] = metadata.minParserVersion
        return json
    }

    static func render(_ subgraph: TFLiteMetadata.SubgraphMetadata) -> [String: Any] {
        var json: [String: Any] = [:]
        json["name"] = subgraph.name
        json["description"] = subgraph.description
        if !subgraph.inputs.isEmpty { json["input_tensor_metadata"] = subgraph.inputs.map(render) }
        if !subgraph.outputs.isEmpty { json["output_tensor_metadata"] = subgraph.outputs.map(render) }
        if !subgraph.associatedFiles.isEmpty { json["associated_files"] = subgraph.associatedFiles.map(render) }
        if !subgraph.inputProcessUnits.isEmpty { json["input_process_units"] = subgraph.inputProcessUnits.map(render) }
        if !subgraph.outputProcessUnits.isEmpty { json["output_process_units"] = subgraph.outputProcessUnits.map(render) }
        let groups = { (groups: [TFLiteMetadata.SubgraphMetadata.TensorGroup]) in
            groups.map { group -> [String: Any] in
                var json: [String: Any] = [:]
                json["name"] = group.name
                if !group.tensorNames.isEmpty { json["tensor_names"] = group.tensorNames }
                return json
            }
        }
        if !subgraph.inputTensorGroups.isEmpty { json["input_tensor_groups"] = groups(subgraph.inputTensorGroups) }
        if !subgraph.outputTensorGroups.isEmpty { json["output_tensor_groups"] = groups(subgraph.outputTensorGroups) }
        if !subgraph.customMetadata.isEmpty {
            json["custom_metadata"] = subgraph.customMetadata.map { custom -> [String: Any] in
                var json: [String: Any] = [:]
                json["name"] = custom.name
                if !custom.data.isEmpty { json["data"] = custom.data.map(Int.init) }
                return json
            }
        }
        return json
    }

    static func render(_ tensor: TFLiteMetadata.TensorMetadata) -> [String: Any] {
        var json: [String: Any] = [:]
        json["name"] = tensor.name
        json["description"] = tensor.description
        if !tensor.dimensionNames.isEmpty { json["dimension_names"] = tensor.dimensionNames }
        if tensor.content != nil || tensor.contentRange != nil {
            var content: [String: Any] = [:]
            if let properties = tensor.content { content.merge(render(properties)) { $1 } }
            if let range = tensor.contentRange {
                var rendered: [String: Any] = [:]
                if range.min != 0 { rendered["min"] = Int(range.min) }
                if range.max != 0 { rendered["max"] = Int(range.max) }
                content["range"] = rendered
            }
            json["content"] = content
        }
        if !tensor.processUnits.isEmpty { json["process_units"] = tensor.processUnits.map(render) }
        if let stats = tensor.stats {
            var rendered: [String: Any] = [:]
            if !stats.max.isEmpty { rendered["max"] = stats.max.map(Double.init) }
            if !stats.min.isEmpty { rendered["min"] = stats.min.map(Double.init) }
            json["stats"] = rendered
        }
        if !tensor.associatedFiles.isEmpty { json["associated_files"] = tensor.associatedFiles.map(render) }
        return json
    }

    static func render(_ properties: TFLiteMetadata.ContentProperties) -> [String: Any] {
        switch properties {
        case .feature:
            return ["content_properties_type": "FeatureProperties", "content_properties": [String: Any]()]
        case .image(let image):
            var rendered: [String: Any] = [:]
            switch image.colorSpace {
            case .rgb: rendered["color_space"] = "RGB"
            case .grayscale: rendered["color_space"] = "GRAYSCALE"
            case .unknown: break
            }
            if let size = image.defaultSize {
                var sizeJSON: [String: Any] = [:]
                if size.width != 0 { sizeJSON["width"] = Int(size.width) }
                if size.height != 0 { sizeJSON["height"] = Int(size.height) }
                rendered["default_size"] = sizeJSON
            }
            return ["content_properties_type": "ImageProperties", "content_properties": rendered]
        case .boundingBox(let box):
            var rendered: [String: Any] = [:]
            if !box.index.isEmpty { rendered["index"] = box.index.map(Int.init) }
            switch box.type {
            case .boundaries: rendered["type"] = "BOUNDARIES"
            case .upperLeft: rendered["type"] = "UPPER_LEFT"
            case .center: rendered["type"] = "CENTER"
            case .unknown: break
            }
            if box.coordinateType == .pixel { rendered["coordinate_type"] = "PIXEL" }
            return ["content_properties_type": "BoundingBoxProperties", "content_properties": rendered]
        case .audio(let audio):
            var rendered: [String: Any] = [:]
            if audio.sampleRate != 0 { rendered["sample_rate"] = Int(audio.sampleRate) }
            if audio.channels != 0 { rendered["channels"] = Int(audio.channels) }
            return ["content_properties_type": "AudioProperties", "content_properties": rendered]
        case .unknown(let type):
            return ["content_properties_type": "type \(type)"]
        }
    }

    static func render(_ unit: TFLiteMetadata.ProcessUnit) -> [String: Any] {
        switch unit {
        case .normalization(let mean, let std):
            var options: [String: Any] = [:]
            if !mean.isEmpty { options["mean"] = mean.map(Double.init) }
            if !std.isEmpty { options["std"] = std.map(Double.init) }
            return ["options_type": "NormalizationOptions", "options": options]
        case .scoreCalibration(let transformation, let defaultScore):
            var options: [String: Any] = [:]
            switch transformation {
            case .log: options["score_transformation"] = "LOG"
            case .inverseLogistic: options["score_transformation"] = "INVERSE_LOGISTIC"
            case .identity: break
            }
            if defaultScore != 0 { options["default_score"] = Double(defaultScore) }
            return ["options_type": "ScoreCalibrationOptions", "options": options]
        case .scoreThresholding(let threshold):
            var options: [String: Any] = [:]
            if threshold != 0 { options["global_score_threshold"] = Double(threshold) }
            return ["options_type": "ScoreThresholdingOptions", "options": options]
        case .regexTokenizer(let pattern, let vocabulary):
            var options: [String: Any] = ["delim_regex_pattern": pattern]
            if !vocabulary.isEmpty { options["vocab_file"] = vocabulary.map(render) }
            return ["options_type": "RegexTokenizerOptions", "options": options]
        case .bertTokenizer(let vocabulary):
            var options: [String: Any] = [:]
            if !vocabulary.isEmpty { options["vocab_file"] = vocabulary.map(render) }
            return ["options_type": "BertTokenizerOptions", "options": options]
        case .sentencePieceTokenizer(let models, let vocabulary):
            var options: [String: Any] = [:]
            if !models.isEmpty { options["sentencePiece_model"] = models.map(render) }
            if !vocabulary.isEmpty { options["vocab_file"] = vocabulary.map(render) }
            return ["options_type": "SentencePieceTokenizerOptions", "options": options]
        case .other(let name):
            return ["options_type": name]
        }
    }

    static func render(_ file: TFLiteMetadata.AssociatedFile) -> [String: Any] {
        var json: [String: Any] = ["name": file.name]
        json["description"] = file.description
        switch file.type {
        case .descriptions: json["type"] = "DESCRIPTIONS"
        case .tensorAxisLabels: json["type"] = "TENSOR_AXIS_LABELS"
        case .tensorValueLabels: json["type"] = "TENSOR_VALUE_LABELS"
        case .tensorAxisScoreCalibration: json["type"] = "TENSOR_AXIS_SCORE_CALIBRATION"
        case .vocabulary: json["type"] = "VOCABULARY"
        case .scannIndexFile: json["type"] = "SCANN_INDEX_FILE"
        case .unknown(let raw): if raw != 0 { json["type"] = Int(raw) }
        }
        json["locale"] = file.locale
        json["version"] = file.version
        return json
    }
}

/// Differences between two JSON values; numbers agree to the 6 decimals MetadataDisplayer prints.
enum JSONComparison {
    static func close(_ actual: Double, _ expected: Double) -> Bool {
        abs(actual - expected) <= 1e-6 * max(1, abs(expected))
    }

    static func differences(_ actual: Any, _ expected: Any, path: String) -> [String] {
        switch (actual, expected) {
        case (let actual as [String: Any], let expected as [String: Any]):
            var found: [String] = []
            for key in Set(actual.keys).union(expected.keys).sorted() {
                switch (actual[key], expected[key]) {
                case (nil, let value?): found.append("\(path).\(key): missing (expected \(value))")
                case (let value?, nil): found.append("\(path).\(key): unexpected \(value)")
                case (let a?, let e?): found += differences(a, e, path: "\(path).\(key)")
                default: break
                }
            }
            return found
        case (let actual as [Any], let expected as [Any]):
            guard actual.count == expected.count else { return ["\(path): \(actual.count) elements, expected \(expected.count)"] }
            return zip(actual.indices, zip(actual, expected)).flatMap { differences($1.0, $1.1, path: "\(path)[\($0)]") }
        case (let actual as String, let expected as String):
            return actual == expected ? [] : ["\(path): \"\(actual)\", expected \"\(expected)\""]
        case (let actual as NSNumber, let expected as NSNumber):
            return close(actual.doubleValue, expected.doubleValue) ? [] : ["\(path): \(actual), expected \(expected)"]
        case (let actual as Double, let expected as NSNumber):
            return close(actual, expected.doubleValue) ? [] : ["\(path): \(actual), expected \(expected)"]
        case (let actual as Int, let expected as NSNumber):
            return Double(actual) == expected.doubleValue ? [] : ["\(path): \(actual), expected \(expected)"]
        default:
            return ["\(path): \(actual) (\(type(of: actual))), expected \(expected) (\(type(of: expected)))"]
        }
    }
}
