import Foundation
import TensorIO

/// The anchors file of a detection description (`anchors.file` in `model.json`): one anchor per line,
/// `x_center,y_center,width,height` as fractions of the model's input, in the order of the boxes output's
/// rows. Blank lines and lines starting with `#` are skipped.
///
/// `tensorio init` writes it for models that carry their anchors (MediaPipe's `DETECTOR_METADATA`); it is
/// read when the bundle opens, so it is untrusted: at most ``DetectionDescription/maximumAnchors`` anchors,
/// four finite numbers each, sizes not negative.
extension Anchor {
    /// Parses an anchors file.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - location: The JSON path of the field naming the file, for errors.
    /// - Returns: The anchors in file order.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) naming the first bad line.
    static func list(parsing text: String, location: String) throws -> [Anchor] {
        var anchors: [Anchor] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard anchors.count < DetectionDescription.maximumAnchors else {
                throw TensorIOError.invalidDetectionOption(
                    "more than \(DetectionDescription.maximumAnchors) anchors (DetectionDescription.maximumAnchors)", at: location
                )
            }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            let values = fields.compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard fields.count == 4, values.count == 4, values.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }),
                  values[2] >= 0, values[3] >= 0
            else {
                throw TensorIOError.invalidDetectionOption(
                    "line \(lineNumber): expected x_center,y_center,width,height (four finite numbers, sizes not negative), got \"\(trimmed.prefix(80))\"",
                    at: location
                )
            }
            anchors.append(Anchor(xCenter: values[0], yCenter: values[1], width: values[2], height: values[3]))
        }
        guard !anchors.isEmpty else {
            throw TensorIOError.invalidDetectionOption("the file lists no anchors", at: location)
        }
        return anchors
    }

    /// The text of an anchors file listing `anchors`, each number written so that it reads back exactly.
    static func listText(_ anchors: [Anchor]) -> String {
        var text = "# x_center,y_center,width,height\n"
        for anchor in anchors {
            text += "\(anchor.xCenter),\(anchor.yCenter),\(anchor.width),\(anchor.height)\n"
        }
        return text
    }
}
