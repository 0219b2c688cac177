@_spi(Internal) import TensorIO
import TensorIOToolSupport

/// A bundle written out as `model.json` (what `tensorio init` saves): the original's key order, every
/// layer's `dtype` spelled out, and only the fields that say something.
enum ModelJSONDocument {
    static func value(for bundle: ModelBundle) -> JSONText.Value {
        var model: [(String, JSONText.Value)] = [
            ("file", .string(bundle.modelFile.path)),
            ("backend", bundle.modelFile.backend.map { .string($0) } ?? .null),
        ]
        if let quantized = bundle.modelFile.isQuantized { model.append(("quantized", .bool(quantized))) }
        model.append(("modes", .array(bundle.modelFile.modes.map(\.rawValue).sorted().map { .string($0) })))
        var members = descriptionMembers(of: bundle) + [
            ("model", .object(model)),
            ("inputs", .array(bundle.inputs.map { layer($0, isInput: true) })),
            ("outputs", .array(bundle.outputs.map { layer($0, isInput: false) })),
        ]
        // Each task's entry as its task writes it, in the tool registry's order.
        for key in ModelRegistry.tool.taskNames {
            if let entry = bundle.taskEntriesJSON[key] { members.append((key, value(entry))) }
        }
        return .object(members)
    }

    /// An ordered tree the library built, as the tool's JSON.
    static func value(_ tree: OrderedJSON) -> JSONText.Value {
        switch tree {
        case .string(let text): .string(text)
        // Floats from model files print as the float they are (0.1484375, not 0.14843750000000001).
        case .number(let number): Float(exactly: number).map { .float($0) } ?? .double(number)
        case .integer(let number): .integer(Int64(number))
        case .bool(let flag): .bool(flag)
        case .array(let items): .array(items.map(value))
        case .object(let members): .object(members.map { ($0.key, value($0.value)) })
        }
    }

    /// The keys that describe the model to people, as `model.json` spells them (also in `inspect --json`).
    static func descriptionMembers(of bundle: ModelBundle) -> [(String, JSONText.Value)] {
        [
            ("name", .string(bundle.name)),
            ("details", .string(bundle.details)),
            ("id", .string(bundle.identifier)),
            ("version", .string(bundle.version)),
            ("author", .string(bundle.author)),
            ("license", .string(bundle.license)),
        ]
    }

    /// One layer; `isInput` decides the keys of its transforms (`quantize`/`normalize` on inputs,
    /// `dequantize`/`denormalize` on outputs).
    private static func layer(_ layer: LayerDescription, isInput: Bool) -> JSONText.Value {
        var members: [(String, JSONText.Value)] = [
            ("name", .string(layer.name)),
            ("type", .string(layer.kindName)),
            ("shape", .array(layer.shape.map { .integer(Int64($0)) })),
        ]
        if let type = layer.declaredDataType { members.append(("dtype", .string(type.rawValue))) }
        switch layer.kind {
        case .image(let format, let spec):
            members.append(("format", .string(format.rawValue)))
            if let spec { members.append((isInput ? "normalize" : "denormalize", normalization(spec))) }
            if let mode = layer.imageResizeMode { members.append(("resize", .string(mode.rawValue))) }
            if let filter = layer.imageScalingFilter { members.append(("scaling", .string(filter.rawValue))) }
        case .array(let spec, let labels):
            if let spec { members.append((isInput ? "quantize" : "dequantize", quantization(spec))) }
            if let labels { members.append(("labels", .string(labels.file))) }
        case .scalar(let spec):
            if let spec { members.append((isInput ? "quantize" : "dequantize", quantization(spec))) }
        case .bytes:
            break
        }
        return .object(members)
    }

    private static func normalization(_ spec: NormalizationSpec) -> JSONText.Value {
        switch spec {
        case .standard(let range):
            return .object([("standard", .string(range.rawValue))])
        case .scaleAndBias(let scale, let bias):
            return .object([("scale", channels(scale)), ("bias", channels(bias))])
        }
    }

    private static func channels(_ values: ChannelValues) -> JSONText.Value {
        values.isUniform
            ? .float(values.red)
            : .object([("r", .float(values.red)), ("g", .float(values.green)), ("b", .float(values.blue))])
    }

    private static func quantization(_ spec: QuantizationSpec) -> JSONText.Value {
        switch spec {
        case .standard(let range): return .object([("standard", .string(range.rawValue))])
        case .scaleAndBias(let scale, let bias): return .object([("scale", .float(scale)), ("bias", .float(bias))])
        case .fromTensor: return .object([("from", .string("tensor"))])
        }
    }
}
