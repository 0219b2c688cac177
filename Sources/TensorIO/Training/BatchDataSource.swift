/// Where a ``ModelTrainer`` gets its examples: a count and an item by index, so data can stay on disk
/// until a batch needs it.
public protocol BatchDataSource: Sendable {
    /// The keys every item has (the layer names it gives values for).
    var keys: [String] { get }
    /// How many items there are.
    var count: Int { get }

    /// The item at `index`.
    ///
    /// - Parameter index: From 0 to `count - 1`.
    /// - Returns: A value for each key.
    /// - Throws: Whatever reading the item throws (a file that cannot be read, say).
    func item(at index: Int) throws -> Batch.Item
}

/// A data source over items already in memory.
public struct InMemoryBatchDataSource: BatchDataSource, Hashable {
    /// The items, as a batch.
    public let batch: Batch

    /// Creates a source over a batch's items.
    ///
    /// - Parameter batch: The items.
    public init(_ batch: Batch) {
        self.batch = batch
    }

    public var keys: [String] { batch.keys }
    public var count: Int { batch.count }

    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when `index` is out of range.
    public func item(at index: Int) throws -> Batch.Item {
        guard batch.indices.contains(index) else {
            throw TensorIOError.invalidInput("item \(index) is out of range: the source has \(batch.count) items")
        }
        return batch[index]
    }
}
