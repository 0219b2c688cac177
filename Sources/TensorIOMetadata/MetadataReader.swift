import TensorIOModelFile
import TensorIOSupport

/// Reads a `TFLITE_METADATA` buffer into ``TFLiteMetadata``: checks its identifier and structure first,
/// then reads each field with ``FlatBufferReader``, counting what it builds against the bounds
/// ``TFLiteMetadata`` documents.
struct MetadataReader {
    private typealias Schema = MetadataSchema
    private typealias Table = FlatBufferReader.Table

    private let reader: FlatBufferReader
    private let fileName: String
    private var tensorCount = 0
    private var fileNames: [String] = []
    private var seenFileNames: Set<String> = []

    /// Checks `buffer`'s identifier and structure.
    ///
    /// - Throws: ``ModelFileError`` (``ModelFileErrorKind/invalidModelFile``) when it is not a sound
    ///   metadata buffer.
    init(_ buffer: UnsafeRawBufferPointer, fileName: String) throws {
        self.fileName = fileName
        reader = FlatBufferReader(buffer)
        try FlatBufferIdentityCheck.check(buffer, as: Schema.self, what: "metadata", entry: TFLiteMetadata.metadataName, fileName: fileName)
    }

    /// The error for a problem at `path` inside the metadata (empty for the whole buffer).
    private func invalid(_ path: String, _ message: String) -> ModelFileError {
        FlatBufferIdentityCheck.invalid(fileName: fileName, entry: TFLiteMetadata.metadataName, path, message)
    }

    private func overLimit(_ path: String, _ message: String) -> ModelFileError {
        let place = path.isEmpty ? "" : "\(path): "
        return ModelFileError(.limitExceeded, "\(fileName): \(TFLiteMetadata.metadataName): \(place)\(message)")
    }

    /// Reads the whole buffer.
    mutating func read() throws -> TFLiteMetadata {
        do {
            return try readModel()
        } catch let failure as FlatBufferReader.Failure {
            // The structural pass checked everything read here, so this is not expected; it still must
            // not escape as anything but a model-file error.
            throw invalid("", failure.message)
        }
    }

    // MARK: Tables

    private mutating func readModel() throws -> TFLiteMetadata {
        let root = try reader.table(at: reader.rootPosition())
        typealias Fields = Schema.ModelMetadata
        var metadata = TFLiteMetadata()
        metadata.name = try string(root, Fields.name, "name")
        metadata.description = try string(root, Fields.description, "description")
        metadata.version = try string(root, Fields.version, "version")
        metadata.author = try string(root, Fields.author, "author")
        metadata.license = try string(root, Fields.license, "license")
        metadata.minParserVersion = try string(root, Fields.minParserVersion, "min_parser_version")
        metadata.subgraphs = try tables(root, Fields.subgraphMetadata, "subgraph_metadata").map {
            try readSubgraph($0.table, path: $0.path)
        }
        metadata.associatedFiles = try associatedFiles(root, Fields.associatedFiles, "associated_files")
        metadata.associatedFileNames = fileNames
        return metadata
    }

    private mutating func readSubgraph(_ table: Table, path: String) throws -> TFLiteMetadata.SubgraphMetadata {
        typealias Fields = Schema.SubGraphMetadata
        var subgraph = TFLiteMetadata.SubgraphMetadata()
        subgraph.name = try string(table, Fields.name, "\(path).name")
        subgraph.description = try string(table, Fields.description, "\(path).description")
        subgraph.inputs = try tables(table, Fields.inputTensorMetadata, "\(path).input_tensor_metadata").map {
            try readTensor($0.table, path: $0.path)
        }
        subgraph.outputs = try tables(table, Fields.outputTensorMetadata, "\(path).output_tensor_metadata").map {
            try readTensor($0.table, path: $0.path)
        }
        subgraph.associatedFiles = try associatedFiles(table, Fields.associatedFiles, "\(path).associated_files")
        subgraph.inputProcessUnits = try processUnits(table, Fields.inputProcessUnits, "\(path).input_process_units")
        subgraph.outputProcessUnits = try processUnits(table, Fields.outputProcessUnits, "\(path).output_process_units")
        subgraph.inputTensorGroups = try tensorGroups(table, Fields.inputTensorGroups, "\(path).input_tensor_groups")
        subgraph.outputTensorGroups = try tensorGroups(table, Fields.outputTensorGroups, "\(path).output_tensor_groups")
        subgraph.customMetadata = try tables(table, Fields.customMetadata, "\(path).custom_metadata").map { custom, path in
            let data = try reader.vector(custom, slot: Schema.CustomMetadata.data, elementByteCount: 1)
            guard (data?.count ?? 0) <= TFLiteMetadata.maximumCustomDataBytes else {
                throw overLimit("\(path).data", "the data has \(data?.count ?? 0) bytes, more than \(TFLiteMetadata.maximumCustomDataBytes) (TFLiteMetadata.maximumCustomDataBytes)")
            }
            return TFLiteMetadata.SubgraphMetadata.CustomMetadata(
                name: try string(custom, Schema.CustomMetadata.name, "\(path).name"),
                data: try data.map { Array(try reader.slice(start: $0.start, count: $0.count)) } ?? [])
        }
        return subgraph
    }

    private func tensorGroups(_ table: Table, _ slot: Int, _ path: String) throws -> [TFLiteMetadata.SubgraphMetadata.TensorGroup] {
        try tables(table, slot, path).map { group, path in
            TFLiteMetadata.SubgraphMetadata.TensorGroup(
                name: try string(group, Schema.TensorGroup.name, "\(path).name"),
                tensorNames: try strings(group, Schema.TensorGroup.tensorNames, "\(path).tensor_names"))
        }
    }

    private mutating func readTensor(_ table: Table, path: String) throws -> TFLiteMetadata.TensorMetadata {
        tensorCount += 1
        guard tensorCount <= TFLiteMetadata.maximumTensorCount else {
            throw overLimit(path, "the metadata describes more than \(TFLiteMetadata.maximumTensorCount) tensors (TFLiteMetadata.maximumTensorCount)")
        }
        typealias Fields = Schema.TensorMetadata
        var tensor = TFLiteMetadata.TensorMetadata()
        tensor.name = try string(table, Fields.name, "\(path).name")
        tensor.description = try string(table, Fields.description, "\(path).description")
        tensor.dimensionNames = try strings(table, Fields.dimensionNames, "\(path).dimension_names")
        if let content = try reader.table(table, slot: Fields.content) {
            (tensor.content, tensor.contentRange) = try readContent(content, path: "\(path).content")
        }
        tensor.processUnits = try processUnits(table, Fields.processUnits, "\(path).process_units")
        if let stats = try reader.table(table, slot: Fields.stats) {
            tensor.stats = TFLiteMetadata.TensorMetadata.Stats(
                min: try floats(stats, Schema.Stats.min, "\(path).stats.min"),
                max: try floats(stats, Schema.Stats.max, "\(path).stats.max"))
        }
        tensor.associatedFiles = try associatedFiles(table, Fields.associatedFiles, "\(path).associated_files")
        return tensor
    }

    private func readContent(
        _ table: Table, path: String
    ) throws -> (TFLiteMetadata.ContentProperties?, TFLiteMetadata.TensorMetadata.DimensionRange?) {
        typealias Fields = Schema.Content
        var range: TFLiteMetadata.TensorMetadata.DimensionRange?
        if let rangeTable = try reader.table(table, slot: Fields.range) {
            range = .init(
                min: try reader.scalar(rangeTable, slot: Schema.ValueRange.min, default: Int32(0)),
                max: try reader.scalar(rangeTable, slot: Schema.ValueRange.max, default: Int32(0)))
        }
        let type = try reader.scalar(table, slot: Fields.contentPropertiesType, default: UInt8(0))
        guard type != 0, let properties = try reader.table(table, slot: Fields.contentProperties) else {
            return (nil, range)
        }
        let members = Schema.ContentProperties.self
        switch type {
        case members.featureProperties:
            return (.feature, range)
        case members.imageProperties:
            typealias Image = Schema.ImageProperties
            let space: TFLiteMetadata.ImageProperties.ColorSpace
            switch Int64(try reader.scalar(properties, slot: Image.colorSpace, default: Int8(0))) {
            case Schema.ColorSpaceType.rgb: space = .rgb
            case Schema.ColorSpaceType.grayscale: space = .grayscale
            default: space = .unknown
            }
            var size: TFLiteMetadata.ImageProperties.Size?
            if let sizeTable = try reader.table(properties, slot: Image.defaultSize) {
                size = .init(
                    width: try reader.scalar(sizeTable, slot: Schema.ImageSize.width, default: UInt32(0)),
                    height: try reader.scalar(sizeTable, slot: Schema.ImageSize.height, default: UInt32(0)))
            }
            return (.image(.init(colorSpace: space, defaultSize: size)), range)
        case members.boundingBoxProperties:
            typealias Box = Schema.BoundingBoxProperties
            let index = try scalars(properties, Box.index, "\(path).content_properties.index", as: UInt32.self)
            let boxType: TFLiteMetadata.BoundingBoxProperties.BoxType
            switch Int64(try reader.scalar(properties, slot: Box.type, default: Int8(0))) {
            case Schema.BoundingBoxType.boundaries: boxType = .boundaries
            case Schema.BoundingBoxType.upperLeft: boxType = .upperLeft
            case Schema.BoundingBoxType.center: boxType = .center
            default: boxType = .unknown
            }
            let coordinates = Int64(try reader.scalar(properties, slot: Box.coordinateType, default: Int8(0)))
            return (.boundingBox(.init(
                index: index, type: boxType,
                coordinateType: coordinates == Schema.CoordinateType.ratio ? .ratio : .pixel)), range)
        case members.audioProperties:
            typealias Audio = Schema.AudioProperties
            return (.audio(.init(
                sampleRate: try reader.scalar(properties, slot: Audio.sampleRate, default: UInt32(0)),
                channels: try reader.scalar(properties, slot: Audio.channels, default: UInt32(0)))), range)
        default:
            return (.unknown(type: type), range)
        }
    }

    private mutating func processUnits(_ table: Table, _ slot: Int, _ path: String) throws -> [TFLiteMetadata.ProcessUnit] {
        try tables(table, slot, path).map { try readProcessUnit($0.table, path: $0.path) }
    }

    private mutating func readProcessUnit(_ table: Table, path: String) throws -> TFLiteMetadata.ProcessUnit {
        typealias Fields = Schema.ProcessUnit
        let type = try reader.scalar(table, slot: Fields.optionsType, default: UInt8(0))
        guard type != 0, let options = try reader.table(table, slot: Fields.options) else {
            return .other(name: "NONE")
        }
        let members = Schema.ProcessUnitOptions.self
        let path = "\(path).options"
        switch type {
        case members.normalizationOptions:
            let mean = try floats(options, Schema.NormalizationOptions.mean, "\(path).mean")
            let std = try floats(options, Schema.NormalizationOptions.std, "\(path).std")
            return .normalization(mean: mean, std: std)
        case members.scoreCalibrationOptions:
            typealias Calibration = Schema.ScoreCalibrationOptions
            let transformation: TFLiteMetadata.ScoreTransformation
            switch Int64(try reader.scalar(options, slot: Calibration.scoreTransformation, default: Int8(0))) {
            case Schema.ScoreTransformationType.log: transformation = .log
            case Schema.ScoreTransformationType.inverseLogistic: transformation = .inverseLogistic
            default: transformation = .identity
            }
            let score = try float(options, Calibration.defaultScore)
            return .scoreCalibration(transformation: transformation, defaultScore: score)
        case members.scoreThresholdingOptions:
            return .scoreThresholding(globalThreshold: try float(options, Schema.ScoreThresholdingOptions.globalScoreThreshold))
        case members.bertTokenizerOptions:
            return .bertTokenizer(vocabularyFiles: try associatedFiles(options, Schema.BertTokenizerOptions.vocabFile, "\(path).vocab_file"))
        case members.sentencePieceTokenizerOptions:
            typealias SentencePiece = Schema.SentencePieceTokenizerOptions
            return .sentencePieceTokenizer(
                modelFiles: try associatedFiles(options, SentencePiece.sentencePieceModel, "\(path).sentencePiece_model"),
                vocabularyFiles: try associatedFiles(options, SentencePiece.vocabFile, "\(path).vocab_file")
            )
        case members.regexTokenizerOptions:
            typealias Regex = Schema.RegexTokenizerOptions
            return .regexTokenizer(
                pattern: try string(options, Regex.delimRegexPattern, "\(path).delim_regex_pattern") ?? "",
                vocabularyFiles: try associatedFiles(options, Regex.vocabFile, "\(path).vocab_file")
            )
        default:
            return .other(name: "options type \(type)")
        }
    }

    private mutating func associatedFiles(_ table: Table, _ slot: Int, _ path: String) throws -> [TFLiteMetadata.AssociatedFile] {
        var files: [TFLiteMetadata.AssociatedFile] = []
        for (file, path) in try tables(table, slot, path) {
            typealias Fields = Schema.AssociatedFile
            guard let name = try string(file, Fields.name, "\(path).name"), !name.isEmpty else {
                throw invalid(path, "the associated file has no name")
            }
            if seenFileNames.insert(name).inserted {
                guard fileNames.count < TFLiteMetadata.maximumAssociatedFileCount else {
                    throw overLimit(path, "the metadata names more than \(TFLiteMetadata.maximumAssociatedFileCount) associated files (TFLiteMetadata.maximumAssociatedFileCount)")
                }
                fileNames.append(name)
            }
            files.append(TFLiteMetadata.AssociatedFile(
                name: name,
                description: try string(file, Fields.description, "\(path).description"),
                type: .init(rawValue: try reader.scalar(file, slot: Fields.type, default: Int8(0))),
                locale: try string(file, Fields.locale, "\(path).locale"),
                version: try string(file, Fields.version, "\(path).version")))
        }
        return files
    }

    // MARK: Fields

    /// The tables of the vector in field `slot`, with their paths; empty when absent.
    private func tables(_ table: Table, _ slot: Int, _ path: String) throws -> [(table: Table, path: String)] {
        guard let vector = try reader.vector(table, slot: slot, elementByteCount: 4) else { return [] }
        try checkCount(vector.count, path)
        return try (0..<vector.count).map { (try reader.table(in: vector, at: $0), "\(path)[\($0)]") }
    }

    private func checkCount(_ count: Int, _ path: String) throws {
        guard count <= TFLiteMetadata.maximumListCount else {
            throw overLimit(path, "the list has \(count) elements, more than \(TFLiteMetadata.maximumListCount) (TFLiteMetadata.maximumListCount)")
        }
    }

    private func string(_ table: Table, _ slot: Int, _ path: String) throws -> String? {
        guard let position = try reader.fieldPosition(table, slot: slot, byteCount: 4) else { return nil }
        return try string(offsetAt: position, path)
    }

    private func string(offsetAt position: Int, _ path: String) throws -> String {
        let bytes = try reader.string(offsetAt: position)
        guard bytes.count <= TFLiteMetadata.maximumStringBytes else {
            throw overLimit(path, "the string has \(bytes.count) bytes, more than \(TFLiteMetadata.maximumStringBytes) (TFLiteMetadata.maximumStringBytes)")
        }
        // Invalid UTF-8 is replaced rather than refused: these are names and descriptions for people.
        return String(decoding: bytes, as: UTF8.self)
    }

    private func strings(_ table: Table, _ slot: Int, _ path: String) throws -> [String] {
        guard let vector = try reader.vector(table, slot: slot, elementByteCount: 4) else { return [] }
        try checkCount(vector.count, path)
        return try (0..<vector.count).map { try string(offsetAt: vector.position(of: $0), "\(path)[\($0)]") }
    }

    private func scalars<T: FixedWidthInteger>(_ table: Table, _ slot: Int, _ path: String, as type: T.Type) throws -> [T] {
        guard let vector = try reader.vector(table, slot: slot, elementByteCount: MemoryLayout<T>.size) else { return [] }
        try checkCount(vector.count, path)
        return try (0..<vector.count).map { try reader.element(T.self, in: vector, at: $0) }
    }

    private func floats(_ table: Table, _ slot: Int, _ path: String) throws -> [Float] {
        try scalars(table, slot, path, as: UInt32.self).map(Float.init(bitPattern:))
    }

    private func float(_ table: Table, _ slot: Int) throws -> Float {
        Float(bitPattern: try reader.scalar(table, slot: slot, default: UInt32(0)))
    }
}
