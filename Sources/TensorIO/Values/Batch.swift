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
    /// The number of items.
    private var itemCount: Int
    /// The values by key, one column per key in `keys` order; an item is a row across them. A training
    /// step or a batched run reads a batch column by column, so the values are kept that way, and a
    /// data source that holds its numbers in columns hands over a batch as one array per key, or as the
    /// rows of its tables: no dictionary per item, and one conversion (or row copies) into the tensor
    /// (see ``BatchDataSource/batch(at:)``).
    private(set) var columns: [Column]

    /// One key's values in every item.
    enum Column: Sendable {
        /// A value per item, as given.
        case values([InputValue])
        /// Every item's numbers end to end, `width` numbers an item, all of one element type: what an
        /// item gives for the key is `.numbers` of its `width` numbers in that type.
        case numbers(NumericArray, width: Int)
        /// A data source's table of numbers, every row an item (``NumberTable``): what the source keeps.
        case table(NumberTable)
        /// Rows `indices` of a data source's table, in that order: a batch drawn from it, which copies
        /// nothing until a model writes it — each row then goes from the table straight into the tensor
        /// (``TensorBinding/writeItems(_:count:to:)``), where gathering the rows into an array first and
        /// converting that array cost a training step of a small model as much as a tenth of its invoke.
        case rows(NumberTable, indices: [Int])

        /// The value of item `index`.
        func value(at index: Int) -> InputValue {
            switch self {
            case .values(let values): return values[index]
            case .numbers(let numbers, let width): return .numbers(numbers.slice((index * width)..<((index + 1) * width)))
            case .table(let table): return table.row(index)
            case .rows(let table, let indices): return table.row(indices[index])
            }
        }

        /// A value per item.
        func values(count: Int) -> [InputValue] {
            switch self {
            case .values(let values): return values
            case .numbers, .table, .rows: return (0..<count).map(value(at:))
            }
        }

        /// Items `indices`, in that order.
        func gathering(_ indices: [Int]) -> Column {
            switch self {
            case .values(let values): return .values(indices.map { values[$0] })
            case .numbers(let numbers, let width): return .numbers(numbers.gathering(indices, width: width), width: width)
            case .table(let table):
                precondition(indices.allSatisfy { $0 >= 0 && $0 < table.rowCount }, "a row out of the table's \(table.rowCount)")
                return .rows(table, indices: indices)
            case .rows(let table, let rows): return .rows(table, indices: indices.map { rows[$0] })
            }
        }

        /// The items' numbers as one array of `width` numbers an item, for a column kept as a table's rows
        /// (gathered now); `nil` for a column of values.
        var gatheredNumbers: (numbers: NumericArray, width: Int)? {
            switch self {
            case .values: return nil
            case .numbers(let numbers, let width): return (numbers, width)
            case .table(let table): return (table.numbers, table.width)
            case .rows(let table, let indices): return (table.numbers.gathering(indices, width: table.width), table.width)
            }
        }

        /// The same values, as one array when every item gives numbers of one type and count (what a
        /// data source's items usually give), so a model writes them with one conversion.
        func compacted() -> Column {
            guard case .values(let values) = self, let first = values.first, case .numbers(let head) = first else { return self }
            var parts: [NumericArray] = []
            parts.reserveCapacity(values.count)
            for value in values {
                guard case .numbers(let numbers) = value, numbers.count == head.count else { return self }
                parts.append(numbers)
            }
            guard let joined = NumericArray(joiningSameType: parts) else { return self }
            return .numbers(joined, width: head.count)
        }

        /// A data source's items as one column of numbers per key, or `nil` when an item is unusable
        /// (`item` gives `nil`), a value is not numbers, or a key's count of numbers differs from the
        /// first item's. The arrays grow as items are read rather than being reserved from the first
        /// item's count times the number of items: that product comes from the file, and a first item
        /// with many numbers followed by many short ones would reserve far more than the file holds.
        static func numbers(keys: [String], count: Int, item: (Int) -> Item?) -> [Column]? {
            var columns = [[Double]](repeating: [], count: keys.count)
            var widths = [Int](repeating: 0, count: keys.count)
            for index in 0..<count {
                guard let item = item(index) else { return nil }
                for (column, key) in keys.enumerated() {
                    guard case .numbers(.float64(let numbers))? = item[key] else { return nil }
                    if index == 0 { widths[column] = numbers.count }
                    guard numbers.count == widths[column] else { return nil }
                    columns[column].append(contentsOf: numbers)
                }
            }
            return zip(columns, widths).map { .table(NumberTable(numbers: .float64($0), width: $1, rowCount: count)) }
        }
    }

    /// Creates an empty batch whose items will have `keys`.
    ///
    /// - Parameter keys: The layer names each item gives a value for.
    public init(keys: [String]) {
        self.keys = keys
        self.itemCount = 0
        self.columns = Array(repeating: .values([]), count: keys.count)
    }

    /// A batch of `count` items given by their columns, one per key in `keys` order.
    init(keys: [String], count: Int, columns: [Column]) {
        precondition(keys.count == columns.count, "a batch needs one column per key")
        self.keys = keys
        self.itemCount = count
        self.columns = columns
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
        self.itemCount = 1
        self.columns = keys.map { .values([item[$0]!]) }  // the keys are the item's own
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
                appendValue(value, toColumn: added)
                added += 1
            }
            if added == keys.count {
                itemCount += 1
                return
            }
            for column in 0..<added { removeLastValue(ofColumn: column) }
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
                "item \(itemCount) does not match the batch's keys \(Self.quoted(keys)): \(problems.joined(separator: ", "))"
            )
        }
        // Keys named twice: the item has each once.
        for (column, key) in keys.enumerated() { appendValue(item[key]!, toColumn: column) }
        itemCount += 1
    }

    /// Adds a value to a column, which from then on keeps a value per item.
    private mutating func appendValue(_ value: InputValue, toColumn index: Int) {
        if case .values = columns[index] {} else { columns[index] = .values(columns[index].values(count: itemCount)) }
        guard case .values(var values) = columns[index] else { return }
        columns[index] = .values([])  // so `values` is the only reference and grows in place
        values.append(value)
        columns[index] = .values(values)
    }

    private mutating func removeLastValue(ofColumn index: Int) {
        guard case .values(var values) = columns[index] else { return }
        columns[index] = .values([])
        values.removeLast()
        columns[index] = .values(values)
    }

    /// Items `indices` of this batch, in that order (an index may repeat).
    func gathering(_ indices: [Int]) -> Batch {
        Batch(keys: keys, count: indices.count, columns: columns.map { $0.gathering(indices) })
    }

    /// The same items, each column of numbers of one type and count as one array.
    func compacted() -> Batch {
        Batch(keys: keys, count: itemCount, columns: columns.map { $0.compacted() })
    }

    /// Every item's value for one key, in item order; empty for a key the batch does not have.
    ///
    /// - Parameter key: A key of the batch.
    /// - Returns: One value per item.
    public func values(forKey key: String) -> [InputValue] {
        guard let column = keys.firstIndex(of: key) else { return [] }
        return columns[column].values(count: itemCount)
    }

    // MARK: RandomAccessCollection

    public var startIndex: Int { 0 }
    public var endIndex: Int { itemCount }
    public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < itemCount, "Batch index out of range")
        var item = Item(minimumCapacity: keys.count)
        for (key, column) in zip(keys, columns) where item[key] == nil { item[key] = column.value(at: position) }
        return item
    }

    // MARK: Hashable

    /// Batches are equal when they have the same keys and items, however their values are kept.
    public static func == (left: Batch, right: Batch) -> Bool {
        left.keys == right.keys && left.itemCount == right.itemCount
            && zip(left.columns, right.columns).allSatisfy { pair in
                pair.0.values(count: left.itemCount) == pair.1.values(count: right.itemCount)
            }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(itemCount)
        for column in columns { hasher.combine(column.values(count: itemCount)) }
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
