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

    /// The items at `indices`, in that order, as one batch: what a ``ModelTrainer`` trains on in a step.
    ///
    /// The default fetches each item with ``item(at:)`` and adds it to a batch. Implement it when the
    /// source keeps its values by key (one array per key, say): a batch then travels as one array per key
    /// to the model's tensors rather than as a dictionary per item, which for a small model costs more
    /// than the training step itself. It must give the same items as ``item(at:)``.
    ///
    /// - Parameter indices: Items to include, each from 0 to `count - 1`.
    /// - Returns: A batch with the source's ``keys``.
    /// - Throws: What ``item(at:)`` throws for one of the items.
    func batch(at indices: [Int]) throws -> Batch
}

extension BatchDataSource {
    public func batch(at indices: [Int]) throws -> Batch {
        try batchOfItems(at: indices)
    }

    /// The batch of `indices` made item by item, as the default ``batch(at:)`` makes it: for a source
    /// whose own `batch(at:)` has a faster way for some of its data only.
    func batchOfItems(at indices: [Int]) throws -> Batch {
        var batch = Batch(keys: keys)
        for index in indices { try batch.append(try item(at: index)) }
        // One array per key when the items' numbers allow it, so the model writes each with one conversion.
        return batch.compacted()
    }
}
