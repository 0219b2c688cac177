internal import CLiteRT

extension LiteRtLayout {
    /// The layout's dimensions, as many as its rank says (at most as many as it can hold).
    ///
    /// Unsafe because Swift imports the C array `int32_t dimensions[LITERT_TENSOR_MAX_RANK]` as a tuple,
    /// which has no subscript: its bytes are read as the `Int32`s they are. The contract, checked once in
    /// every build: the tuple is `LITERT_TENSOR_MAX_RANK` `Int32`s laid out as the C array (a tuple of one
    /// type is); a rank beyond that (a 7-bit field LiteRT fills) reads no further than the tuple.
    var dimensionList: [Int] {
        precondition(MemoryLayout.size(ofValue: dimensions) == Int(LITERT_TENSOR_MAX_RANK) * MemoryLayout<Int32>.stride,
                     "LiteRtLayout.dimensions is not \(LITERT_TENSOR_MAX_RANK) Int32s")
        return withUnsafeBytes(of: dimensions) { raw in Array(raw.bindMemory(to: Int32.self).prefix(Int(rank))).map(Int.init) }
    }
}
