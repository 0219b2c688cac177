import TensorIO

/// A bundle written out as `model.json` (what `tensorio init` saves): the original's key order, every
/// layer's `dtype` spelled out, and only the fields that say something.
enum ModelJSONDocument {
    static func value(for bundle: ModelBundle) -> JSONText.Value {
        var model: [(String, JSONText.Value)] = [
            ("file", .string(bundle.model.file)),
            ("backend", bundle.model.backend.map { .string($0) } ?? .null),
        ]
        if let quantized = bundle.model.isQuantized { model.append(("quantized", .bool(quantized))) }
        model.append(("modes", .array(bundle.model.modes.map(\.rawValue).sorted().map { .string($0) })))
        return .object(descriptionMembers(of: bundle) + [
            ("model", .object(model)),
            ("inputs", .array(bundle.inputs.map(layer))),
            ("outputs", .array(bundle.outputs.map(layer))),
        ])
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

    private static func layer(_ layer: LayerDescription) -> JSONText.Value {
        var members: [(String, JSONText.Value)] = [
            ("name", .string(layer.name)),
            ("type", .string(layer.kind.rawValue)),
            ("shape", .array(layer.shape.map { .integer(Int64($0)) })),
        ]
        if let type = layer.declaredDataType { members.append(("dtype", .string(type.rawValue))) }
        if let format = layer.pixelFormat { members.append(("format", .string(format.rawValue))) }
        if let spec = layer.normalize { members.append(("normalize", normalization(spec))) }
        if let spec = layer.denormalize { members.append(("denormalize", normalization(spec))) }
        if let spec = layer.quantize { members.append(("quantize", quantization(spec))) }
        if let spec = layer.dequantize { members.append(("dequantize", quantization(spec))) }
        if let file = layer.labelsFile { members.append(("labels", .string(file))) }
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
