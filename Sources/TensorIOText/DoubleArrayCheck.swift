import TensorIO

/// Walks every path of a darts-clone double-array trie (the precompiled character map of a SentencePiece
/// normalizer) as libsentencepiece's lookups would, checking that each unit read lies inside the array and
/// each value found points inside the map's strings: a crafted map cannot make the library read past it.
///
/// A unit is 32 bits: `label` = bits 0–7 and 31, `hasLeaf` = bit 8, `offset` = bits 10–31 shifted left by 8
/// when bit 9 is set, `value` = bits 0–30 (darts.h). From a node at `base`, byte `c` leads to unit
/// `base ^ c`, a child when its label is `c`; the child's base is that index XOR its offset, and when it has
/// a leaf, the unit at its base holds a value.
enum DoubleArrayCheck {
    /// The largest trie walked, in bytes: each of its units is visited at most once, 256 bytes from each,
    /// so this bounds the walk (a million units, a quarter of a second). The `nmt_nfkc` map's is 175 KB.
    static let maximumTrieBytes = 4 << 20

    static func check(_ trie: ArraySlice<UInt8>, stringBytes: Int, fail: (String) -> TensorIOError) throws {
        guard trie.count <= maximumTrieBytes else {
            throw fail("its precompiled character map's trie is \(trie.count) bytes, more than TensorIO walks (\(maximumTrieBytes))")
        }
        let count = trie.count / 4
        guard count > 0 else { return }
        let start = trie.startIndex
        func unit(_ index: Int) -> UInt32 {
            let offset = start + index * 4
            return UInt32(trie[offset]) | UInt32(trie[offset + 1]) << 8 | UInt32(trie[offset + 2]) << 16 | UInt32(trie[offset + 3]) << 24
        }
        func offset(_ unit: UInt32) -> Int { Int((unit >> 10) << ((unit & (1 << 9)) >> 6)) }
        func problem() -> TensorIOError { fail("its precompiled character map's trie points outside itself") }

        let rootBase = offset(unit(0))
        var visited = Set<Int>([rootBase])
        var pending = [rootBase]
        while let base = pending.popLast() {
            for byte in 0...255 {
                let index = base ^ byte
                guard index < count else { throw problem() }
                let child = unit(index)
                guard child & ((1 << 31) | 0xFF) == UInt32(byte) else { continue }
                let childBase = index ^ offset(child)
                guard childBase < count else { throw problem() }
                if child & (1 << 8) != 0, Int(unit(childBase) & ((1 << 31) - 1)) >= stringBytes { throw problem() }
                if visited.insert(childBase).inserted { pending.append(childBase) }
            }
        }
    }
}
