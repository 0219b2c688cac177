/// Walks a FlatBuffers buffer from its root table, following a schema description, and checks that
/// every table, vtable, vector, string and union member it reaches lies inside the buffer.
///
/// Work is bounded whatever the bytes say: offsets (`uoffset_t`) only point forward so there are no
/// cycles, but many offsets may point at the same table, so a crafted file could make a naive walk
/// exponential. Nesting depth and the total number of objects visited are therefore capped.
///
/// On failure the error carries the path of fields and indices leading to the bad object, such as
/// `subgraphs[0].operators[3].builtin_options.new_shape`.
package struct FlatBufferStructureVerifier {
    /// A step on the path from the root: a field (by table type and position in its schema, so the
    /// walk copies no strings) or a vector index.
    enum PathComponent {
        case field(table: Int, field: Int)
        case index(Int)
    }

    /// A problem with the path to where it was found.
    package struct Failure: Error {
        package let path: String
        package let message: String
    }

    /// How deep tables may nest. TFLite needs about 6 (model, subgraph, tensor, quantization,
    /// details); FlatBuffers' own verifier defaults to 64.
    static let maximumDepth = 64
    /// How many tables, vectors and strings one buffer may hold; FlatBuffers' own verifier defaults to
    /// a million tables. Large language models have tens of thousands.
    static let maximumObjects = 4_000_000

    let reader: FlatBufferReader
    let tables: [FlatBufferTableSchema]
    let unions: [FlatBufferUnionSchema]
    private(set) var visitedObjects = 0
    private var depth = 0
    // Pushed and popped explicitly (not with `defer`) so that, when a check throws, the path still
    // names where it failed by the time the error reaches `verify(rootTable:)`.
    private var path: [PathComponent] = []

    package init(reader: FlatBufferReader, tables: [FlatBufferTableSchema], unions: [FlatBufferUnionSchema]) {
        self.reader = reader
        self.tables = tables
        self.unions = unions
    }

    /// Checks the whole buffer, starting at the root table.
    ///
    /// - Parameter rootTable: The root table's index in `tables`.
    /// - Throws: ``Failure`` naming the first problem found.
    package mutating func verify(rootTable: Int) throws {
        do {
            try verifyTable(at: reader.rootPosition(), type: rootTable)
        } catch let failure as FlatBufferReader.Failure {
            throw Failure(path: render(path), message: failure.message)
        }
    }

    /// `subgraphs[0].tensors[2].shape` from its components.
    func render(_ path: [PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .field(let table, let field):
                let name = tables[table].fields[field].name
                text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    private mutating func countObject() throws {
        visitedObjects += 1
        guard visitedObjects <= Self.maximumObjects else {
            throw FlatBufferReader.Failure(message: "the file holds more than \(Self.maximumObjects) tables, vectors and strings")
        }
    }

    private mutating func verifyTable(at position: Int, type: Int) throws {
        try countObject()
        guard depth < Self.maximumDepth else {
            throw FlatBufferReader.Failure(message: "tables nest more than \(Self.maximumDepth) deep")
        }
        guard tables.indices.contains(type) else {
            throw FlatBufferReader.Failure(message: "the schema has no table \(type)")
        }
        depth += 1
        let table = try reader.table(at: position)
        let fields = tables[type].fields
        for index in fields.indices {
            path.append(.field(table: type, field: index))
            try verifyField(fields[index], of: table)
            path.removeLast()
        }
        depth -= 1
    }

    private mutating func verifyField(_ field: FlatBufferField, of table: FlatBufferReader.Table) throws {
        switch field.kind {
        case .scalar(let byteCount), .structValue(let byteCount):
            _ = try reader.fieldPosition(table, slot: field.slot, byteCount: byteCount)
        case .string:
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            try countObject()
            _ = try reader.string(offsetAt: position)
        case .scalarVector(let elementByteCount), .structVector(let elementByteCount):
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            try countObject()
            _ = try reader.vector(offsetAt: position, elementByteCount: elementByteCount)
        case .stringVector:
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            try countObject()
            let vector = try reader.vector(offsetAt: position, elementByteCount: 4)
            for index in 0..<vector.count {
                path.append(.index(index))
                try countObject()
                _ = try reader.string(offsetAt: vector.position(of: index))
                path.removeLast()
            }
        case .table(let type):
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            try verifyTable(at: reader.followOffset(at: position), type: type)
        case .tableVector(let type):
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            try countObject()
            let vector = try reader.vector(offsetAt: position, elementByteCount: 4)
            for index in 0..<vector.count {
                path.append(.index(index))
                try verifyTable(at: reader.followOffset(at: vector.position(of: index)), type: type)
                path.removeLast()
            }
        case .union(let union, let typeSlot):
            guard let position = try reader.fieldPosition(table, slot: field.slot, byteCount: 4) else { return }
            let typeValue = Int(try reader.scalar(table, slot: typeSlot, default: UInt8(0)))
            let target = try reader.followOffset(at: position)
            let members = unions.indices.contains(union) ? unions[union].members : []
            if members.indices.contains(typeValue), let member = members[typeValue] {
                try verifyTable(at: target, type: member)
            } else {
                // NONE, or a member newer than this schema: readers that know it will parse it, so its
                // header must still be sound, but its fields are unknown here.
                try countObject()
                _ = try reader.table(at: target)
            }
        }
    }
}
