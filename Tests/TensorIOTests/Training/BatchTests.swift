import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `Batch` and `InMemoryBatchDataSource`: the original's TIOBatch and TIOInMemoryBatchDataSource tests,
/// plus the errors that replace its assertions.
@Suite("Training: batches")
struct BatchTests {
    private let cat: Batch.Item = ["image": [1, 2, 3], "label": 0]
    private let dog: Batch.Item = ["image": [4, 5, 6], "label": 1]
    private let bird: Batch.Item = ["image": [7, 8, 9], "label": 2]

    // MARK: Batch

    @Test("init(keys:) keeps the keys in the order given and has no items")
    func initWithKeys() {
        let batch = Batch(keys: ["label", "image"])
        #expect(batch.keys == ["label", "image"])
        #expect(batch.count == 0)
        #expect(batch.isEmpty)
        #expect(batch.values(forKey: "image") == [])
    }

    @Test("append adds items at the end, in order")
    func append() throws {
        var batch = Batch(keys: ["image", "label"])
        try batch.append(cat)
        try batch.append(dog)
        #expect(batch.count == 2)
        #expect(batch[0] == cat)
        #expect(batch[1] == dog)
        #expect(Array(batch) == [cat, dog])
        #expect(batch.keys == ["image", "label"])
    }

    @Test("append with a missing key throws invalidInput naming it, and leaves the batch as it was")
    func appendMissingKey() throws {
        var batch = Batch(keys: ["image", "label"])
        try batch.append(cat)
        let error = expectTensorIOError(.invalidInput) { try batch.append(["image": [1, 2, 3]]) }
        #expect(error?.message.contains("missing \"label\"") == true, "\(String(describing: error))")
        #expect(error?.message.contains("item 1") == true, "\(String(describing: error))")
        #expect(batch.count == 1)
    }

    @Test("append with an extra key throws invalidInput naming it")
    func appendExtraKey() throws {
        var batch = Batch(keys: ["image", "label"])
        let error = expectTensorIOError(.invalidInput) {
            try batch.append(["image": [1], "label": 0, "weight": 2])
        }
        #expect(error?.message.contains("unknown \"weight\"") == true, "\(String(describing: error))")
        #expect(error?.message.contains("missing") == false, "\(String(describing: error))")
        #expect(batch.isEmpty)
    }

    @Test("append with both missing and extra keys names all of them")
    func appendMissingAndExtra() {
        var batch = Batch(keys: ["a", "b", "c"])
        let error = expectTensorIOError(.invalidInput) { try batch.append(["a": 1, "z": 2, "y": 3]) }
        let message = error?.message ?? ""
        #expect(message.contains("missing \"b\", \"c\""), "\(message)")
        #expect(message.contains("unknown \"y\", \"z\""), "\(message)")
    }

    @Test("init(items) takes the keys from the first item (sorted) and keeps the items' order")
    func initWithItems() throws {
        let batch = try Batch([cat, dog, bird])
        #expect(batch.keys == ["image", "label"])
        #expect(batch.count == 3)
        #expect(Array(batch) == [cat, dog, bird])
    }

    @Test("init(items) with no items throws invalidInput")
    func initWithNoItems() {
        expectTensorIOError(.invalidInput) { _ = try Batch([]) }
    }

    @Test("init(items) with an item whose keys differ throws invalidInput naming the item and the key")
    func initWithMismatchedItems() {
        let error = expectTensorIOError(.invalidInput) { _ = try Batch([cat, dog, ["image": [0]]]) }
        #expect(error?.message.contains("item 2") == true, "\(String(describing: error))")
        #expect(error?.message.contains("\"label\"") == true, "\(String(describing: error))")
    }

    @Test("init(item:) makes a batch of one item")
    func initWithItem() {
        let batch = Batch(item: dog)
        #expect(batch.keys == ["image", "label"])
        #expect(batch.count == 1)
        #expect(batch[0] == dog)
    }

    @Test("values(forKey:) lists every item's value in item order")
    func valuesForKey() throws {
        let batch = try Batch([cat, dog, bird])
        #expect(batch.values(forKey: "label") == [0, 1, 2])
        #expect(batch.values(forKey: "image") == [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    }

    @Test("values(forKey:) for a key the batch does not have is empty")
    func valuesForUnknownKey() throws {
        let batch = try Batch([cat, dog])
        #expect(batch.values(forKey: "weight") == [])
        #expect(batch.values(forKey: "") == [])
    }

    @Test("batches with the same keys and items are equal")
    func equality() throws {
        var built = Batch(keys: ["image", "label"])
        try built.append(cat)
        try built.append(dog)
        let same = try Batch([cat, dog])
        let reversed = try Batch([dog, cat])
        #expect(built == same)
        #expect(built != reversed)
        #expect(Batch(keys: ["a", "b"]) != Batch(keys: ["b", "a"]))
    }

    // MARK: InMemoryBatchDataSource

    @Test("an in-memory source has the batch's keys, count and items")
    func inMemorySource() throws {
        let source = InMemoryBatchDataSource(try Batch([cat, dog, bird]))
        #expect(source.keys == ["image", "label"])
        #expect(source.count == 3)
        #expect(try source.item(at: 0) == cat)
        #expect(try source.item(at: 1) == dog)
        #expect(try source.item(at: 2) == bird)
    }

    @Test("an in-memory source over an empty batch has no items", arguments: [0, -1])
    func emptySource(index: Int) {
        let source = InMemoryBatchDataSource(Batch(keys: ["x"]))
        #expect(source.count == 0)
        #expect(source.keys == ["x"])
        expectTensorIOError(.invalidInput) { _ = try source.item(at: index) }
    }

    @Test("an index out of range throws invalidInput naming the index and the count", arguments: [-1, 3, 100])
    func outOfRange(index: Int) throws {
        let source = InMemoryBatchDataSource(try Batch([cat, dog, bird]))
        let error = expectTensorIOError(.invalidInput) { _ = try source.item(at: index) }
        #expect(error?.message.contains("item \(index)") == true, "\(String(describing: error))")
        #expect(error?.message.contains("3 items") == true, "\(String(describing: error))")
    }
}
