import TensorIOSupport

/// The semantic half of ``TFLiteModelVerifier``: indices, shapes, sizes and quantization, read from a
/// buffer whose structure ``FlatBufferStructureVerifier`` has already checked.
///
/// Reads still go through ``FlatBufferReader``'s checked accessors, so a gap between the two passes
/// would surface as an error, never as an out-of-bounds read.
struct TFLiteSemanticVerifier {
    private typealias Schema = TFLiteSchema
    private typealias Table = FlatBufferReader.Table

    let reader: FlatBufferReader
    let limits: TFLiteModelVerifier.Limits
    let fileName: String

    /// Bytes of data each buffer holds (inside the FlatBuffer or after it).
    private var bufferByteCounts: [Int] = []
    /// Tensors in each subgraph.
    private var tensorCounts: [Int] = []
    /// Each subgraph's input and output tensor indices, which signatures must name.
    private var subgraphInputs: [[Int32]] = []
    private var subgraphOutputs: [[Int32]] = []
    /// For each subgraph, the subgraphs its operators call (control flow, StableHLO bodies).
    private var calls: [[(callee: Int, path: String)]] = []

    init(reader: FlatBufferReader, limits: TFLiteModelVerifier.Limits, fileName: String) {
        self.reader = reader
        self.limits = limits
        self.fileName = fileName
    }

    mutating func check() throws -> TFLiteModelVerifier.Summary {
        let model = try reader.table(at: reader.rootPosition())
        var summary = TFLiteModelVerifier.Summary(byteCount: reader.byteCount)

        let operatorCodes = try reader.vector(model, slot: Schema.Model.operatorCodes, elementByteCount: 4)
        summary.operatorCodeCount = operatorCodes?.count ?? 0
        if let operatorCodes {
            for index in 0..<operatorCodes.count {
                try checkOperatorCode(reader.table(in: operatorCodes, at: index), path: "operator_codes[\(index)]")
            }
        }

        guard let buffers = try reader.vector(model, slot: Schema.Model.buffers, elementByteCount: 4) else {
            throw invalid("", "the model has no buffers vector")
        }
        summary.bufferCount = buffers.count
        bufferByteCounts.reserveCapacity(buffers.count)
        for index in 0..<buffers.count {
            bufferByteCounts.append(try checkBuffer(reader.table(in: buffers, at: index), path: "buffers[\(index)]"))
        }

        guard let subgraphs = try reader.vector(model, slot: Schema.Model.subgraphs, elementByteCount: 4),
              subgraphs.count > 0
        else {
            throw invalid("", "the model has no subgraphs")
        }
        summary.subgraphCount = subgraphs.count
        // Counted first: operators and signatures refer to other subgraphs' tensors and to subgraphs
        // later in the vector.
        for index in 0..<subgraphs.count {
            let subgraph = try reader.table(in: subgraphs, at: index)
            tensorCounts.append(try reader.vector(subgraph, slot: Schema.SubGraph.tensors, elementByteCount: 4)?.count ?? 0)
        }
        calls = Array(repeating: [], count: subgraphs.count)
        for index in 0..<subgraphs.count {
            let counts = try checkSubgraph(reader.table(in: subgraphs, at: index), index: index, operatorCodeCount: summary.operatorCodeCount)
            summary.tensorCount += counts.tensors
            summary.operatorCount += counts.operators
        }
        try checkCallsAreAcyclic()

        if let signatures = try reader.vector(model, slot: Schema.Model.signatureDefs, elementByteCount: 4) {
            summary.signatureCount = signatures.count
            for index in 0..<signatures.count {
                try checkSignature(reader.table(in: signatures, at: index), path: "signature_defs[\(index)]")
            }
        }
        if summary.signatureCount == 0 {
            try checkDefaultSignatureNames(reader.table(in: subgraphs, at: 0))
        }

        if let metadataBuffers = try reader.vector(model, slot: Schema.Model.metadataBuffer, elementByteCount: 4) {
            for index in 0..<metadataBuffers.count {
                let buffer = try reader.element(Int32.self, in: metadataBuffers, at: index)
                try checkBufferIndex(Int(buffer), path: "metadata_buffer[\(index)]")
            }
        }
        if let metadata = try reader.vector(model, slot: Schema.Model.metadata, elementByteCount: 4) {
            for index in 0..<metadata.count {
                let entry = try reader.table(in: metadata, at: index)
                // The schema lets a name be left out, but LiteRT's loader (model_load.cc) reads every
                // entry's with `name()->str()`, never checking that it is there.
                guard try reader.fieldPosition(entry, slot: Schema.Metadata.name, byteCount: 4) != nil else {
                    throw invalid("metadata[\(index)].name", "the metadata entry has no name")
                }
                let buffer = try reader.scalar(entry, slot: Schema.Metadata.buffer, default: UInt32(0))
                try checkBufferIndex(Int(buffer), path: "metadata[\(index)].buffer")
            }
        }
        return summary
    }

    // MARK: Model-level tables

    private func checkOperatorCode(_ code: Table, path: @autoclosure () -> String) throws {
        let deprecated = try reader.scalar(code, slot: Schema.OperatorCode.deprecatedBuiltinCode, default: Int8(0))
        let builtin = try reader.scalar(code, slot: Schema.OperatorCode.builtinCode, default: Int32(0))
        // Readers take the larger of the two codes (the byte-sized one is kept for old readers).
        let effective = max(Int32(deprecated), builtin)
        guard effective >= 0 else {
            throw invalid(path(), "the builtin operator code \(effective) is negative")
        }
    }

    /// Checks external data and returns how many bytes the buffer holds.
    private func checkBuffer(_ buffer: Table, path: @autoclosure () -> String) throws -> Int {
        let offset = try reader.scalar(buffer, slot: Schema.Buffer.offset, default: UInt64(0))
        let size = try reader.scalar(buffer, slot: Schema.Buffer.size, default: UInt64(0))
        // The schema: "the offset is calculated relative to the beginning of the file and is only
        // valid if > 1"; readers then ignore `data`.
        if offset > 1 {
            try checkExternalRange(offset: offset, size: size, path: path())
            return Int(size)
        }
        return try reader.vector(buffer, slot: Schema.Buffer.data, elementByteCount: 1)?.count ?? 0
    }

    private func checkExternalRange(offset: UInt64, size: UInt64, path: @autoclosure () -> String) throws {
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= UInt64(reader.byteCount) else {
            throw invalid(path(), "the data stored outside the FlatBuffer (offset \(offset), \(size) bytes) runs past the end of the file (\(reader.byteCount) bytes)")
        }
    }

    private func checkBufferIndex(_ index: Int, path: @autoclosure () -> String) throws {
        guard bufferByteCounts.indices.contains(index) else {
            throw invalid(path(), "buffer \(index) is out of range (the model has \(bufferByteCounts.count) buffers)")
        }
    }

    private func checkSignature(_ signature: Table, path: @autoclosure () -> String) throws {
        let subgraph = Int(try reader.scalar(signature, slot: Schema.SignatureDef.subgraphIndex, default: UInt32(0)))
        guard tensorCounts.indices.contains(subgraph) else {
            throw invalid("\(path()).subgraph_index", "subgraph \(subgraph) is out of range (the model has \(tensorCounts.count) subgraphs)")
        }
        try checkSignatureSide(signature, slot: Schema.SignatureDef.inputs, side: "inputs", subgraph: subgraph, path: path())
        try checkSignatureSide(signature, slot: Schema.SignatureDef.outputs, side: "outputs", subgraph: subgraph, path: path())
    }

    /// Checks that a signature's `inputs` (or `outputs`) map each of its subgraph's inputs (outputs)
    /// exactly once, each under its own non-empty name.
    ///
    /// LiteRT looks each mapped tensor up among the subgraph's own inputs and outputs, and throws an
    /// uncaught C++ exception (aborting the process) when it is not there. It then names each input and
    /// output after the entry that maps it, while TFLite's signature runner keys the same entries by
    /// name; LiteRT asks the runner for every name and builds a std::string from the null it gets back
    /// for one the runner lacks: `basic_string::_M_construct null not valid`, uncaught, aborts the
    /// process. A tensor mapped twice leaves another unmapped, an absent name aborts while loading, an
    /// empty one makes LiteRT fall back to the tensor's name, which the runner does not know (the input
    /// is never bound), and a name used twice on one side leaves the runner one entry short.
    private func checkSignatureSide(_ signature: Table, slot: Int, side: String, subgraph: Int, path: @autoclosure () -> String) throws {
        let allowed = side == "inputs" ? subgraphInputs[subgraph] : subgraphOutputs[subgraph]
        let maps = try reader.vector(signature, slot: slot, elementByteCount: 4)
        func place(_ index: Int) -> String { "\(path()).\(side)[\(index)]" }
        if let maps {
            var mapped: [Int: Int] = [:]  // tensor -> the entry mapping it
            var names: [[UInt8]: Int] = [:]  // name -> the entry using it
            for index in 0..<maps.count {
                let map = try reader.table(in: maps, at: index)
                let tensor = Int(try reader.scalar(map, slot: Schema.TensorMap.tensorIndex, default: UInt32(0)))
                guard tensor < tensorCounts[subgraph] else {
                    throw invalid("\(place(index)).tensor_index", "tensor \(tensor) is out of range (subgraph \(subgraph) has \(tensorCounts[subgraph]) tensors)")
                }
                guard allowed.contains(Int32(tensor)) else {
                    throw invalid("\(place(index)).tensor_index", "tensor \(tensor) is not one of subgraph \(subgraph)'s \(side) \(allowed)")
                }
                if let other = mapped.updateValue(index, forKey: tensor) {
                    throw invalid("\(place(index)).tensor_index", "tensor \(tensor) is already mapped by \(side)[\(other)]; a signature must map each of subgraph \(subgraph)'s \(side) \(allowed) once")
                }
                guard let position = try reader.fieldPosition(map, slot: Schema.TensorMap.name, byteCount: 4) else {
                    throw invalid("\(place(index)).name", "the signature's \(side.dropLast()) has no name")
                }
                let text = Array(try reader.string(offsetAt: position))
                guard !text.isEmpty else {
                    throw invalid("\(place(index)).name", "the signature's \(side.dropLast()) has an empty name")
                }
                if let other = names.updateValue(index, forKey: text) {
                    throw invalid("\(place(index)).name", "the name \"\(String(decoding: text, as: UTF8.self))\" is already used by \(side)[\(other)]")
                }
            }
        }
        let count = maps?.count ?? 0
        guard count == allowed.count else {
            throw invalid("\(path()).\(side)", "the signature maps \(count) tensors but subgraph \(subgraph) has \(allowed.count) \(side) \(allowed); it must map each of them once")
        }
    }

    /// A model without signatures is run through the one LiteRT and TFLite make up from its main subgraph,
    /// with the input and output tensors' names as the signature's names: two inputs (or two outputs)
    /// with the same name make it abort the process as duplicate signature names do (see
    /// `checkSignatureSide`). Tensors without a name (or with an empty one) are left out: LiteRT runs such
    /// models.
    private func checkDefaultSignatureNames(_ main: Table) throws {
        guard let tensors = try reader.vector(main, slot: Schema.SubGraph.tensors, elementByteCount: 4) else { return }
        for (indices, side) in [(subgraphInputs[0], "inputs"), (subgraphOutputs[0], "outputs")] {
            var names: [[UInt8]: Int32] = [:]  // name -> the tensor that has it
            for tensor in indices {
                let table = try reader.table(in: tensors, at: Int(tensor))
                guard let position = try reader.fieldPosition(table, slot: Schema.Tensor.name, byteCount: 4) else { continue }
                let text = Array(try reader.string(offsetAt: position))
                guard !text.isEmpty else { continue }
                if let other = names.updateValue(tensor, forKey: text) {
                    let owner = other == tensor ? "tensor \(tensor) again" : "tensor \(other)"
                    throw invalid("subgraphs[0].tensors[\(tensor)].name", "the name \"\(String(decoding: text, as: UTF8.self))\" is also the name of \(owner) among subgraph 0's \(side); a model without signatures is run by these names, so they must differ")
                }
            }
        }
    }

    // MARK: Subgraphs

    private mutating func checkSubgraph(_ subgraph: Table, index: Int, operatorCodeCount: Int) throws -> (tensors: Int, operators: Int) {
        let path = { "subgraphs[\(index)]" }
        let tensorCount = tensorCounts[index]
        // Each tensor's constant data, in bytes (0 for a tensor the runtime allocates).
        var constantBytes: [Int] = []
        constantBytes.reserveCapacity(tensorCount)
        if let tensors = try reader.vector(subgraph, slot: Schema.SubGraph.tensors, elementByteCount: 4) {
            for tensor in 0..<tensors.count {
                let table = try reader.table(in: tensors, at: tensor)
                try checkTensor(table, path: "\(path()).tensors[\(tensor)]")
                constantBytes.append(bufferByteCounts[Int(try reader.scalar(table, slot: Schema.Tensor.buffer, default: UInt32(0)))])
            }
        }
        subgraphInputs.append(try checkTensorIndices(subgraph, slot: Schema.SubGraph.inputs, path: "\(path()).inputs", tensorCount: tensorCount, allowsOptional: false))
        subgraphOutputs.append(try checkTensorIndices(subgraph, slot: Schema.SubGraph.outputs, path: "\(path()).outputs", tensorCount: tensorCount, allowsOptional: false))

        guard let operators = try reader.vector(subgraph, slot: Schema.SubGraph.operators, elementByteCount: 4) else {
            return (tensorCount, 0)
        }
        if operators.count > 0, operatorCodeCount == 0 {
            throw invalid("operator_codes", "the model has operators but no operator codes")
        }
        for op in 0..<operators.count {
            let table = try reader.table(in: operators, at: op)
            try checkOperator(table, subgraph: index, path: "\(path()).operators[\(op)]",
                              tensorCount: tensorCount, operatorCodeCount: operatorCodeCount)
            // A tensor with constant data is read-only to LiteRT: it points into the mapped file (mapped
            // read-only), so an operator writing its output there crashes the process with SIGSEGV.
            for (position, tensor) in try checkTensorIndices(table, slot: Schema.Operator.outputs, path: "", tensorCount: tensorCount, allowsOptional: false).enumerated()
            where constantBytes.indices.contains(Int(tensor)) && constantBytes[Int(tensor)] > 0 {
                throw invalid("\(path()).operators[\(op)].outputs[\(position)]", "tensor \(tensor) holds constant data (\(constantBytes[Int(tensor)]) bytes), but this operator writes it; an operator's output cannot be a constant")
            }
        }
        return (tensorCount, operators.count)
    }

    /// Checks a vector of tensor indices and returns them.
    @discardableResult
    private func checkTensorIndices(_ table: Table, slot: Int, path: @autoclosure () -> String, tensorCount: Int, allowsOptional: Bool) throws -> [Int32] {
        guard let indices = try reader.vector(table, slot: slot, elementByteCount: 4) else { return [] }
        var tensors: [Int32] = []
        tensors.reserveCapacity(indices.count)
        for position in 0..<indices.count {
            let tensor = try reader.element(Int32.self, in: indices, at: position)
            tensors.append(tensor)
            if tensor == -1, allowsOptional { continue }
            guard tensor >= 0, Int(tensor) < tensorCount else {
                throw invalid("\(path())[\(position)]", "tensor \(tensor) is out of range (the subgraph has \(tensorCount) tensors)")
            }
        }
        return tensors
    }

    private mutating func checkOperator(_ op: Table, subgraph: Int, path: @autoclosure () -> String, tensorCount: Int, operatorCodeCount: Int) throws {
        let opcode = try reader.scalar(op, slot: Schema.Operator.opcodeIndex, default: UInt32(0))
        guard Int(opcode) < operatorCodeCount else {
            throw invalid("\(path()).opcode_index", "operator code \(opcode) is out of range (the model has \(operatorCodeCount) operator codes)")
        }
        // −1 marks an omitted optional input; outputs and intermediates must all exist.
        try checkTensorIndices(op, slot: Schema.Operator.inputs, path: "\(path()).inputs", tensorCount: tensorCount, allowsOptional: true)
        try checkTensorIndices(op, slot: Schema.Operator.outputs, path: "\(path()).outputs", tensorCount: tensorCount, allowsOptional: false)
        try checkTensorIndices(op, slot: Schema.Operator.intermediates, path: "\(path()).intermediates", tensorCount: tensorCount, allowsOptional: false)

        if let mutating = try reader.vector(op, slot: Schema.Operator.mutatingVariableInputs, elementByteCount: 1), mutating.count > 0 {
            let inputs = try reader.vector(op, slot: Schema.Operator.inputs, elementByteCount: 4)?.count ?? 0
            guard mutating.count == inputs else {
                throw invalid("\(path()).mutating_variable_inputs", "\(mutating.count) entries for \(inputs) inputs (the list must be empty or match the inputs)")
            }
        }
        let customOffset = try reader.scalar(op, slot: Schema.Operator.largeCustomOptionsOffset, default: UInt64(0))
        if customOffset > 1 {
            let size = try reader.scalar(op, slot: Schema.Operator.largeCustomOptionsSize, default: UInt64(0))
            try checkExternalRange(offset: customOffset, size: size, path: "\(path()).large_custom_options_offset")
        }
        try collectCalls(op, subgraph: subgraph, path: path())
    }

    // MARK: Subgraph calls

    /// The options fields that name a subgraph, by union member.
    private static let subgraphFields: [(union: Int, member: UInt8, table: Int, slots: [(Int, String)])] = [
        (Schema.Operator.builtinOptionsType, Schema.BuiltinOptions.callOptions, Schema.CallOptions.tableIndex,
         [(Schema.CallOptions.subgraph, "subgraph")]),
        (Schema.Operator.builtinOptionsType, Schema.BuiltinOptions.ifOptions, Schema.IfOptions.tableIndex,
         [(Schema.IfOptions.thenSubgraphIndex, "then_subgraph_index"), (Schema.IfOptions.elseSubgraphIndex, "else_subgraph_index")]),
        (Schema.Operator.builtinOptionsType, Schema.BuiltinOptions.whileOptions, Schema.WhileOptions.tableIndex,
         [(Schema.WhileOptions.condSubgraphIndex, "cond_subgraph_index"), (Schema.WhileOptions.bodySubgraphIndex, "body_subgraph_index")]),
        (Schema.Operator.builtinOptionsType, Schema.BuiltinOptions.callOnceOptions, Schema.CallOnceOptions.tableIndex,
         [(Schema.CallOnceOptions.initSubgraphIndex, "init_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stablehloReduceOptions, Schema.StablehloReduceOptions.tableIndex,
         [(Schema.StablehloReduceOptions.bodySubgraphIndex, "body_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stablehloReduceWindowOptions, Schema.StablehloReduceWindowOptions.tableIndex,
         [(Schema.StablehloReduceWindowOptions.bodySubgraphIndex, "body_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stablehloSortOptions, Schema.StablehloSortOptions.tableIndex,
         [(Schema.StablehloSortOptions.comparatorSubgraphIndex, "comparator_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stablehloWhileOptions, Schema.StablehloWhileOptions.tableIndex,
         [(Schema.StablehloWhileOptions.condSubgraphIndex, "cond_subgraph_index"), (Schema.StablehloWhileOptions.bodySubgraphIndex, "body_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stablehloScatterOptions, Schema.StablehloScatterOptions.tableIndex,
         [(Schema.StablehloScatterOptions.updateComputationSubgraphIndex, "update_computation_subgraph_index")]),
        (Schema.Operator.builtinOptions2Type, Schema.BuiltinOptions2.stableHLOCompositeOptions, Schema.StableHLOCompositeOptions.tableIndex,
         [(Schema.StableHLOCompositeOptions.decompositionSubgraphIndex, "decomposition_subgraph_index")]),
    ]

    /// Records, with range checks, every subgraph the operator's options call.
    private mutating func collectCalls(_ op: Table, subgraph: Int, path: @autoclosure () -> String) throws {
        let builtinType = try reader.scalar(op, slot: Schema.Operator.builtinOptionsType, default: UInt8(0))
        let builtin2Type = try reader.scalar(op, slot: Schema.Operator.builtinOptions2Type, default: UInt8(0))
        guard builtinType != 0 || builtin2Type != 0 else { return }
        for entry in Self.subgraphFields {
            let isFirstUnion = entry.union == Schema.Operator.builtinOptionsType
            guard (isFirstUnion ? builtinType : builtin2Type) == entry.member else { continue }
            let valueSlot = isFirstUnion ? Schema.Operator.builtinOptions : Schema.Operator.builtinOptions2
            let field = isFirstUnion ? "builtin_options" : "builtin_options_2"
            guard let options = try reader.table(op, slot: valueSlot) else { continue }
            for (slot, name) in entry.slots {
                let callee = try reader.scalar(options, slot: slot, default: Int32(0))
                try recordCall(from: subgraph, to: Int(callee), path: "\(path()).\(field).\(name)")
            }
        }
        if builtin2Type == Schema.BuiltinOptions2.stablehloCustomCallOptions,
           let options = try reader.table(op, slot: Schema.Operator.builtinOptions2),
           let computations = try reader.vector(options, slot: Schema.StablehloCustomCallOptions.calledComputations, elementByteCount: 4) {
            for index in 0..<computations.count {
                let callee = try reader.element(Int32.self, in: computations, at: index)
                try recordCall(from: subgraph, to: Int(callee), path: "\(path()).builtin_options_2.called_computations[\(index)]")
            }
        }
    }

    private mutating func recordCall(from caller: Int, to callee: Int, path: @autoclosure () -> String) throws {
        guard calls.indices.contains(callee) else {
            throw invalid(path(), "subgraph \(callee) is out of range (the model has \(calls.count) subgraphs)")
        }
        calls[caller].append((callee, path()))
    }

    /// Rejects a subgraph that calls itself, directly or through others: runtimes prepare callees
    /// recursively, so a cycle would recurse until the stack overflows.
    private func checkCallsAreAcyclic() throws {
        enum Mark { case unvisited, inProgress, done }
        var marks = Array(repeating: Mark.unvisited, count: calls.count)
        // An explicit stack, because a crafted chain of subgraphs could be deeper than the thread's.
        for start in calls.indices where marks[start] == .unvisited {
            var stack: [(subgraph: Int, next: Int)] = [(start, 0)]
            marks[start] = .inProgress
            while let (subgraph, next) = stack.last {
                guard next < calls[subgraph].count else {
                    marks[subgraph] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let call = calls[subgraph][next]
                switch marks[call.callee] {
                case .inProgress:
                    throw invalid(call.path, "subgraph \(call.callee) calls itself (through subgraph \(subgraph)); subgraphs may not be recursive")
                case .unvisited:
                    marks[call.callee] = .inProgress
                    stack.append((call.callee, 0))
                case .done:
                    break
                }
            }
        }
    }

    // MARK: Tensors

    private func checkTensor(_ tensor: Table, path: @autoclosure () -> String) throws {
        let type = Int64(try reader.scalar(tensor, slot: Schema.Tensor.type, default: Int8(0)))
        guard Schema.TensorType.allValues.contains(type) else {
            throw invalid("\(path()).type", "\(type) is not a TFLite tensor type")
        }
        let shape = try dimensions(tensor, slot: Schema.Tensor.shape, path: "\(path()).shape", allowsUnknown: false)
        let elementCount = try count(of: shape, path: "\(path()).shape")
        if let signature = try reader.vector(tensor, slot: Schema.Tensor.shapeSignature, elementByteCount: 4), signature.count > 0 {
            let dims = try dimensions(tensor, slot: Schema.Tensor.shapeSignature, path: "\(path()).shape_signature", allowsUnknown: true)
            guard dims.count == shape.count else {
                throw invalid("\(path()).shape_signature", "has \(dims.count) dimensions but shape has \(shape.count)")
            }
        }

        let buffer = Int(try reader.scalar(tensor, slot: Schema.Tensor.buffer, default: UInt32(0)))
        try checkBufferIndex(buffer, path: "\(path()).buffer")
        let dataByteCount = bufferByteCounts[buffer]
        let isSparse = try reader.fieldPosition(tensor, slot: Schema.Tensor.sparsity, byteCount: 4) != nil
        if dataByteCount > 0, !isSparse, let needed = Self.byteCount(of: type, elementCount: elementCount), dataByteCount < needed {
            throw invalid("\(path()).buffer", "buffer \(buffer) holds \(dataByteCount) bytes but a \(Self.typeName(type)) tensor of shape \(shape) needs \(needed)")
        }

        if let quantization = try reader.table(tensor, slot: Schema.Tensor.quantization) {
            try checkQuantization(quantization, type: type, shape: shape, path: "\(path()).quantization")
        }
        if let variants = try reader.vector(tensor, slot: Schema.Tensor.variantTensors, elementByteCount: 4) {
            for index in 0..<variants.count {
                let variant = try reader.table(in: variants, at: index)
                let variantType = Int64(try reader.scalar(variant, slot: Schema.VariantSubType.type, default: Int8(0)))
                guard Schema.TensorType.allValues.contains(variantType) else {
                    throw invalid("\(path()).variant_tensors[\(index)].type", "\(variantType) is not a TFLite tensor type")
                }
                let dims = try dimensions(variant, slot: Schema.VariantSubType.shape, path: "\(path()).variant_tensors[\(index)].shape", allowsUnknown: true)
                _ = try count(of: dims.map { max($0, 0) }, path: "\(path()).variant_tensors[\(index)].shape")
            }
        }
    }

    /// A shape's dimensions, with rank and sign checked; −1 (unknown) only where `allowsUnknown`.
    private func dimensions(_ table: Table, slot: Int, path: @autoclosure () -> String, allowsUnknown: Bool) throws -> [Int] {
        guard let vector = try reader.vector(table, slot: slot, elementByteCount: 4) else { return [] }
        guard vector.count <= TFLiteModelVerifier.maximumRank else {
            throw invalid(path(), "\(vector.count) dimensions; at most \(TFLiteModelVerifier.maximumRank) are allowed")
        }
        var dims: [Int] = []
        dims.reserveCapacity(vector.count)
        for index in 0..<vector.count {
            let dim = try reader.element(Int32.self, in: vector, at: index)
            guard dim >= 0 || (allowsUnknown && dim == -1) else {
                throw invalid("\(path())[\(index)]", "the dimension \(dim) is negative")
            }
            dims.append(Int(dim))
        }
        return dims
    }

    /// The number of elements of a shape, overflow-checked and within the limit.
    private func count(of shape: [Int], path: @autoclosure () -> String) throws -> Int {
        var elements = 1
        for dim in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dim)
            guard !overflow else {
                throw ModelFileError(.limitExceeded, "\(fileName): \(path()): the shape \(shape) has more elements than a 64-bit count can hold")
            }
            elements = product
        }
        guard elements <= limits.maximumElementsPerTensor else {
            throw ModelFileError(.limitExceeded, "\(fileName): \(path()): the shape \(shape) has \(elements) elements, more than maximumElementsPerTensor (\(limits.maximumElementsPerTensor))")
        }
        return elements
    }

    private func checkQuantization(_ quantization: Table, type: Int64, shape: [Int], path: @autoclosure () -> String) throws {
        guard let scaleVector = try reader.vector(quantization, slot: Schema.QuantizationParameters.scale, elementByteCount: 4),
              scaleVector.count > 0
        else { return }
        let scales = scaleVector.count
        let zeroPointVector = try reader.vector(quantization, slot: Schema.QuantizationParameters.zeroPoint, elementByteCount: 8)
        let zeroPoints = zeroPointVector?.count ?? 0
        // Kernels divide by scales and use zero points as values of the quantized type; a zero, NaN,
        // infinite or subnormal scale (such as 2.2e-42, from bytes copied over the exponent), or a zero
        // point outside the type, crashes XNNPack with SIGSEGV when the model compiles.
        for index in 0..<scales {
            let scale = Float(bitPattern: try reader.element(UInt32.self, in: scaleVector, at: index))
            guard scale.isNormal, scale > 0 else {
                throw invalid("\(path()).scale[\(index)]", "the scale \(scale) is not a positive normal number (zero, subnormal, infinite and NaN scales crash XNNPack)")
            }
        }
        if let zeroPointVector, let range = Self.zeroPointRange(of: type) {
            for index in 0..<zeroPointVector.count {
                let zeroPoint = try reader.element(Int64.self, in: zeroPointVector, at: index)
                guard range.contains(zeroPoint) else {
                    throw invalid("\(path()).zero_point[\(index)]", "the zero point \(zeroPoint) is outside the range of \(Self.typeName(type)) (\(range.lowerBound)...\(range.upperBound))")
                }
            }
        }
        guard zeroPoints == scales else {
            throw invalid(path(), "\(scales) scales but \(zeroPoints) zero points (there must be one per scale)")
        }
        let dimension = Int(try reader.scalar(quantization, slot: Schema.QuantizationParameters.quantizedDimension, default: Int32(0)))
        guard dimension >= 0, shape.isEmpty || dimension < shape.count else {
            throw invalid("\(path()).quantized_dimension", "dimension \(dimension) does not exist in a tensor of shape \(shape)")
        }
        guard scales == 1 || (!shape.isEmpty && scales == shape[dimension]) else {
            throw invalid("\(path()).scale", "\(scales) scales for dimension \(dimension) of shape \(shape) (there must be 1, or one per index of that dimension)")
        }
    }

    // MARK: Types

    /// Bytes of `elementCount` elements of a fixed-size type, or `nil` for strings, resources and
    /// variants, whose data has its own layout.
    private static func byteCount(of type: Int64, elementCount: Int) -> Int? {
        let size: Int
        switch type {
        case Schema.TensorType.int4: return elementCount / 2 + elementCount % 2  // two per byte
        case Schema.TensorType.uint8, Schema.TensorType.int8, Schema.TensorType.bool: size = 1
        case Schema.TensorType.float16, Schema.TensorType.int16, Schema.TensorType.uint16, Schema.TensorType.bfloat16: size = 2
        case Schema.TensorType.float32, Schema.TensorType.int32, Schema.TensorType.uint32: size = 4
        case Schema.TensorType.int64, Schema.TensorType.uint64, Schema.TensorType.float64, Schema.TensorType.complex64: size = 8
        case Schema.TensorType.complex128: size = 16
        default: return nil
        }
        // elementCount is at most ModelLimits.maximumElementsPerTensor, but that limit is configurable.
        let (bytes, overflow) = elementCount.multipliedReportingOverflow(by: size)
        return overflow ? Int.max : bytes
    }

    /// The values a quantized integer type can hold, which its zero points must be among; `nil` for
    /// types whose zero point is not a value of the type (floats, 32- and 64-bit accumulators).
    private static func zeroPointRange(of type: Int64) -> ClosedRange<Int64>? {
        switch type {
        case Schema.TensorType.uint8: 0...255
        case Schema.TensorType.int8: -128...127
        case Schema.TensorType.int16: -32768...32767
        case Schema.TensorType.uint16: 0...65535
        case Schema.TensorType.int4: -8...7
        default: nil
        }
    }

    private static func typeName(_ type: Int64) -> String {
        let names = ["float32", "float16", "int32", "uint8", "int64", "string", "bool", "int16", "complex64", "int8",
                     "float64", "complex128", "uint64", "resource", "variant", "uint32", "uint16", "int4", "bfloat16"]
        return names.indices.contains(Int(type)) ? names[Int(type)] : "type \(type)"
    }

    private func invalid(_ path: @autoclosure () -> String, _ message: String) -> ModelFileError {
        TFLiteModelVerifier.invalid(fileName, path(), message)
    }
}
