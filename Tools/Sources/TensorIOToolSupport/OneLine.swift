/// Makes a message one line on a terminal, whatever names it quotes: a zip entry, a file or a layer name
/// from a crafted file may hold a vertical tab, a carriage return or U+2028, which a terminal or a log
/// reader shows as a line break.
package enum OneLine {
    /// `message` with newlines, carriage returns and tabs as spaces, and every other control character
    /// and line or paragraph separator written as `\u{XX}`.
    ///
    /// - Parameter message: Any text.
    /// - Returns: The text without line breaks of any kind.
    package static func text(_ message: String) -> String {
        var line = ""
        line.unicodeScalars.reserveCapacity(message.unicodeScalars.count)
        for scalar in message.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                    line.unicodeScalars.append(" ")
                } else {
                    line += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            default:
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}
