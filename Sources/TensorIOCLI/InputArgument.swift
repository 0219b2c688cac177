import Foundation
import TensorIO

/// One `--input [NAME=]VALUE` of `tensorio run`.
///
/// VALUE is a JSON number or (nested) array, or `@FILE`: a `.json` file holding one, or any other file
/// holding raw little-endian bytes in the layer's element type. `NAME=` may be left out when the model has
/// one input.
struct InputArgument {
    var layerName: String?
    var value: InputValue

    /// Parses the argument; `layerNames` decides whether text before `=` is a layer name.
    init(_ argument: String, layerNames: [String]) throws {
        var text = argument
        if let equals = argument.firstIndex(of: "="), layerNames.contains(String(argument[..<equals])) {
            layerName = String(argument[..<equals])
            text = String(argument[argument.index(after: equals)...])
        } else if let equals = argument.firstIndex(of: "="), !argument.hasPrefix("@"), !argument.hasPrefix("[") {
            let name = String(argument[..<equals])
            throw CLIError("--input \(argument): the model has no input layer named \"\(name)\" (inputs: \(layerNames.joined(separator: ", ")))")
        }
        value = try Self.parseValue(text, argument: argument)
    }

    /// Parses `--image [NAME=]PATH`, decoding the file at a reduced size when the layer is much smaller.
    init(image argument: String, bundle: ModelBundle, resizeMode: ImageResizeMode) throws {
        var path = argument
        if let equals = argument.firstIndex(of: "="), bundle.predictionInputs.index(forName: String(argument[..<equals])) != nil {
            layerName = String(argument[..<equals])
            path = String(argument[argument.index(after: equals)...])
        }
        let layer = layerName.flatMap { bundle.predictionInputs[$0] } ?? (bundle.predictionInputs.count == 1 ? bundle.predictionInputs[0] : nil)
        if let layer, layer.kind != .image {
            throw CLIError("--image \(argument): input \"\(layer.name)\" is an \(layer.kind.rawValue) layer, not an image layer")
        }
        let target = layer?.imageVolume.map { ImageSize(width: $0.width, height: $0.height) }
        value = .image(try PixelBuffer(contentsOf: URL(fileURLWithPath: path), targetSize: target, resizeMode: resizeMode))
    }

    static func parseValue(_ text: String, argument: String) throws -> InputValue {
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CLIError("--input \(argument): cannot read \(path): \(error.localizedDescription)")
            }
            guard path.lowercased().hasSuffix(".json") else { return .bytes(data) }
            return try parseJSON(data, source: path)
        }
        return try parseJSON(Data(text.utf8), source: "--input \(argument)")
    }

    private static func parseJSON(_ data: Data, source: String) throws -> InputValue {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw CLIError("\(source): not a JSON number or array")
        }
        return try inputValue(json, source: source)
    }

    /// A JSON number or nested array of numbers; arrays of numbers stay flat, deeper ones keep their rows.
    private static func inputValue(_ json: JSONValue, source: String) throws -> InputValue {
        switch json {
        case .number(let number):
            return .numbers(.float64([number]))
        case .bool(let flag):
            return .numbers(.bool([flag]))
        case .array(let items):
            var numbers: [Double] = []
            numbers.reserveCapacity(items.count)
            for item in items {
                guard case .number(let number) = item else {
                    return .list(try items.map { try inputValue($0, source: source) })
                }
                numbers.append(number)
            }
            return .numbers(.float64(numbers))
        default:
            throw CLIError("\(source): expected a number or an array of numbers, got \(json)")
        }
    }
}

/// A failure of the command line itself, printed as one line.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
