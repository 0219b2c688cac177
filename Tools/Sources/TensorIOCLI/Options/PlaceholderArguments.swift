import TensorIO
import TensorIOToolSupport

/// `--placeholder NAME=VALUE` options (run and train): values for the bundle's `placeholders` layers.
enum PlaceholderArguments {
    /// The values by placeholder name.
    ///
    /// - Parameters:
    ///   - arguments: The options' values, `NAME=VALUE` each, VALUE as `--input` takes it.
    ///   - bundle: The bundle whose placeholders the names must be.
    /// - Throws: ``CLIError`` naming the argument: no `=`, a name that is not a placeholder, a name given
    ///   twice, or a value that does not parse.
    static func parse(_ arguments: [String], bundle: ModelBundle) throws -> [String: InputValue] {
        var values: [String: InputValue] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw CLIError.usage("--placeholder \(argument): expected NAME=VALUE")
            }
            let name = String(argument[..<equals])
            guard bundle.placeholders.index(forName: name) != nil else {
                let declared = bundle.placeholders.names
                throw CLIError.usage("--placeholder \(argument): the model has no placeholder named \"\(name)\" (placeholders: \(declared.isEmpty ? "none" : declared.joined(separator: ", ")))")
            }
            guard values[name] == nil else { throw CLIError.usage("--placeholder \(name) is given twice") }
            values[name] = try InputArgument.parseValue(String(argument[argument.index(after: equals)...]), argument: argument)
        }
        return values
    }
}
