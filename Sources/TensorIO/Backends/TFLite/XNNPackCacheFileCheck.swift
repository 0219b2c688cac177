import Foundation
internal import TensorIOModelFile

/// Checks that a weight cache file written by LiteRT's XNNPACK delegate is whole before LiteRT maps it.
///
/// When XNNPACK cannot load a cache file it rebuilds it in place, truncating it under any other process
/// that has it mapped; so a file that fails this check is deleted instead (other mappings of it stay
/// valid) and built again under a new name. The check is of the header XNNPACK writes last: a
/// 64-bit version, then the offset and size of the buffer list that ends the file (at bytes 8 and 16
/// in the layout LiteRT 2.3 writes, version 4; at 40 and 48 after a 32-byte build identifier in the
/// version 1 layout of `tensorflow/lite/delegates/xnnpack/weight_cache.h`). A file cut short, or
/// abandoned before its header was written, fails it.
///
/// What it does not check is the packed data itself: XNNPACK trusts the file as its own. The cache
/// folder must therefore be the user's and writable by nobody else (``XNNPackWeightCache`` refuses
/// others), the same trust as the user's other files.
enum XNNPackCacheFileCheck {
    /// Why the file cannot be used, or `nil` when it can.
    static func problem(in bytes: UnsafeRawBufferPointer) -> String? {
        let reader = FlatBufferReader(bytes)
        guard let version = try? reader.integer(UInt64.self, at: 0), version != 0 else {
            return "it has no header (it was not finished)"
        }
        let (offsetAt, headerByteCount) = version == 1 ? (40, 56) : (8, 24)
        guard let listOffset = try? reader.integer(UInt64.self, at: offsetAt),
              let listSize = try? reader.integer(UInt64.self, at: offsetAt + 8)
        else {
            return "\(bytes.count) bytes, shorter than its header"
        }
        let (end, overflow) = listOffset.addingReportingOverflow(listSize)
        guard listOffset >= UInt64(headerByteCount), listSize > 0, !overflow, end == UInt64(bytes.count) else {
            return "its buffer list (\(listSize) bytes at \(listOffset)) does not end the file (\(bytes.count) bytes)"
        }
        return nil
    }
}
