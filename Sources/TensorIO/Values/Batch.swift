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

    /// Creates an empty batch whose items will have `keys`.
    ///
    /// - Parameter keys: The layer names each item gives a value for.
    public init(keys: [String]) {
        self.keys = keys
        self.items = []
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
        self.keys = item.keys.sorted()
        self.items = [item]
    }

    /// Adds an item at the end.
    ///
    /// - Parameter item: A value for each of the batch's keys, and no others.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming the missing or extra keys.
    public mutating func append(_ item: Item) throws {
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
        items.append(item)
    }

    /// Every item's value for one key, in item order; empty for a key the batch does not have.
    ///
    /// - Parameter key: A key of the batch.
    /// - Returns: One value per item.
    public func values(forKey key: String) -> [InputValue] {
        guard keys.contains(key) else { return [] }
        return items.compactMap { $0[key] }
    }

    // MARK: RandomAccessCollection

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> Item { items[position] }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
