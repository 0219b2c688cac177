/// What a table field holds, as far as checking its bounds is concerned.
///
/// Table and union references are indices into the generated schema's `tables` and `unions` arrays
/// (see `TFLiteSchema.generated.swift`) rather than nested values, so the description stays a flat,
/// cheap-to-copy list even though the TFLite schema refers to itself in many places.
package enum FlatBufferFieldKind: Sendable, Hashable {
    /// A scalar stored inline in the table: bool, integers, floats, enums.
    case scalar(byteCount: Int)
    /// A struct stored inline in the table.
    case structValue(byteCount: Int)
    /// An offset to a string (length-prefixed, NUL-terminated bytes).
    case string
    /// An offset to a vector of inline scalars (or enums) of `elementByteCount` bytes each.
    case scalarVector(elementByteCount: Int)
    /// An offset to a vector of inline structs.
    case structVector(elementByteCount: Int)
    /// An offset to a vector of offsets to strings.
    case stringVector
    /// An offset to a table of the given type.
    case table(Int)
    /// An offset to a vector of offsets to tables of the given type.
    case tableVector(Int)
    /// An offset to a table whose type is the union member named by the one-byte field at `typeSlot`.
    case union(Int, typeSlot: Int)
}

/// One field of a table: its name (for error messages), its vtable slot and what it holds.
package struct FlatBufferField: Sendable, Hashable {
    package let name: String
    /// The field's position in the vtable: its entry is at byte `4 + 2 × slot` of the vtable.
    package let slot: Int
    package let kind: FlatBufferFieldKind

    package init(name: String, slot: Int, kind: FlatBufferFieldKind) {
        self.name = name
        self.slot = slot
        self.kind = kind
    }
}

/// A table type: the fields a verifier has to follow or bound.
package struct FlatBufferTableSchema: Sendable, Hashable {
    package let name: String
    package let fields: [FlatBufferField]

    package init(name: String, fields: [FlatBufferField]) {
        self.name = name
        self.fields = fields
    }
}

/// A union type: the table each type value selects.
package struct FlatBufferUnionSchema: Sendable, Hashable {
    package let name: String
    /// Indexed by type value; `nil` for 0 (NONE) and for values the schema does not name.
    package let members: [Int?]

    package init(name: String, members: [Int?]) {
        self.name = name
        self.members = members
    }
}
