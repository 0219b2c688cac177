/// Training examples (or inputs for a batched run) with the same keys: a table whose rows are items and
/// whose columns are layers.
///
/// ```swift
/// var batch = Batch(keys: ["image", "label"])
/// try batch.append(["image": cat, "label": 0])
/// try batch.append(["image": dog, "label": 1])
/// let outputs = try model.train(batch)
/// ```
///
/// Unlike the original's `TIOBatch`, adding an item whose keys differ is an error you can catch, not an
/// assertion.
public struct Batch: Sendable, Hashable, RandomAccessCollection {
    /// One example: a value per key.
    public typealias Item = [String: InputValue]

    /// The keys every item has, in the order given.
    public let keys: [String]
    private var items: [Item]
    /// The same values by key, one array per key in `keys` order, kept as items are added: a training
    /// step or a batched run reads a batch column by column, and looking every item's value up again
    /// there cost as much as a small model's step.
    private var columns: [[InputValue]]

    /// Creates an empty batch whose items will have `keys`.
    ///
    /// - Parameter keys: The layer names each item gives a value for.
    public init(keys: [String]) {
        self.keys = keys
        self.items = []
        self.columns = Array(repeating: [], count: keys.count)
    }

    /// Creates a batch of items, taking the keys from the first.
    ///
    /// - Parameter items: At least one item; every item has the same keys.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when there are no items or their
    ///   keys differ.
    public init(_ items: [Item]) throws {
        guard let first = items.first else {
            throw TensorIOError.invalidInput("a batch needs at least one item to take its keys from")
        }
        self.init(keys: first.keys.sorted())
        for item in items { try append(item) }
    }

    /// Creates a batch of one item.
    ///
    /// - Parameter item: The only item; its keys become the batch's.
    public init(item: Item) {
        let keys = item.keys.sorted()
        self.keys = keys
        self.items = [item]
        self.columns = keys.map { [item[$0]!] }  // the keys are the item's own
    }

    /// Adds an item at the end.
    ///
    /// - Parameter item: A value for each of the batch's keys, and no others.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming the missing or extra keys.
    public mutating func append(_ item: Item) throws {
        // The usual case, one lookup per key and no sets: a training step appends a whole batch.
        if item.count == keys.count {
            var added = 0
            for key in keys {
                guard let value = item[key] else { break }
                columns[added].append(value)
                added += 1
            }
            if added == keys.count {
                items.append(item)
                return
            }
            for column in 0..<added { columns[column].removeLast() }
        }
        let expected = Set(keys)
        let given = Set(item.keys)
        guard expected == given else {
            var problems: [String] = []
            let missing = keys.filter { !given.contains($0) }
            let extra = item.keys.filter { !expected.contains($0) }.sorted()
            if !missing.isEmpty { problems.append("missing \(Self.quoted(missing))") }
            if !extra.isEmpty { problems.append("has unknown \(Self.quoted(extra))") }
            throw TensorIOError.invalidInput(
                "item \(items.count) does not match the batch's keys \(Self.quoted(keys)): \(problems.joined(separator: ", "))"
            )
        }
        // Keys named twice: the item has each once.
        for (column, key) in keys.enumerated() { columns[column].append(item[key]!) }
        items.append(item)
    }

    /// Every item's value for one key, in item order; empty for a key the batch does not have.
    ///
    /// - Parameter key: A key of the batch.
    /// - Returns: One value per item.
    public func values(forKey key: String) -> [InputValue] {
        guard let column = keys.firstIndex(of: key) else { return [] }
        return columns[column]
    }

    // MARK: RandomAccessCollection

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> Item { items[position] }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
