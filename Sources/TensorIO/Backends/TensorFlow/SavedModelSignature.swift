internal import CTensorFlow
package import Foundation

/// A SavedModel's signature as `saved_model.pb` declares it (`saved_model_cli show` shows the same),
/// read without the TensorFlow runtime: what a bundle inferred from a bare SavedModel folder starts from.
///
/// Protocol-buffer field numbers (tensorflow/core/protobuf): `SavedModel.meta_graphs` 2;
/// `MetaGraphDef.meta_info_def` 1 (`MetaInfoDef.tags` 4) and `signature_def` 5, a map whose entries hold
/// the key in 1 and the value in 2; `SignatureDef.inputs` 1 and `outputs` 2, maps to `TensorInfo`
/// (`name` 1, `dtype` 2, `tensor_shape` 3, whose `dim` 2 holds `size` 1 and `unknown_rank` is 3).
package struct SavedModelSignature: Sendable, Hashable {
    /// One input or output of the signature.
    package struct Tensor: Sendable, Hashable {
        /// The signature's key for it (`x`, `output_0`, …).
        package var key: String
        /// The graph tensor it names (`serving_default_x:0`).
        package var tensorName: String
        /// The name a layer binds to: the operation's name, with `:0` left out.
        package var layerName: String {
            tensorName.hasSuffix(":0") ? String(tensorName.dropLast(2)) : tensorName
        }
        /// The element type, or `nil` when TensorIO has no such type (see ``typeName``).
        package var dataType: DataType?
        /// The element type's name (`float32`, `string`, …).
        package var typeName: String
        /// The shape, `-1` where unknown; `nil` when not even the rank is known.
        package var shape: [Int]?
    }

    /// The signature's key (`serving_default`).
    package var key: String
    /// The tags of the meta graph it belongs to.
    package var tags: [String]
    /// The inputs, by key in alphabetical order (a signature is a map: it has no order of its own).
    package var inputs: [Tensor]
    /// The outputs, by key in alphabetical order.
    package var outputs: [Tensor]

    /// The most inputs plus outputs a signature may have.
    package static let maximumTensorCount = 4096

    /// Reads the signature `key` of the meta graph tagged `tag` from the SavedModel folder `directory`.
    ///
    /// - Parameters:
    ///   - directory: A SavedModel folder (holding `saved_model.pb`).
    ///   - tag: The meta graph's tag; `serve` is the one prediction loads.
    ///   - key: The signature's key.
    ///   - limits: ``ModelLimits/maximumModelFileBytes`` bounds `saved_model.pb`.
    /// - Returns: The signature.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidModelFile``, location `model.file`) when the
    ///   folder has no readable `saved_model.pb`, it is not a valid protocol buffer, or it has no such
    ///   meta graph or signature (the message lists those it has).
    package static func read(
        savedModelAt directory: URL, tag: String = "serve", key: String = "serving_default",
        limits: ModelLimits = ModelLimits()
    ) throws -> SavedModelSignature {
        let name = directory.lastPathComponent
        let file = directory.appendingPathComponent("saved_model.pb")
        guard case .regularFile = UntrustedFile.kind(of: file) else {
            throw invalid("\(name) has no saved_model.pb: it is not a TensorFlow SavedModel folder")
        }
        let data = try UntrustedFile.read(
            file, limit: limits.maximumModelFileBytes, name: "\(name)/saved_model.pb", limitName: "maximumModelFileBytes"
        )
        return try data.withUnsafeBytes { bytes in
            try read(savedModel: bytes, name: name, tag: tag, key: key)
        }
    }

    static func read(savedModel bytes: UnsafeRawBufferPointer, name: String, tag: String, key: String) throws -> SavedModelSignature {
        let damaged = invalid("\(name)/saved_model.pb is not a valid SavedModel: its protocol buffer is damaged")
        guard let metaGraphs = ProtobufReader.lengthDelimitedFields(2, in: bytes) else { throw damaged }
        var tagsFound: [[String]] = []
        for metaGraph in metaGraphs {
            var tags: [UnsafeRawBufferPointer] = []
            if let info = ProtobufReader.lengthDelimitedField(1, in: metaGraph) {
                guard let found = ProtobufReader.lengthDelimitedFields(4, in: info) else { throw damaged }
                tags = found
            }
            let tagNames = tags.map(Self.string)
            tagsFound.append(tagNames)
            guard tagNames.contains(tag) else { continue }
            guard let entries = ProtobufReader.lengthDelimitedFields(5, in: metaGraph) else { throw damaged }
            var keys: [String] = []
            for entry in entries {
                guard let entryKey = ProtobufReader.lengthDelimitedField(1, in: entry).map(Self.string) else { throw damaged }
                keys.append(entryKey)
                guard entryKey == key else { continue }
                let definition = ProtobufReader.lengthDelimitedField(2, in: entry) ?? UnsafeRawBufferPointer(start: nil, count: 0)
                guard let inputs = try tensors(in: definition, field: 1, damaged: damaged),
                      let outputs = try tensors(in: definition, field: 2, damaged: damaged)
                else { throw damaged }
                guard inputs.count + outputs.count <= maximumTensorCount else {
                    throw TensorIOError(
                        .limitExceeded,
                        "\(name)/saved_model.pb: the signature \"\(key)\" has \(inputs.count + outputs.count) tensors, more than \(maximumTensorCount)",
                        location: "model.file"
                    )
                }
                return SavedModelSignature(key: key, tags: tagNames, inputs: inputs, outputs: outputs)
            }
            throw invalid("\(name): the meta graph tagged \"\(tag)\" has no signature \"\(key)\" (signatures: \(keys.isEmpty ? "none" : keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")))")
        }
        let found = tagsFound.map { "[\($0.joined(separator: ", "))]" }.joined(separator: ", ")
        throw invalid("\(name) has no meta graph tagged \"\(tag)\" (tags: \(found.isEmpty ? "none" : found))")
    }

    /// The tensors of map field `field` of a `SignatureDef`, sorted by key.
    private static func tensors(in definition: UnsafeRawBufferPointer, field: UInt64, damaged: TensorIOError) throws -> [Tensor]? {
        guard let entries = ProtobufReader.lengthDelimitedFields(field, in: definition) else { return nil }
        guard entries.count <= maximumTensorCount else { return nil }
        var tensors: [Tensor] = []
        for entry in entries {
            guard let key = ProtobufReader.lengthDelimitedField(1, in: entry).map(string),
                  let info = ProtobufReader.lengthDelimitedField(2, in: entry),
                  let tensorName = ProtobufReader.lengthDelimitedField(1, in: info).map(string)
            else { throw damaged }
            let code = ProtobufReader.varintField(2, in: info) ?? 0
            let type = TF_DataType(truncatingIfNeeded: code)
            var shape: [Int]?
            if let shapeProto = ProtobufReader.lengthDelimitedField(3, in: info),
               ProtobufReader.varintField(3, in: shapeProto) != 1
            {
                guard let dims = ProtobufReader.lengthDelimitedFields(2, in: shapeProto), dims.count <= 64 else { throw damaged }
                // int64 sizes: -1 (unknown) is stored as a ten-byte varint, its two's complement.
                shape = dims.map { dim in
                    let size = Int64(bitPattern: ProtobufReader.varintField(1, in: dim) ?? 0)
                    return size < 0 ? -1 : Int(clamping: size)
                }
            }
            tensors.append(Tensor(
                key: key, tensorName: tensorName, dataType: DataType(tensorFlowType: type),
                typeName: DataType.tensorFlowTypeName(type), shape: shape
            ))
        }
        return tensors.sorted { $0.key < $1.key }
    }

    private static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func invalid(_ message: String) -> TensorIOError {
        TensorIOError(.invalidModelFile, message, location: "model.file")
    }
}
