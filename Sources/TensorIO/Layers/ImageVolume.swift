/// The size of an image layer's tensor: height, width and channel count.
public struct ImageVolume: Sendable, Hashable {
    public var height: Int
    public var width: Int
    public var channels: Int

    /// Creates a volume.
    public init(height: Int, width: Int, channels: Int) {
        self.height = height
        self.width = width
        self.channels = channels
    }

    /// Reads a volume from an image layer's shape: `[h, w, c]`, or four dimensions with the batch
    /// dimension `-1` first or last. Returns `nil` for any other shape.
    public init?(shape: [Int]) {
        var dimensions = shape
        if dimensions.count == 4 {
            if dimensions.first == -1 {
                dimensions.removeFirst()
            } else if dimensions.last == -1 {
                dimensions.removeLast()
            } else {
                return nil
            }
        }
        guard dimensions.count == 3, dimensions.allSatisfy({ $0 > 0 }) else { return nil }
        self.init(height: dimensions[0], width: dimensions[1], channels: dimensions[2])
    }
}
