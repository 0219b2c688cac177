extension TFLiteMetadata {
    /// A file the metadata refers to, packed into the zip archive appended to the `.tflite` file (see
    /// ``ModelAttachments``): a label list, a vocabulary, score-calibration parameters.
    package struct AssociatedFile: Sendable, Hashable {
        /// What the file holds, as the metadata schema's `AssociatedFileType` says.
        package enum FileType: Sendable, Hashable {
            /// Human-readable descriptions, such as a README.
            case descriptions
            /// One label per line, naming the positions along an axis of the tensor (the classes of a
            /// classifier's scores).
            case tensorAxisLabels
            /// One label per line, naming the values of the tensor (the class indices a detector outputs).
            case tensorValueLabels
            /// Sigmoid score-calibration parameters, one CSV line per index of the tensor.
            case tensorAxisScoreCalibration
            /// A vocabulary for tokenizers, one entry per line.
            case vocabulary
            /// An on-device ScaNN index (LevelDB format).
            case scannIndexFile
            /// `UNKNOWN` (0), or a value this reader does not know (from a newer schema): the raw value.
            case unknown(Int8)

            init(rawValue: Int8) {
                switch Int64(rawValue) {
                case MetadataSchema.AssociatedFileType.descriptions: self = .descriptions
                case MetadataSchema.AssociatedFileType.tensorAxisLabels: self = .tensorAxisLabels
                case MetadataSchema.AssociatedFileType.tensorValueLabels: self = .tensorValueLabels
                case MetadataSchema.AssociatedFileType.tensorAxisScoreCalibration: self = .tensorAxisScoreCalibration
                case MetadataSchema.AssociatedFileType.vocabulary: self = .vocabulary
                case MetadataSchema.AssociatedFileType.scannIndexFile: self = .scannIndexFile
                default: self = .unknown(rawValue)
                }
            }
        }

        /// The file's name in the appended zip archive.
        package var name: String
        /// What the file is, in the model author's words.
        package var description: String?
        /// What the file holds.
        package var type: FileType
        /// The language of the file's contents, such as `en` or `en-US`, when the model has several
        /// translations of one label list.
        package var locale: String?
        /// The file's version, as the model author gives it (schema 1.4.1 and later).
        package var version: String?

        /// Creates an associated file description.
        package init(name: String, description: String? = nil, type: FileType, locale: String? = nil, version: String? = nil) {
            self.name = name
            self.description = description
            self.type = type
            self.locale = locale
            self.version = version
        }
    }
}
