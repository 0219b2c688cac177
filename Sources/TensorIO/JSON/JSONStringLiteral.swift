/// Writes a string as a JSON string literal, for the places that assemble JSON text themselves (a
/// safetensors header, the tool's `--json` output, the server's JSON log lines) rather than encode a
/// `Codable` value.
@_spi(Internal) public enum JSONStringLiteral {
    /// `text` in quotes with quotes, backslashes and control characters escaped (RFC 8259): `\n`, `\r` and
    /// `\t` by their short forms, the other controls as `\u00XX`.
    ///
    /// - Parameter text: Any string.
    /// - Returns: The JSON string literal.
    @_spi(Internal) public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
