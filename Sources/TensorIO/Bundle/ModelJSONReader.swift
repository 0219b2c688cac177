import Foundation

/// Checks a parsed `model.json` against the schema and builds a ``ModelJSON`` from it.
///
/// The reader does not stop at the first problem: it records every one with its JSON path, so a bundle
/// author sees the whole list at once. It follows the original schema (no unknown keys at the top level
/// or in a layer; required fields; enumerations) with the additions documented in docs/model-json.md.
package struct ModelJSONReader {
    package private(set) var issues: [BundleIssue] = []
    /// The labels files the outputs name, by output index (read later, when the bundle opens).
    private var labelsFiles: [Int: String] = [:]

    /// Backend names accepted in `model.backend`, lowercased.
    let knownBackends: Set<String>
    /// The tasks whose entries are read with the document; other known task entries are kept as written.
    let tasks: TaskRegistry
    /// Bounds on the sizes layers may declare.
    package let limits: ModelLimits

    init(knownBackends: Set<String>, tasks: TaskRegistry = TaskRegistry(), limits: ModelLimits = ModelLimits()) {
        self.knownBackends = knownBackends
        self.tasks = tasks
        self.limits = limits
    }

    /// The keys of the document's own fields; task entries (``TaskRegistry/knownKeys``) come on top.
    private static let topLevelKeys: Set<String> = [
        "name", "details", "id", "version", "author", "license", "placeholder", "model", "inputs", "outputs",
        "options", "placeholders", "placholders", "train",
    ]
    /// More dimensions than any runtime supports (TensorFlow Lite allows 16 at most in practice).
    static let maximumRank = 16
    private static let modelKeys: Set<String> = ["file", "backend", "quantized", "modes", "type", "class"]

    /// Which side of the model a layer is on; decides which keys it may carry.
    enum Role {
        case input, output, placeholder

        var collection: String {
            switch self {
            case .input: return "inputs"
            case .output: return "outputs"
            case .placeholder: return "placeholders"
            }
        }
    }

    /// Reads the whole document; returns `nil` when any issue was found.
    mutating func read(_ root: JSONValue) -> ModelJSON? {
        guard let object = object(root, at: "") else { return nil }
        checkKeys(object, allowed: Self.topLevelKeys.union(tasks.knownKeys), at: "")

        // Fields with an obvious default are optional (the original required them all): the bundle
        // folder's name stands in for `id` and `name` (filled in by the validator), `version` is "1".
        let name = optionalString(object, "name", at: "")
        let details = optionalString(object, "details", at: "") ?? ""
        let identifier = optionalString(object, "id", at: "")
        let version = optionalString(object, "version", at: "") ?? "1"
        let author = optionalString(object, "author", at: "") ?? ""
        let license = optionalString(object, "license", at: "") ?? ""
        if let name, name.isEmpty { issue("name", "must not be empty (leave it out to use the bundle's folder name)") }
        if let identifier, identifier.isEmpty { issue("id", "must not be empty (leave it out to use the bundle's folder name)") }
        let isPlaceholder = optionalBool(object, "placeholder", at: "") ?? false
        let model = readModel(object["model"], isPlaceholder: isPlaceholder)
        let inputs = readLayers(object["inputs"], role: .input, required: true)
        let outputs = readLayers(object["outputs"], role: .output, required: true)

        var placeholders: [LayerDescription] = []
        if object["placeholders"] != nil, object["placholders"] != nil {
            issue("placholders", "give placeholders once: \"placeholders\" and its old spelling \"placholders\" are both present")
        } else if object["placeholders"] != nil {
            placeholders = readLayers(object["placeholders"], role: .placeholder, required: false) ?? []
        } else if object["placholders"] != nil {
            placeholders = readLayers(object["placholders"], role: .placeholder, required: false, key: "placholders") ?? []
        }
        let training = readTrain(object["train"], inputs: inputs ?? [], outputs: outputs ?? [])
        let options = readOptions(object["options"])
        let taskEntries = object.filter { tasks.knownKeys.contains($0.key) }
        let layers = TaskLayers(inputs: inputs ?? [], outputs: outputs ?? [])
        var descriptions: [String: any TaskDescription] = [:]
        for task in tasks.tasks {
            if let entry = taskEntries[task.entryKey], let description = readTask(task, entry, layers: layers) {
                descriptions[task.entryKey] = description
            }
        }

        guard issues.isEmpty, let model, let inputs, let outputs else { return nil }
        return ModelJSON(
            name: name, details: details, identifier: identifier, version: version, author: author,
            license: license, isPlaceholder: isPlaceholder, modelFile: model, inputs: inputs, outputs: outputs,
            placeholders: placeholders, training: training, options: options,
            tasks: BundleTasks(entries: taskEntries, descriptions: descriptions, limits: limits), labelsFiles: labelsFiles
        )
    }

    /// One registered task's entry, read by the task (opened from the existential).
    private mutating func readTask<Task: ModelTask>(_ task: Task.Type, _ entry: JSONValue, layers: TaskLayers) -> (any TaskDescription)? {
        Task.read(entry, layers: layers, reader: &self)
    }

    // MARK: - Sections

    private mutating func readModel(_ value: JSONValue?, isPlaceholder: Bool) -> ModelFileDescription? {
        guard let value else {
            issue("model", "required")
            return nil
        }
        guard let object = object(value, at: "model") else { return nil }
        checkKeys(object, allowed: Self.modelKeys, at: "model")

        let file = requiredString(object, "file", at: "model")
        if let file, !(isPlaceholder && file.isEmpty) {
            checkRelativePath(file, at: "model.file")
        }
        // Left out, each layer without a dtype takes its tensor's element type.
        let quantized = optionalBool(object, "quantized", at: "model")

        var backend: String?
        if let name = optionalString(object, "backend", at: "model") {
            let lowered = name.lowercased()
            if knownBackends.contains(lowered) {
                backend = lowered
            } else {
                issue("model.backend", "\"\(name)\" is not one of \(quotedList(knownBackends.sorted()))")
            }
        }

        var modes: Set<ModelMode> = [.predict]
        if let value = object["modes"] {
            modes = []
            if case .array(let items) = value {
                for (index, item) in items.enumerated() {
                    let path = "model.modes[\(index)]"
                    guard case .string(let text) = item else {
                        issue(path, "expected a string, got \(item.typeName)")
                        continue
                    }
                    if let mode = ModelMode(rawValue: text) {
                        modes.insert(mode)
                    } else {
                        issue(path, "\"\(text)\" is not one of \(quotedList(ModelMode.allCases.map(\.rawValue)))")
                    }
                }
            } else {
                issue("model.modes", "expected an array, got \(value.typeName)")
            }
        }
        let type = optionalString(object, "type", at: "model")
        let className = optionalString(object, "class", at: "model")
        if let className, className.isEmpty { issue("model.class", "must not be empty") }

        guard let file else { return nil }
        return ModelFileDescription(
            path: file, backend: backend, isQuantized: quantized, modes: modes, type: type, className: className
        )
    }

    private mutating func readLayers(
        _ value: JSONValue?, role: Role, required: Bool, key: String? = nil
    ) -> [LayerDescription]? {
        let key = key ?? role.collection
        guard let value else {
            if required { issue(key, "required") }
            return nil
        }
        guard case .array(let items) = value else {
            issue(key, "expected an array of layers, got \(value.typeName)")
            return nil
        }
        if required, items.isEmpty { issue(key, "must list at least one layer") }

        var layers: [LayerDescription] = []
        var firstIndexByName: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let path = "\(key)[\(index)]"
            guard let (layer, labelsFile) = readLayer(item, role: role, at: path) else { continue }
            if let first = firstIndexByName[layer.name] {
                issue("\(path).name", "\"\(layer.name)\" is already the name of \(key)[\(first)]")
            } else {
                firstIndexByName[layer.name] = index
            }
            // Only outputs may name a labels file; with no issue, the layer's index is its JSON index.
            if role == .output, let labelsFile { labelsFiles[layers.count] = labelsFile }
            layers.append(layer)
        }
        return layers
    }

    /// Reads one layer, and the labels file it names (outputs only; read when the bundle opens).
    private mutating func readLayer(
        _ value: JSONValue, role: Role, at path: String
    ) -> (layer: LayerDescription, labelsFile: String?)? {
        guard let object = object(value, at: path) else { return nil }
        let issuesBefore = issues.count

        let name = requiredString(object, "name", at: path)
        if let name, name.isEmpty { issue("\(path).name", "must not be empty") }

        var kind: LayerDescription.TypeName?
        if let text = requiredString(object, "type", at: path) {
            kind = LayerDescription.TypeName(rawValue: text)
            if kind == nil {
                issue("\(path).type", "\"\(text)\" is not one of \(quotedList(LayerDescription.TypeName.allCases.map(\.rawValue)))")
            }
        }

        // Keys allowed depend on the layer's kind and side; an unknown type allows only the common ones.
        var allowed: Set<String> = ["name", "type", "shape", "dtype"]
        switch (kind, role) {
        case (.array, .input), (.array, .placeholder), (.scalar, .input), (.scalar, .placeholder): allowed.insert("quantize")
        case (.array, .output): allowed.formUnion(["dequantize", "labels"])
        case (.scalar, .output): allowed.insert("dequantize")
        case (.image, .input), (.image, .placeholder): allowed.formUnion(["format", "normalize", "resize", "scaling"])
        case (.image, .output): allowed.formUnion(["format", "denormalize"])
        default: break
        }
        let roleName = role == .output ? "an output" : "an input"
        let kindName = kind.map { "\($0.rawValue) layer" } ?? "layer"
        checkKeys(object, allowed: allowed, at: path, context: "\(roleName) \(kindName)")

        // A scalar's shape may be left out ([1]) or empty (rank 0); whatever is given holds one number.
        let shape = kind == .scalar && object["shape"] == nil
            ? [1] : readShape(object["shape"], kind: kind, role: role, at: "\(path).shape")

        var dataType: DataType?
        if let text = optionalString(object, "dtype", at: path) {
            dataType = DataType(rawValue: text.lowercased())
            if dataType == nil {
                issue("\(path).dtype", "\"\(text)\" is not one of \(quotedList(DataType.allCases.map(\.rawValue)))")
            }
        } else if kind == .string, object["dtype"] == nil {
            issue("\(path).dtype", "required for string layers")
        }

        // Keys the layer may not carry were reported above; they are not read as well.
        func allowedValue(_ key: String) -> JSONValue? { allowed.contains(key) ? object[key] : nil }
        let quantize = allowedValue("quantize").flatMap { readQuantization($0, at: "\(path).quantize") }
        let dequantize = allowedValue("dequantize").flatMap { readQuantization($0, at: "\(path).dequantize") }
        let labelsFile = allowedValue("labels") == nil ? nil : optionalString(object, "labels", at: path)
        if let labelsFile { checkRelativePath(labelsFile, at: "\(path).labels") }

        var pixelFormat: ImageTensorFormat?
        if kind == .image {
            if let text = requiredString(object, "format", at: path) {
                pixelFormat = ImageTensorFormat(rawValue: text.uppercased())
                if pixelFormat == nil {
                    issue("\(path).format", "\"\(text)\" is not one of \(quotedList(ImageTensorFormat.allCases.map(\.rawValue)))")
                } else if let format = pixelFormat, let shape, let volume = ImageVolume(shape: shape),
                          volume.channels != format.channelCount
                {
                    issue("\(path).format", "\(format.rawValue) images have \(format.channelCount) channel\(format.channelCount == 1 ? "" : "s"), but the shape has \(volume.channels)")
                }
            }
        }
        let resizeMode = allowedValue("resize") == nil ? nil
            : readEnumeration(object, "resize", at: path, as: ImageResizeMode.self)
        let scalingFilter = allowedValue("scaling") == nil ? nil
            : readEnumeration(object, "scaling", at: path, as: ImageScalingFilter.self)
        let normalize = allowedValue("normalize").flatMap { readNormalization($0, at: "\(path).normalize") }
        let denormalize = allowedValue("denormalize").flatMap { readNormalization($0, at: "\(path).denormalize") }

        guard issues.count == issuesBefore, let name, let kind, let shape else { return nil }
        // Each key is allowed on one side only (checked above), so one of each pair is set at most.
        let layerKind: LayerDescription.Kind
        switch kind {
        case .array: layerKind = .array(quantization: quantize ?? dequantize)
        case .scalar: layerKind = .scalar(quantization: quantize ?? dequantize)
        case .image:
            guard let pixelFormat else { return nil }
            layerKind = .image(format: pixelFormat, normalization: normalize ?? denormalize)
        case .string: layerKind = .bytes
        }
        return (
            LayerDescription(
                name: name, shape: shape, declaredDataType: dataType, kind: layerKind,
                imageResizeMode: resizeMode, imageScalingFilter: scalingFilter
            ),
            labelsFile
        )
    }

    /// A string member naming one case of `type` (its raw value, case-insensitively); an issue at
    /// `path.key` listing the cases otherwise.
    package mutating func readEnumeration<Value: RawRepresentable & CaseIterable>(
        _ object: [String: JSONValue], _ key: String, at path: String, as type: Value.Type
    ) -> Value? where Value.RawValue == String {
        readChoice(object, key, at: path, from: Value.allCases.map { ($0.rawValue, $0) })
    }

    /// A string member naming one of `choices` (case-insensitively); an issue at `path.key` listing the
    /// names otherwise.
    package mutating func readChoice<Value>(
        _ object: [String: JSONValue], _ key: String, at path: String, from choices: [(name: String, value: Value)]
    ) -> Value? {
        guard let text = optionalString(object, key, at: path) else { return nil }
        if let choice = choices.first(where: { $0.name.lowercased() == text.lowercased() }) { return choice.value }
        issue("\(path).\(key)", "\"\(text)\" is not one of \(quotedList(choices.map(\.name)))")
        return nil
    }

    private mutating func readShape(
        _ value: JSONValue?, kind: LayerDescription.TypeName?, role: Role, at path: String
    ) -> [Int]? {
        guard let value else {
            issue(path, "required")
            return nil
        }
        guard case .array(let items) = value, !items.isEmpty || kind == .scalar else {
            issue(path, "expected a non-empty array of sizes, got \(value.brief)")
            return nil
        }
        var shape: [Int] = []
        for (index, item) in items.enumerated() {
            guard case .number(let number) = item, number.rounded() == number, abs(number) < 1e12 else {
                issue("\(path)[\(index)]", "expected an integer size, got \(item.brief)")
                return nil
            }
            shape.append(Int(number))
        }
        if kind == .image {
            guard let volume = ImageVolume(shape: shape) else {
                issue(path, "\(value.brief) is not an image shape: expected [height, width, channels], or four sizes with -1 first or last")
                return nil
            }
            let (pixels, overflow) = volume.width.multipliedReportingOverflow(by: volume.height)
            guard !overflow, pixels <= limits.maximumImageLayerPixels else {
                issue(path, "\(value.brief) is \(volume.width)×\(volume.height) pixels, more than the limit of \(limits.maximumImageLayerPixels) (ModelLimits.maximumImageLayerPixels)")
                return nil
            }
        } else if role == .output, kind != .scalar {
            // An output's -1 is a size the runtime decides; each run reads the size it reports.
            for (index, size) in shape.enumerated() where size <= 0 && size != -1 {
                issue("\(path)[\(index)]", "\(size) is not a size: sizes are positive, or -1 for a size the model decides when it runs")
                return nil
            }
        } else {
            for (index, size) in shape.enumerated() where size <= 0 && !(size == -1 && index == 0) {
                issue("\(path)[\(index)]", "\(size) is not a size: sizes are positive, and only the first may be -1 (the batch dimension)")
                return nil
            }
        }
        if kind == .scalar, shape.contains(where: { $0 != 1 && $0 != -1 }) || shape.dropFirst().contains(-1) {
            issue(path, "\(value.brief) is not the shape of one number: give [], [1] (or [-1] for a batch of numbers), or leave it out")
            return nil
        }
        guard shape.count <= Self.maximumRank else {
            issue(path, "has \(shape.count) dimensions; at most \(Self.maximumRank) are allowed")
            return nil
        }
        // The product of sizes each under 1e12 still overflows Int: count with checks, one item (the
        // batch dimension left out).
        var elements = 1
        for size in shape where size != -1 {
            let (product, overflow) = elements.multipliedReportingOverflow(by: size)
            guard !overflow, product <= limits.maximumElementsPerTensor else {
                issue(path, "\(value.brief) holds more than \(limits.maximumElementsPerTensor) elements, the limit (ModelLimits.maximumElementsPerTensor)")
                return nil
            }
            elements = product
        }
        return shape
    }

    private mutating func readQuantization(_ value: JSONValue, at path: String) -> QuantizationSpec? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["standard", "scale", "bias", "from"], at: path)
        if object["standard"] != nil {
            return readStandard(object, at: path).map { .standard($0) }
        }
        if let from = object["from"] {
            guard case .string("tensor") = from else {
                issue("\(path).from", "\(from.brief) is not one of \"tensor\"")
                return nil
            }
            return .fromTensor
        }
        let scale = number(object, "scale", at: path)
        let bias = number(object, "bias", at: path)
        switch (object["scale"], object["bias"]) {
        case (nil, nil):
            issue(path, "give \"standard\", \"scale\" and \"bias\", or \"from\": \"tensor\"")
        case (_, nil):
            issue("\(path).bias", "required when scale is given")
        case (nil, _):
            issue("\(path).scale", "required when bias is given")
        default:
            break
        }
        guard let scale, let bias else { return nil }
        return .scaleAndBias(scale: Float(scale), bias: Float(bias))
    }

    private mutating func readNormalization(_ value: JSONValue, at path: String) -> NormalizationSpec? {
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["standard", "scale", "bias"], at: path)
        if object["standard"] != nil {
            return readStandard(object, at: path).map { .standard($0) }
        }
        guard object["scale"] != nil || object["bias"] != nil else {
            issue(path, "give \"standard\", or \"scale\" and/or \"bias\"")
            return nil
        }
        let scale = channelValues(object["scale"], default: 1, at: "\(path).scale")
        let bias = channelValues(object["bias"], default: 0, at: "\(path).bias")
        guard let scale, let bias else { return nil }
        return .scaleAndBias(scale: scale, bias: bias)
    }

    /// A number for every colour, or `{"r": …, "g": …, "b": …}` (colours left out take `defaultValue`).
    private mutating func channelValues(_ value: JSONValue?, default defaultValue: Float, at path: String) -> ChannelValues? {
        switch value {
        case nil:
            return ChannelValues(all: defaultValue)
        case .number(let number) where number.isFinite:
            return ChannelValues(all: Float(number))
        case .object(let channels):
            checkKeys(channels, allowed: ["r", "g", "b"], at: path)
            let red = channels["r"] == nil ? Double(defaultValue) : number(channels, "r", at: path)
            let green = channels["g"] == nil ? Double(defaultValue) : number(channels, "g", at: path)
            let blue = channels["b"] == nil ? Double(defaultValue) : number(channels, "b", at: path)
            guard let red, let green, let blue else { return nil }
            return ChannelValues(red: Float(red), green: Float(green), blue: Float(blue))
        case let other?:
            issue(path, "expected a number or an object with r, g and b, got \(other.brief)")
            return nil
        }
    }

    private mutating func readStandard(_ object: [String: JSONValue], at path: String) -> StandardRange? {
        guard let text = requiredString(object, "standard", at: path) else { return nil }
        let compact = text.filter { !$0.isWhitespace }
        guard let range = StandardRange(rawValue: compact) else {
            issue("\(path).standard", "\"\(text)\" is not one of \(quotedList(StandardRange.allCases.map(\.rawValue)))")
            return nil
        }
        return range
    }

    private mutating func readTrain(
        _ value: JSONValue?, inputs: [LayerDescription], outputs: [LayerDescription]
    ) -> TrainingDescription? {
        guard let value else { return nil }
        guard let object = object(value, at: "train") else { return nil }
        checkKeys(object, allowed: ["ops", "inputs", "outputs"], at: "train")
        guard object["ops"] != nil else {
            issue("train.ops", "required")
            return nil
        }
        let operations = readNames(object["ops"], at: "train.ops", what: "operation name") ?? []
        let inputNames = readNames(object["inputs"], at: "train.inputs", what: "input layer name") ?? []
        let outputNames = readNames(object["outputs"], at: "train.outputs", what: "output layer name") ?? []
        for (index, name) in inputNames.enumerated() where !inputs.contains(where: { $0.name == name }) {
            issue("train.inputs[\(index)]", "\"\(name)\" is not one of the inputs")
        }
        for (index, name) in outputNames.enumerated() where !outputs.contains(where: { $0.name == name }) {
            issue("train.outputs[\(index)]", "\"\(name)\" is not one of the outputs")
        }
        return TrainingDescription(operations: operations, trainingOnlyInputs: inputNames, trainingOnlyOutputs: outputNames)
    }

    /// An array of non-empty strings, or `nil` (with an issue) when it is something else.
    private mutating func readNames(_ value: JSONValue?, at path: String, what: String) -> [String]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            issue(path, "expected an array of \(what)s, got \(value.typeName)")
            return nil
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let name) = item, !name.isEmpty else {
                issue("\(path)[\(index)]", "expected an \(what), got \(item.brief)")
                continue
            }
            names.append(name)
        }
        return names
    }

    private mutating func readOptions(_ value: JSONValue?) -> ModelOptions {
        var options = ModelOptions()
        guard let value, let object = object(value, at: "options") else { return options }
        var other: [String: JSONValue] = [:]
        for (key, item) in object {
            switch key {
            case "device_position":
                guard case .string(let text) = item, let position = ModelOptions.DevicePosition(rawValue: text) else {
                    issue("options.device_position", "\(item.brief) is not one of \(quotedList(ModelOptions.DevicePosition.allCases.map(\.rawValue)))")
                    continue
                }
                options.devicePosition = position
            case "output_format":
                guard case .string(let text) = item else {
                    issue("options.output_format", "expected a string, got \(item.typeName)")
                    continue
                }
                options.outputFormat = text
            default:
                other[key] = item
            }
        }
        if !other.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Values read from JSON always encode (finite numbers, strings, containers).
            if let data = try? encoder.encode(JSONValue.object(other)) { options.other = data }
        }
        return options
    }

    // MARK: - Field helpers

    package mutating func issue(_ path: String, _ message: String) {
        issues.append(BundleIssue(path: path, message: message))
    }

    package mutating func object(_ value: JSONValue, at path: String) -> [String: JSONValue]? {
        guard case .object(let object) = value else {
            issue(path, "expected an object, got \(value.typeName)")
            return nil
        }
        return object
    }

    /// A task's entry, such as `detection`, with its keys checked against `allowed`; `nil` when the
    /// document has none, or (with an issue) when it is not an object.
    package mutating func taskEntry(_ value: JSONValue?, at path: String, allowed: Set<String>) -> [String: JSONValue]? {
        guard let value, let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: allowed, at: path)
        return object
    }

    /// The required member `key` naming one of `layers`, the model's inputs or outputs (`role`: "input" or
    /// "output"); an issue at `path.key` when it names none of them or when `problem` says why that
    /// layer cannot serve.
    package mutating func readLayerName(
        _ object: [String: JSONValue], _ key: String, in layers: [LayerDescription], role: String, at path: String,
        problem: (LayerDescription) -> String?
    ) -> String? {
        guard let name = requiredString(object, key, at: path) else { return nil }
        if let layer = layers.first(where: { $0.name == name }) {
            if let problem = problem(layer) { issue("\(path).\(key)", "\"\(name)\" \(problem)") }
        } else {
            issue("\(path).\(key)", "\"\(name)\" is not an \(role) (\(role)s: \(quotedList(layers.map(\.name))))")
        }
        return name
    }

    package mutating func checkKeys(
        _ object: [String: JSONValue], allowed: Set<String>, at path: String, context: String? = nil
    ) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let place = context.map { " for \($0)" } ?? ""
            issue(join(path, key), "unknown key\(place) (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    package mutating func requiredString(_ object: [String: JSONValue], _ key: String, at path: String) -> String? {
        guard object[key] != nil else {
            issue(join(path, key), "required")
            return nil
        }
        return optionalString(object, key, at: path)
    }

    package mutating func optionalString(_ object: [String: JSONValue], _ key: String, at path: String) -> String? {
        member(object, key, at: path, expected: "a string", found: \.typeName) { value in
            guard case .string(let text) = value else { return nil }
            return text
        }
    }

    package mutating func optionalBool(_ object: [String: JSONValue], _ key: String, at path: String) -> Bool? {
        member(object, key, at: path, expected: "true or false") { value in
            guard case .bool(let flag) = value else { return nil }
            return flag
        }
    }

    package mutating func number(_ object: [String: JSONValue], _ key: String, at path: String) -> Double? {
        member(object, key, at: path, expected: "a number") { value in
            guard case .number(let number) = value, number.isFinite else { return nil }
            return number
        }
    }

    /// The member `key` as `convert` reads it; `nil` when there is none, or when `convert` refuses its
    /// value, with an issue at `path.key`: "expected <expected>, got <found(value)>".
    private mutating func member<Value>(
        _ object: [String: JSONValue], _ key: String, at path: String, expected: String,
        found: (JSONValue) -> String = \.brief, _ convert: (JSONValue) -> Value?
    ) -> Value? {
        guard let value = object[key] else { return nil }
        guard let converted = convert(value) else {
            issue(join(path, key), "expected \(expected), got \(found(value))")
            return nil
        }
        return converted
    }

    /// File names in `model.json` must stay inside the bundle.
    package mutating func checkRelativePath(_ path: String, at jsonPath: String) {
        if path.isEmpty {
            issue(jsonPath, "must not be empty")
        } else if path.hasPrefix("/") || path.hasPrefix("~") {
            issue(jsonPath, "\"\(path)\" is an absolute path: give a file name inside the bundle")
        } else if path.split(separator: "/").contains("..") || path.contains("\\") || path.contains("\0") {
            issue(jsonPath, "\"\(path)\" leaves the bundle: \"..\" and backslashes are not allowed")
        }
    }

    package func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func quotedList(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
}
