internal import CLiteRT

/// Memory LiteRT reads and writes as a tensor's: zeroed, 64-byte aligned (LiteRT refuses anything else)
/// and a whole number of alignments long. Made for a slot's own buffer (``TensorSlot``) and for inputs
/// bound when compiling (``BoundInputMemory``); freed by whichever of them owns it.
enum HostTensorMemory {
    /// LiteRT's host-memory alignment.
    static let alignment = Int(LITERT_HOST_MEMORY_BUFFER_ALIGNMENT)

    /// Allocates at least `byteCount` zeroed bytes.
    ///
    /// - Returns: The memory and its size (`byteCount` rounded up to ``alignment``).
    static func allocate(byteCount: Int) -> (memory: UnsafeMutableRawPointer, capacity: Int) {
        let capacity = (byteCount + alignment - 1) / alignment * alignment
        let memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: alignment)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        return (memory, capacity)
    }
}
