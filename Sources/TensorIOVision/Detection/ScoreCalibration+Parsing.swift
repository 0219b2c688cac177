import TensorIO

extension ScoreCalibration {
    /// Reads the associated file of type `TENSOR_AXIS_SCORE_CALIBRATION`: one line per class, empty for
    /// a class that gets the default score, else `scale,slope,offset` or `scale,slope,offset,min_score`.
    ///
    /// The file is untrusted: it must have exactly one line per class (reading stops at the first line
    /// too many), and every value must be a finite number. Two things are accepted that tflite-support
    /// refuses, both harmless: a newline after the last line, and `\r\n` line ends.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - classCount: How many classes the scores have.
    ///   - location: Where the file is named (its JSON path or name), for errors.
    /// - Throws: `TensorIOError` `TensorIOError/Code/invalidBundle` giving the line number.
    init(parsing text: String, classCount: Int, transformation: Transformation = .identity, defaultScore: Float = 0, location: String) throws {
        guard classCount >= 1 else {
            throw TensorIOError.invalidDetectionOption("cannot calibrate scores of \(classCount) classes", at: location)
        }
        let utf8 = text.utf8
        guard !utf8.isEmpty else {
            throw TensorIOError.invalidDetectionOption("the score calibration file is empty; it needs one line per class (\(classCount))", at: location)
        }
        var sigmoids: [Sigmoid?] = []
        var lineStart = utf8.startIndex
        while true {
            if sigmoids.count == classCount {
                // Only the empty remainder after a final newline may follow the last class's line.
                guard lineStart == utf8.endIndex else {
                    throw TensorIOError.invalidDetectionOption(
                        "line \(classCount + 1): the score calibration file has more lines than the \(classCount) classes", at: location
                    )
                }
                break
            }
            let lineEnd = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
            sigmoids.append(try Self.sigmoid(utf8[lineStart..<lineEnd], lineNumber: sigmoids.count + 1, location: location))
            guard lineEnd < utf8.endIndex else { break }
            lineStart = utf8.index(after: lineEnd)
        }
        guard sigmoids.count == classCount else {
            // A final newline ends the last line rather than starting another.
            let lines = utf8.last == UInt8(ascii: "\n") ? sigmoids.count - 1 : sigmoids.count
            throw TensorIOError.invalidDetectionOption(
                "the score calibration file ends after line \(lines), but there are \(classCount) classes: it needs one line per class", at: location
            )
        }
        self.init(sigmoids: sigmoids, transformation: transformation, defaultScore: defaultScore)
    }

    /// One line's parameters; `nil` for an empty line.
    private static func sigmoid(_ line: Substring.UTF8View, lineNumber: Int, location: String) throws -> Sigmoid? {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return nil }
        let fields = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4 else {
            throw TensorIOError.invalidDetectionOption(
                "line \(lineNumber): expected 3 or 4 comma-separated numbers (scale,slope,offset[,min_score]), found \(fields.count) fields",
                at: location
            )
        }
        let values = try fields.enumerated().map { position, field in
            let text = String(decoding: field, as: UTF8.self).trimmingASCIIWhitespace
            guard let value = Float(text), value.isFinite else {
                let shown = text.count > 32 ? "\(text.prefix(32))…" : text
                throw TensorIOError.invalidDetectionOption(
                    "line \(lineNumber), value \(position + 1): \"\(shown)\" is not a finite number", at: location
                )
            }
            return value
        }
        return Sigmoid(scale: values[0], slope: values[1], offset: values[2], minScore: values.count == 4 ? values[3] : nil)
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs, as `absl::SimpleAtof` skips them.
    var trimmingASCIIWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
