/// The zip-bomb rule of the archive readers: an entry (or a whole archive) may not unpack to more than
/// `maximum` times its packed size, once it unpacks to more than `threshold` bytes.
///
/// Computed from the declared sizes, which ``ZipReader`` then enforces exactly, so a crafted archive
/// cannot understate its ratio.
public enum CompressionRatio {
    /// Whether `unpacked` bytes made from `packed` bytes break the rule.
    ///
    /// - Parameters:
    ///   - unpacked: The unpacked size.
    ///   - packed: The packed size.
    ///   - maximum: The largest ratio allowed.
    ///   - threshold: Sizes up to this many unpacked bytes are never refused for their ratio.
    /// - Returns: `true` when the ratio is exceeded.
    public static func isExceeded(unpacked: UInt64, packed: UInt64, maximum: UInt64, threshold: UInt64) -> Bool {
        guard unpacked > threshold else { return false }
        let (bound, overflow) = packed.multipliedReportingOverflow(by: maximum)
        return !overflow && unpacked > bound
    }
}
