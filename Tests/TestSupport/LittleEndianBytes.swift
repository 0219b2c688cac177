public import Foundation

// Numbers as the bytes a tensor or a zip header holds them: little-endian, whatever the machine.

extension Data {
    /// The little-endian bytes of some `Float`s, as a float32 tensor holds them.
    public init(float32LittleEndian values: [Float]) {
        self.init()
        for value in values {
            Swift.withUnsafeBytes(of: value.bitPattern.littleEndian) { append(contentsOf: $0) }
        }
    }

    /// The `Float`s these little-endian bytes hold.
    public var float32LittleEndian: [Float] {
        stride(from: 0, to: count - count % 4, by: 4).map { offset in
            let start = index(startIndex, offsetBy: offset)
            let bits = self[start..<index(start, offsetBy: 4)].enumerated().reduce(UInt32(0)) { bits, byte in
                bits | UInt32(byte.element) << (8 * UInt32(byte.offset))
            }
            return Float(bitPattern: bits)
        }
    }

    /// Appends `value` as two little-endian bytes.
    public mutating func append(u16 value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }

    /// Appends `value` as four little-endian bytes.
    public mutating func append(u32 value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}
