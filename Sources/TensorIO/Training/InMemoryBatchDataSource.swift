/// A data source over items already in memory.
public struct InMemoryBatchDataSource: BatchDataSource, Hashable {
    /// The items, as a batch.
    public let batch: Batch

    /// Creates a source over a batch's items.
    ///
    /// - Parameter batch: The items.
    public init(_ batch: Batch) {
        // Kept as one array per key where the values allow, so that batches are gathered from it by key.
        self.batch = batch.compacted()
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

    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when an index is out of range.
    public func batch(at indices: [Int]) throws -> Batch {
        if let index = indices.first(where: { !batch.indices.contains($0) }) {
            throw TensorIOError.invalidInput("item \(index) is out of range: the source has \(batch.count) items")
        }
        return batch.gathering(indices)
    }
}
