import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport

/// One `--input [NAME=]VALUE` of `tensorio run`.
///
/// VALUE is a JSON number or (nested) array, or `@FILE`: a `.json` file holding one, a NumPy `.npy` file,
/// a NumPy `.npz` file whose arrays are matched to input layers by name, `@-` for standard input (JSON or
/// `.npy`), or any other file holding raw little-endian bytes in the layer's element type. `NAME=` may be
/// left out when the model has one input.
struct InputArgument {
    var layerName: String?
    var value: InputValue

    /// The most bytes read from one `@FILE` or from standard input.
    static let maximumFileBytes = 1 << 30

    init(layerName: String?, value: InputValue) {
        self.layerName = layerName
        self.value = value
    }

    /// Parses one `--input`; `layerNames` decides whether text before `=` is a layer name. An `.npz`
    /// file given without a name gives one value per array it holds.
    static func parse(_ argument: String, layerNames: [String]) throws -> [InputArgument] {
        var text = argument
        var layerName: String?
        if let equals = argument.firstIndex(of: "="), layerNames.contains(String(argument[..<equals])) {
            layerName = String(argument[..<equals])
            text = String(argument[argument.index(after: equals)...])
        } else if let equals = argument.firstIndex(of: "="), !argument.hasPrefix("@"), !argument.hasPrefix("[") {
            let name = String(argument[..<equals])
            throw CLIError.usage("--input \(argument): the model has no input layer named \"\(name)\" (inputs: \(layerNames.joined(separator: ", ")))")
        }
        if text.hasPrefix("@"), text.lowercased().hasSuffix(".npz") {
            let path = String(text.dropFirst())
            let arrays = try NumPyArchive.arrays(
                in: InputFile.read(path, argument: argument).data, path: path, argument: argument,
                maximumBytes: maximumFileBytes)
            return try select(arrays, layerName: layerName, layerNames: layerNames, argument: argument)
        }
        return [InputArgument(layerName: layerName, value: try parseValue(text, argument: argument))]
    }

    /// The arrays of an `.npz` file that feed layers: the one named `layerName`, or each by its own name
    /// (a lone array feeds a model's lone input whatever its name, as `numpy.savez(x)` calls it `arr_0`).
    private static func select(
        _ arrays: [(name: String, array: NumPyArray)], layerName: String?, layerNames: [String], argument: String
    ) throws -> [InputArgument] {
        let held = arrays.map(\.name).joined(separator: ", ")
        if let layerName {
            guard let match = arrays.first(where: { $0.name == layerName }) ?? (arrays.count == 1 ? arrays.first : nil) else {
                throw CLIError("--input \(argument): the file has no array named \"\(layerName)\" (it holds: \(held))")
            }
            return [InputArgument(layerName: layerName, value: .numbers(match.array.values))]
        }
        if arrays.count == 1, layerNames.count == 1 {
            return [InputArgument(layerName: nil, value: .numbers(arrays[0].array.values))]
        }
        if let stranger = arrays.first(where: { !layerNames.contains($0.name) }) {
            throw CLIError("--input \(argument): array \"\(stranger.name)\" names no input layer (inputs: \(layerNames.joined(separator: ", "))); name arrays after the layers, or give NAME=@FILE")
        }
        return arrays.map { InputArgument(layerName: $0.name, value: .numbers($0.array.values)) }
    }

    /// Parses `--image [NAME=]PATH`, decoding the file at a reduced size when the layer is much smaller.
    init(image argument: String, bundle: ModelBundle, configuration: ModelConfiguration) throws {
        var path = argument
        if let equals = argument.firstIndex(of: "="), bundle.predictionInputs.index(forName: String(argument[..<equals])) != nil {
            layerName = String(argument[..<equals])
            path = String(argument[argument.index(after: equals)...])
        }
        let layer = try layerName.map { try bundle.predictionInputs[$0] }
            ?? (bundle.predictionInputs.count == 1 ? bundle.predictionInputs[0] : nil)
        if let layer, !layer.isImage {
            throw CLIError("--image \(argument): input \"\(layer.name)\" is an \(layer.kindName) layer, not an image layer")
        }
        let target = layer.flatMap { ImageTarget(layer: $0, configuration: configuration) }
        value = .image(try PixelBuffer(
            contentsOf: URL(fileURLWithPath: path), targetSize: target?.decodeSize, resizeMode: target?.resizeMode ?? .aspectFill
        ))
    }

    /// One value: JSON text, or `@FILE` / `@-` (see the type's description; `.npz` is ``parse(_:layerNames:)``'s).
    static func parseValue(_ text: String, argument: String) throws -> InputValue {
        guard text.hasPrefix("@") else { return try parseJSON(Data(text.utf8), source: "--input \(argument)") }
        let path = String(text.dropFirst())
        if path == "-" {
            let data = try InputFile.readStandardInput(argument: argument)
            guard !data.isEmpty else { throw CLIError("--input \(argument): standard input is empty") }
            if NumPyArray.recognizes(data) { return .numbers(try NumPyArray(data, source: "standard input").values) }
            return try parseJSON(data, source: "standard input")
        }
        let file = try InputFile.read(path, argument: argument)
        if path.lowercased().hasSuffix(".npy") || NumPyArray.recognizes(file.data) {
            return .numbers(try NumPyArray(file.data, source: path).values)
        }
        // A pipe (`@<(python gen.py)`, a FIFO) is read like standard input: JSON unless it is .npy.
        guard path.lowercased().hasSuffix(".json") || file.isPipe else { return .bytes(file.data) }
        return try parseJSON(file.data, source: path)
    }

    private static func parseJSON(_ data: Data, source: String) throws -> InputValue {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw CLIError("\(source): not a JSON number or array (quote arrays in the shell: --input '[1,2,3]')")
        }
        return try inputValue(json, source: source)
    }

    /// A JSON number or array of numbers nested to any depth: one tensor, flattened row-major (the
    /// library's rule for lists; several layers are given with one `--input NAME=…` each).
    private static func inputValue(_ json: JSONValue, source: String) throws -> InputValue {
        var numbers: [Double] = []
        // An explicit stack keeps a deeply nested crafted file from exhausting the call stack.
        var pending: [JSONValue] = [json]
        while let next = pending.popLast() {
            switch next {
            case .number(let number):
                numbers.append(number)
            case .bool(let flag):
                numbers.append(flag ? 1 : 0)
            case .array(let items):
                pending.append(contentsOf: items.reversed())
            default:
                throw CLIError("\(source): expected a number or an array of numbers, got \(next)")
            }
        }
        if case .bool(let flag) = json { return .numbers(.bool([flag])) }
        return .numbers(.float64(numbers))
    }
}
