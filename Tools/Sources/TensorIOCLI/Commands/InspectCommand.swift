import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `tensorio inspect BUNDLE [--json]`
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a bundle's metadata, its layers, and the tensors the runtime reports."
    )

    @OptionGroup var model: ModelOptionGroup

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let (bundle, model) = try model.makeModel()
        let tensors: ModelTensors
        do {
            tensors = try RuntimeLog.capturing { try model.tensorDescriptions() }
        } catch let error as TensorIOError where error.code == .layerMismatch {
            // Loading stops at the first disagreement; the model file, read without loading, shows them all.
            guard let comparison = try? LayerTensorComparison(bundle: bundle) else { throw error }
            let count = max(1, comparison.rows.filter { !$0.problems.isEmpty }.count)
            print(json ? JSONText.render(Self.jsonValue(comparison, loadError: error)) : Self.text(comparison, loadError: error),
                  terminator: json ? "\n" : "")
            throw CLIError("model.json disagrees with the model in \(count) place\(count == 1 ? "" : "s") (shown above): \(error.message)")
        }
        if json {
            print(JSONText.render(jsonValue(bundle, tensors)))
        } else {
            print(text(bundle, tensors), terminator: "")
        }
    }

    // MARK: - Disagreements

    /// The layers beside the model's tensors, one row each, every disagreement marked with ✗.
    static func text(_ comparison: LayerTensorComparison, loadError: TensorIOError) -> String {
        func layerText(_ layer: LayerDescription?) -> String {
            guard let layer else { return "(no layer)" }
            let type = layer.dataType(quantizedModel: comparison.quantizedModel)?.rawValue ?? "(tensor's type)"
            return "\(layer.name): \(layer.kindName) \(type) \(layer.shape)"
        }
        func tensorText(_ row: LayerTensorComparison.Row) -> String {
            guard let name = row.tensorName else { return "(no tensor)" }
            return "\(name): \(row.tensorType ?? "?") \(row.tensorShape.map { "\($0)" } ?? "[?]")"
        }
        let width = comparison.rows.map { layerText($0.layer).count }.max() ?? 0
        var lines = ["model.json layers beside the model's tensors:"]
        var side = ""
        for row in comparison.rows {
            if row.side != side {
                side = row.side
                lines.append(side == "input" ? "Inputs:" : "Outputs:")
            }
            let left = layerText(row.layer).padding(toLength: width, withPad: " ", startingAt: 0)
            let mark = row.problems.isEmpty ? "✓" : "✗"
            lines.append("  \(left)  \(mark)  \(tensorText(row))" + (row.problems.isEmpty ? "" : "  (\(row.problems.joined(separator: "; ")))"))
        }
        if comparison.agrees {
            lines.append("The file's tensors agree; loading still failed: \(loadError.message)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func jsonValue(_ comparison: LayerTensorComparison, loadError: TensorIOError) -> JSONText.Value {
        .object([
            ("disagreements", .array(comparison.rows.filter { !$0.problems.isEmpty }.map { row in
                .object([
                    ("side", .string(row.side)),
                    ("layer", row.layer.map { .string($0.name) } ?? .null),
                    ("tensor", row.tensorName.map { .string($0) } ?? .null),
                    ("problems", .array(row.problems.map { .string($0) })),
                ])
            })),
            ("rows", .array(comparison.rows.map { row in
                .object([
                    ("side", .string(row.side)),
                    ("layer", row.layer.map { .string($0.name) } ?? .null),
                    ("layer_shape", row.layer.map { .array($0.shape.map { .integer(Int64($0)) }) } ?? .null),
                    ("tensor", row.tensorName.map { .string($0) } ?? .null),
                    ("tensor_dtype", row.tensorType.map { .string($0) } ?? .null),
                    ("tensor_shape", row.tensorShape.map { .array($0.map { .integer(Int64($0)) }) } ?? .null),
                    ("agrees", .bool(row.problems.isEmpty)),
                ])
            })),
            ("load_error", .string(loadError.message)),
        ])
    }

    // MARK: - Text

    private func text(_ bundle: ModelBundle, _ tensors: ModelTensors) -> String {
        var lines = [
            "\(bundle.name) (\(bundle.identifier)) version \(bundle.version)",
            "  \(bundle.details)",
            "  author: \(bundle.author); license: \(bundle.license)",
        ]
        if bundle.isPlaceholder {
            lines.append("  placeholder: no model file")
        } else {
            let modes = bundle.modelFile.modes.map(\.rawValue).sorted().joined(separator: ", ")
            lines.append("  model: \(bundle.modelFile.path), backend \(bundle.modelFile.backend ?? "(default)"), "
                + "quantized \(bundle.modelFile.isQuantized.map { "\($0)" } ?? "from the tensors"), modes [\(modes)]"
                + (bundle.modelFile.type.map { ", type \($0)" } ?? "")
                + (bundle.modelFile.className.map { ", class \($0)" } ?? ""))
        }
        lines.append("Inputs:")
        lines += bundle.inputs.map { "  " + layerSummary($0, isInput: true, quantized: bundle.modelFile.isQuantized) }
        lines.append("Outputs:")
        lines += bundle.outputs.map { "  " + layerSummary($0, isInput: false, quantized: bundle.modelFile.isQuantized) }
        if !bundle.placeholders.isEmpty {
            lines.append("Placeholders:")
            lines += bundle.placeholders.map { "  " + layerSummary($0, isInput: true, quantized: bundle.modelFile.isQuantized) }
        }
        // The tool registry read the entry when the bundle opened: nothing is left to throw.
        if let detection = try? bundle.detection {
            lines.append("Detection:")
            var parts = ["\(detection.kind.rawValue): boxes \(detection.boxesOutput), scores \(detection.scoresOutput)"]
            if let classes = detection.classesOutput { parts.append("classes \(classes)") }
            if let count = detection.countOutput { parts.append("count \(count)") }
            if detection.anchorCount > 0 { parts.append("\(detection.anchorCount) anchors") }
            if detection.keypointCount > 0 { parts.append("\(detection.keypointCount) keypoints") }
            if let labels = detection.labels { parts.append("labels \(labels.file) (\(labels.values.count))") }
            if let minimumScore = detection.minimumScore { parts.append("min_score \(minimumScore)") }
            if let maximumResults = detection.maximumResults { parts.append("max_results \(maximumResults)") }
            lines.append("  " + parts.joined(separator: ", "))
        }
        if let landmarks = try? bundle.landmarks {
            lines.append("Landmarks:")
            var parts = ["detector \(landmarks.detector)", "points \(landmarks.points.output) (\(landmarks.points.keep) of \(landmarks.points.count) × \(landmarks.points.values))"]
            if let heatmap = landmarks.heatmap { parts.append("heatmap \(heatmap.output)") }
            if let presence = landmarks.presence { parts.append("presence \(presence.output)") }
            if let handedness = landmarks.handedness { parts.append("handedness \(handedness.output) (\(handedness.labels.joined(separator: "/")))") }
            if let world = landmarks.worldPoints { parts.append("world points \(world)") }
            parts.append("at most \(landmarks.maximumInstances), min scores \(landmarks.minimumDetectionScore)/\(landmarks.minimumPresenceScore)")
            lines.append("  " + parts.joined(separator: ", "))
        }
        if let head = try? bundle.classifierHead {
            lines.append("Classifier head:")
            let base = head.base.map { "base \($0), " } ?? ""
            lines.append("  \(base)\(head.featureCount) \(head.features.rawValue) features into \(head.input), "
                + "\(head.labels.count) classes (\(head.labelsFile): \(head.labels.prefix(8).joined(separator: ", "))\(head.labels.count > 8 ? ", …" : "")) from \(head.output)")
        }
        if let training = bundle.training {
            lines.append("Training:")
            lines.append("  ops: \(training.operations.joined(separator: ", "))")
            if !training.trainingOnlyInputs.isEmpty {
                lines.append("  training-only inputs: \(training.trainingOnlyInputs.joined(separator: ", "))")
            }
            if !training.trainingOnlyOutputs.isEmpty {
                lines.append("  training-only outputs: \(training.trainingOnlyOutputs.joined(separator: ", "))")
            }
        }
        if !tensors.inputs.isEmpty || !tensors.outputs.isEmpty {
            lines.append("Tensors (signature \"\(tensors.signature ?? "")\"):")
            lines += (tensors.inputs.map { ("in ", $0) } + tensors.outputs.map { ("out", $0) }).map { side, tensor in
                var line = "  \(side) \(tensor.name)"
                if let tensorName = tensor.tensorName { line += " (\(tensorName))" }
                line += ": \(tensor.typeName) \(tensor.shape) -> layer \"\(tensor.layerName)\""
                if let quantization = tensor.quantization { line += ", " + describe(quantization) }
                if let fileShape = tensor.fileShape {
                    line += ", sized at run time (the file gives \(fileShape == [] ? "no shape" : "\(fileShape)"))"
                }
                return line
            }
        }
        // The app-specific keys, from the JSON object TensorIO keeps them in.
        let otherKeys: [String] = if case .object(let other)? = try? JSONValue(parsing: bundle.options.other) {
            other.keys.sorted()
        } else {
            []
        }
        if !bundle.options.outputFormat.isEmpty || bundle.options.devicePosition != nil || !otherKeys.isEmpty {
            lines.append("Options:")
            if let position = bundle.options.devicePosition { lines.append("  device_position: \(position.rawValue)") }
            if !bundle.options.outputFormat.isEmpty { lines.append("  output_format: \(bundle.options.outputFormat)") }
            for key in otherKeys { lines.append("  \(key): (app-specific)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One layer on one line; `isInput` names its transforms (`quantize`/`normalize` on inputs and
    /// placeholders, `dequantize`/`denormalize` on outputs).
    private func layerSummary(_ layer: LayerDescription, isInput: Bool, quantized: Bool?) -> String {
        var parts = ["\(layer.name): \(layer.kindName) \(layer.dataType(quantizedModel: quantized)?.rawValue ?? "(tensor's type)") \(layer.shape)"]
        switch layer.kind {
        case .image(let format, let spec):
            parts.append("format \(format.rawValue)")
            if let spec { parts.append("\(isInput ? "normalize" : "denormalize") \(describe(spec))") }
            if let mode = layer.imageResizeMode { parts.append("resize \(mode.rawValue)") }
            if let filter = layer.imageScalingFilter { parts.append("scaling \(filter.rawValue)") }
        case .array(let spec, let labels):
            if let spec { parts.append("\(isInput ? "quantize" : "dequantize") \(describe(spec))") }
            if let labels { parts.append("labels \(labels.file) (\(labels.values.count))") }
        case .scalar(let spec):
            if let spec { parts.append("\(isInput ? "quantize" : "dequantize") \(describe(spec))") }
        case .bytes:
            break
        }
        return parts.joined(separator: ", ")
    }

    private func describe(_ spec: QuantizationSpec) -> String {
        switch spec {
        case .standard(let range): return range.rawValue
        case .scaleAndBias(let scale, let bias): return "scale \(scale) bias \(bias)"
        case .fromTensor: return "from tensor"
        }
    }

    /// One number when every colour has it, else each colour's.
    private func describe(_ values: ChannelValues) -> String {
        values.isUniform ? "\(values.red)" : "r \(values.red) g \(values.green) b \(values.blue)"
    }

    private func describe(_ spec: NormalizationSpec) -> String {
        switch spec {
        case .standard(let range): return range.rawValue
        case .scaleAndBias(let scale, let bias): return "scale \(describe(scale)) bias \(describe(bias))"
        }
    }

    private func describe(_ quantization: TensorQuantization) -> String {
        switch quantization {
        case .perTensor(let scale, let zeroPoint): return "quantized scale \(scale) zero point \(zeroPoint)"
        case .perChannel(let dimension, let scales, _): return "quantized per channel (\(scales.count) along dimension \(dimension))"
        }
    }

    // MARK: - JSON

    private func jsonValue(_ bundle: ModelBundle, _ tensors: ModelTensors) -> JSONText.Value {
        var model: [(String, JSONText.Value)] = [
            ("file", .string(bundle.modelFile.path)),
            ("backend", bundle.modelFile.backend.map { .string($0) } ?? .null),
            ("quantized", bundle.modelFile.isQuantized.map { .bool($0) } ?? .null),
            ("modes", .array(bundle.modelFile.modes.map(\.rawValue).sorted().map { .string($0) })),
        ]
        if let type = bundle.modelFile.type { model.append(("type", .string(type))) }
        if let className = bundle.modelFile.className { model.append(("class", .string(className))) }
        return .object(ModelJSONDocument.descriptionMembers(of: bundle) + [
            ("placeholder", .bool(bundle.isPlaceholder)),
            ("model", .object(model)),
            ("inputs", .array(bundle.inputs.map { layerJSON($0, quantized: bundle.modelFile.isQuantized) })),
            ("outputs", .array(bundle.outputs.map { layerJSON($0, quantized: bundle.modelFile.isQuantized) })),
            ("placeholders", .array(bundle.placeholders.map { layerJSON($0, quantized: bundle.modelFile.isQuantized) })),
            ("train", bundle.training.map { training in
                .object([
                    ("ops", .array(training.operations.map { .string($0) })),
                    ("inputs", .array(training.trainingOnlyInputs.map { .string($0) })),
                    ("outputs", .array(training.trainingOnlyOutputs.map { .string($0) })),
                ])
            } ?? .null),
            ("tensors", .object([
                ("signature", tensors.signature.map { .string($0) } ?? .null),
                ("inputs", .array(tensors.inputs.map(tensorJSON))),
                ("outputs", .array(tensors.outputs.map(tensorJSON))),
            ])),
            ("options", .object([
                ("device_position", bundle.options.devicePosition.map { .string($0.rawValue) } ?? .null),
                ("output_format", .string(bundle.options.outputFormat)),
            ])),
        ])
    }

    private func layerJSON(_ layer: LayerDescription, quantized: Bool?) -> JSONText.Value {
        var members: [(String, JSONText.Value)] = [
            ("name", .string(layer.name)),
            ("type", .string(layer.kindName)),
            ("dtype", layer.dataType(quantizedModel: quantized).map { .string($0.rawValue) } ?? .null),
            ("shape", .array(layer.shape.map { .integer(Int64($0)) })),
        ]
        if case .image(let format, _) = layer.kind { members.append(("format", .string(format.rawValue))) }
        if let labels = layer.labels { members.append(("labels", .integer(Int64(labels.values.count)))) }
        return .object(members)
    }

    private func tensorJSON(_ tensor: TensorDescription) -> JSONText.Value {
        var members: [(String, JSONText.Value)] = [
            ("name", .string(tensor.name)),
            ("tensor_name", .string(tensor.tensorName ?? tensor.name)),
            ("layer", .string(tensor.layerName)),
            ("dtype", .string(tensor.typeName)),
            ("shape", .array(tensor.shape.map { .integer(Int64($0)) })),
            ("sized_at_run_time", .bool(tensor.isSizedByRuntime)),
            ("file_shape", tensor.fileShape.map { .array($0.map { .integer(Int64($0)) }) } ?? .null),
        ]
        switch tensor.quantization {
        case .perTensor(let scale, let zeroPoint)?:
            members.append(("quantization", .object([("scale", .float(scale)), ("zero_point", .integer(zeroPoint))])))
        case .perChannel(let dimension, let scales, let zeroPoints)?:
            members.append(("quantization", .object([
                ("dimension", .integer(Int64(dimension))),
                ("scales", .array(scales.map { .float($0) })),
                ("zero_points", .array(zeroPoints.map { .integer($0) })),
            ])))
        case nil:
            members.append(("quantization", .null))
        }
        return .object(members)
    }
}
