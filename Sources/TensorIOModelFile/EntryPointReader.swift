/// Reads ``TFLiteEntryPoints`` from a verified model's FlatBuffer.
struct EntryPointReader {
    private typealias Schema = TFLiteSchema
    private typealias Table = FlatBufferReader.Table

    let reader: FlatBufferReader
    let fileName: String
    /// The signatures to take, best first, when the model has them.
    var preferredSignatures = ["serving_default"]
    /// Signatures never taken as the fallback "first" one (a trainable model's `train`, `save`, …).
    var excludedSignatures: Set<String> = []
    /// Whether a signature's tensors come in its subgraph's `inputs` and `outputs` order, as LiteRT lists
    /// them, rather than in the signature's own order (alphabetical, as converters write it).
    var subgraphOrder = false

    func read() throws -> TFLiteEntryPoints {
        let model = try reader.table(at: reader.rootPosition())
        guard let subgraphs = try reader.vector(model, slot: Schema.Model.subgraphs, elementByteCount: 4), subgraphs.count > 0 else {
            throw TFLiteModelVerifier.invalid(fileName, "subgraphs", "the model has no subgraph")
        }
        let main = try reader.table(in: subgraphs, at: 0)
        let mainInputs = try indices(main, Schema.SubGraph.inputs)
        let mainOutputs = try indices(main, Schema.SubGraph.outputs)

        guard let signature = try chosenSignature(model) else {
            return TFLiteEntryPoints(
                signatureKey: nil, subgraphIndex: 0,
                inputs: try mainInputs.enumerated().map { try tensor(in: main, at: $0.element, name: nil, path: "subgraphs[0].inputs[\($0.offset)]") },
                outputs: try markingSizedByOperator(
                    mainOutputs.enumerated().map { try tensor(in: main, at: $0.element, name: nil, path: "subgraphs[0].outputs[\($0.offset)]") },
                    subgraph: main, model: model),
                mainSubgraphInputs: mainInputs, mainSubgraphOutputs: mainOutputs)
        }
        let (table, index, key) = signature
        let subgraphIndex = Int(try reader.scalar(table, slot: Schema.SignatureDef.subgraphIndex, default: UInt32(0)))
        guard subgraphIndex < subgraphs.count else {
            throw TFLiteModelVerifier.invalid(fileName, "signature_defs[\(index)].subgraph_index", "subgraph \(subgraphIndex) does not exist")
        }
        let subgraph = try reader.table(in: subgraphs, at: subgraphIndex)
        var inputs = try maps(table, Schema.SignatureDef.inputs, subgraph: subgraph, path: "signature_defs[\(index)].inputs")
        var outputs = try maps(table, Schema.SignatureDef.outputs, subgraph: subgraph, path: "signature_defs[\(index)].outputs")
        if subgraphOrder {
            inputs = try ordered(inputs, by: indices(subgraph, Schema.SubGraph.inputs))
            outputs = try ordered(outputs, by: indices(subgraph, Schema.SubGraph.outputs))
        }
        return TFLiteEntryPoints(
            signatureKey: key, subgraphIndex: subgraphIndex, inputs: inputs,
            outputs: try markingSizedByOperator(outputs, subgraph: subgraph, model: model),
            mainSubgraphInputs: mainInputs, mainSubgraphOutputs: mainOutputs)
    }

    /// `outputs` with ``TFLiteEntryPoints/Tensor/isSizedByOperator`` set on the shapeless ones a custom
    /// operator writes.
    private func markingSizedByOperator(_ outputs: [TFLiteEntryPoints.Tensor], subgraph: Table, model: Table) throws -> [TFLiteEntryPoints.Tensor] {
        let shapeless = Set(outputs.filter(\.shape.isEmpty).map(\.tensorIndex))
        guard !shapeless.isEmpty,
              let operators = try reader.vector(subgraph, slot: Schema.SubGraph.operators, elementByteCount: 4),
              let codes = try reader.vector(model, slot: Schema.Model.operatorCodes, elementByteCount: 4)
        else { return outputs }
        var written: Set<Int> = []
        for index in 0..<operators.count {
            let op = try reader.table(in: operators, at: index)
            let opcode = Int(try reader.scalar(op, slot: Schema.Operator.opcodeIndex, default: UInt32(0)))
            guard opcode < codes.count else { continue }
            let code = try reader.table(in: codes, at: opcode)
            let deprecated = try reader.scalar(code, slot: Schema.OperatorCode.deprecatedBuiltinCode, default: Int8(0))
            let builtin = try reader.scalar(code, slot: Schema.OperatorCode.builtinCode, default: Int32(0))
            guard max(Int32(deprecated), builtin) == Self.customOperatorCode else { continue }
            for tensor in try indices(op, Schema.Operator.outputs) where shapeless.contains(tensor) {
                written.insert(tensor)
            }
        }
        return outputs.map { tensor in
            var tensor = tensor
            tensor.isSizedByOperator = written.contains(tensor.tensorIndex)
            return tensor
        }
    }

    /// TFLite's `BuiltinOperator.CUSTOM`.
    private static let customOperatorCode: Int32 = 32

    /// The first of ``preferredSignatures`` present, else the first signature not excluded; `nil`
    /// without signatures.
    private func chosenSignature(_ model: Table) throws -> (Table, Int, String)? {
        guard let signatures = try reader.vector(model, slot: Schema.Model.signatureDefs, elementByteCount: 4),
              signatures.count > 0
        else { return nil }
        var preferred: (rank: Int, signature: (Table, Int, String))?
        var first: (Table, Int, String)?
        for index in 0..<signatures.count {
            let table = try reader.table(in: signatures, at: index)
            let key = try reader.string(table, slot: Schema.SignatureDef.signatureKey) ?? ""
            if let rank = preferredSignatures.firstIndex(of: key), rank < (preferred?.rank ?? .max) {
                preferred = (rank, (table, index, key))
            }
            if first == nil, !excludedSignatures.contains(key) { first = (table, index, key) }
        }
        return preferred?.signature ?? first
    }

    /// `tensors` sorted by their place in `order` (tensor indices); any not there keep their order, last.
    private func ordered(_ tensors: [TFLiteEntryPoints.Tensor], by order: [Int]) -> [TFLiteEntryPoints.Tensor] {
        tensors.enumerated().sorted { first, second in
            let a = order.firstIndex(of: first.element.tensorIndex) ?? order.count + first.offset
            let b = order.firstIndex(of: second.element.tensorIndex) ?? order.count + second.offset
            return a < b
        }.map(\.element)
    }

    private func indices(_ table: Table, _ slot: Int) throws -> [Int] {
        guard let vector = try reader.vector(table, slot: slot, elementByteCount: 4) else { return [] }
        return try (0..<vector.count).map { Int(try reader.element(Int32.self, in: vector, at: $0)) }
    }

    private func maps(_ signature: Table, _ slot: Int, subgraph: Table, path: String) throws -> [TFLiteEntryPoints.Tensor] {
        guard let vector = try reader.vector(signature, slot: slot, elementByteCount: 4) else { return [] }
        return try (0..<vector.count).map { index in
            let map = try reader.table(in: vector, at: index)
            let name = try reader.string(map, slot: Schema.TensorMap.name) ?? ""
            let tensorIndex = Int(try reader.scalar(map, slot: Schema.TensorMap.tensorIndex, default: UInt32(0)))
            return try tensor(in: subgraph, at: tensorIndex, name: name, path: "\(path)[\(index)]")
        }
    }

    private func tensor(in subgraph: Table, at index: Int, name: String?, path: String) throws -> TFLiteEntryPoints.Tensor {
        guard let tensors = try reader.vector(subgraph, slot: Schema.SubGraph.tensors, elementByteCount: 4),
              (0..<tensors.count).contains(index)
        else {
            throw TFLiteModelVerifier.invalid(fileName, path, "tensor \(index) does not exist")
        }
        let table = try reader.table(in: tensors, at: index)
        let tensorName = try reader.string(table, slot: Schema.Tensor.name) ?? ""
        let type = Int64(try reader.scalar(table, slot: Schema.Tensor.type, default: Int8(0)))
        var shape = try dimensions(table, Schema.Tensor.shapeSignature)
        if shape.isEmpty { shape = try dimensions(table, Schema.Tensor.shape) }
        return TFLiteEntryPoints.Tensor(
            name: name ?? tensorName, tensorName: tensorName, tensorIndex: index,
            typeName: Self.typeName(type), shape: shape, quantizationParameters: try quantization(table))
    }

    private func dimensions(_ tensor: Table, _ slot: Int) throws -> [Int] {
        guard let vector = try reader.vector(tensor, slot: slot, elementByteCount: 4) else { return [] }
        return try (0..<vector.count).map { Int(try reader.element(Int32.self, in: vector, at: $0)) }
    }

    private func quantization(_ tensor: Table) throws -> TFLiteEntryPoints.QuantizationParameters? {
        typealias Fields = Schema.QuantizationParameters
        guard let table = try reader.table(tensor, slot: Schema.Tensor.quantization),
              let scales = try reader.vector(table, slot: Fields.scale, elementByteCount: 4), scales.count > 0
        else { return nil }
        let scaleValues = try (0..<scales.count).map { Float(bitPattern: try reader.element(UInt32.self, in: scales, at: $0)) }
        var zeroPoints: [Int64] = []
        if let vector = try reader.vector(table, slot: Fields.zeroPoint, elementByteCount: 8) {
            zeroPoints = try (0..<vector.count).map { try reader.element(Int64.self, in: vector, at: $0) }
        }
        if scaleValues.count == 1 {
            // A scale of 0 is how converters mark a float tensor that carries no quantization.
            guard scaleValues[0] != 0 else { return nil }
            return TFLiteEntryPoints.QuantizationParameters(scales: scaleValues, zeroPoints: zeroPoints, dimension: 0)
        }
        let dimension = Int(try reader.scalar(table, slot: Fields.quantizedDimension, default: Int32(0)))
        return TFLiteEntryPoints.QuantizationParameters(scales: scaleValues, zeroPoints: zeroPoints, dimension: dimension)
    }

    private static func typeName(_ type: Int64) -> String {
        let names = ["float32", "float16", "int32", "uint8", "int64", "string", "bool", "int16", "complex64", "int8",
                     "float64", "complex128", "uint64", "resource", "variant", "uint32", "uint16", "int4", "bfloat16"]
        return names.indices.contains(Int(type)) ? names[Int(type)] : "type \(type)"
    }
}
