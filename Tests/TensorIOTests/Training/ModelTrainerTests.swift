import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

// MARK: - Test doubles

/// A trainable model that trains on nothing: it records every batch and placeholder dictionary it is
/// given and returns outputs the test chooses.
private final class RecordingModel: TrainableModel {
    struct Call {
        var batch: Batch
        var placeholders: [String: InputValue]
    }

    let bundle: ModelBundle
    let configuration = ModelConfiguration()
    /// The outputs of the n-th training call (from 1) on a batch.
    private let outputs: @Sendable (_ call: Int, _ batch: Batch) throws -> Outputs
    private let state = LockedBox((calls: [Call](), loaded: false, exports: [URL]()))

    init(outputs: @escaping @Sendable (_ call: Int, _ batch: Batch) throws -> Outputs = { _, _ in Outputs([]) }) throws {
        bundle = try Fixtures.bundle("1_in_1_out_number_test.tiobundle")
        self.outputs = outputs
    }

    var calls: [Call] { state.withLock { $0.calls } }
    var trainCount: Int { calls.count }
    /// The `index` values of every batch, in call order.
    var batchIndices: [[Int]] { calls.map { indices(in: $0.batch) } }

    var isLoaded: Bool { state.withLock { $0.loaded } }
    func load() throws { state.withLock { $0.loaded = true } }
    func unload() { state.withLock { $0.loaded = false } }
    func run(_ input: InputValue) throws -> Outputs { Outputs([]) }
    func tensorDescriptions() throws -> ModelTensors { ModelTensors(signature: nil, inputs: [], outputs: []) }

    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        let call = state.withLock { state in
            state.calls.append(Call(batch: batch, placeholders: placeholders))
            return state.calls.count
        }
        return try outputs(call, batch)
    }

    func export(to directory: URL) throws {
        state.withLock { $0.exports.append(directory) }
    }
}

/// Items `["index": i]` for i in 0..<count, counting how often each is fetched.
private struct CountingDataSource: BatchDataSource {
    let count: Int
    /// An index whose fetch throws, to see the error come through.
    var failingIndex: Int?
    let keys = ["index"]
    private let fetches: LockedBox<[Int]>

    init(count: Int, failingIndex: Int? = nil) {
        self.count = count
        self.failingIndex = failingIndex
        fetches = LockedBox([Int](repeating: 0, count: count))
    }

    var fetchCounts: [Int] { fetches.withLock { $0 } }

    func item(at index: Int) throws -> Batch.Item {
        if index == failingIndex { throw TensorIOError(.io, "item \(index) cannot be read") }
        fetches.withLock { $0[index] += 1 }
        return ["index": .numbers(.int([index]))]
    }
}

private func indices(in batch: Batch) -> [Int] {
    batch.values(forKey: "index").map { numbers(of: $0).map { Int($0[0]) } ?? -1 }
}

/// Splits the calls' batch indices into epochs of `batchesPerEpoch` batches, each flattened.
private func epochOrders(_ batches: [[Int]], batchesPerEpoch: Int) -> [[Int]] {
    stride(from: 0, to: batches.count, by: batchesPerEpoch).map {
        batches[$0..<min(batches.count, $0 + batchesPerEpoch)].flatMap { $0 }
    }
}

// MARK: - Tests

/// `ModelTrainer` with a recording model: batching, shuffling, placeholders, progress, cancellation and
/// bad arguments. The original's trainer test is the first: train count = epochs × ceil(n / batchSize),
/// each item fetched `epochs` times.
@Suite("Training: ModelTrainer")
struct ModelTrainerTests {
    @Test(
        "trains epochs × ceil(n / batchSize) times and fetches each item once per epoch",
        arguments: [(10, 3, 2), (9, 3, 2), (1, 32, 3), (5, 10, 1), (32, 32, 2), (33, 32, 2), (7, 1, 3)]
    )
    func trainCount(items: Int, batchSize: Int, epochs: Int) async throws {
        let model = try RecordingModel()
        let data = CountingDataSource(count: items)
        let trainer = ModelTrainer(model: model, data: data, epochs: epochs, batchSize: batchSize, shuffle: false)
        let summaries = try await trainer.train()

        let batchesPerEpoch = (items + batchSize - 1) / batchSize
        #expect(model.trainCount == epochs * batchesPerEpoch)
        #expect(data.fetchCounts == [Int](repeating: epochs, count: items))
        #expect(summaries.map(\.epoch) == Array(1...epochs))
        #expect(summaries.allSatisfy { $0.batchCount == batchesPerEpoch && $0.itemCount == items })

        // Every batch is full but the last of each epoch, which holds the rest.
        let lastSize = items - (batchesPerEpoch - 1) * batchSize
        let expectedSizes = [Int](repeating: batchSize, count: batchesPerEpoch - 1) + [lastSize]
        #expect(model.calls.map(\.batch.count) == Array([[Int]](repeating: expectedSizes, count: epochs).joined()))
        #expect(model.calls.allSatisfy { $0.batch.keys == ["index"] })
    }

    @Test("10 items in batches of 4: batches of 4, 4 and 2")
    func partialLastBatch() async throws {
        let model = try RecordingModel()
        try await ModelTrainer(model: model, data: CountingDataSource(count: 10), epochs: 1, batchSize: 4, shuffle: false).train()
        #expect(model.batchIndices == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
    }

    @Test("without shuffle every epoch visits the items in order 0..<n")
    func noShuffle() async throws {
        let model = try RecordingModel()
        try await ModelTrainer(
            model: model, data: CountingDataSource(count: 7), epochs: 3, batchSize: 3, shuffle: false, seed: 1
        ).train()
        let orders = epochOrders(model.batchIndices, batchesPerEpoch: 3)
        #expect(orders == [[Int]](repeating: Array(0..<7), count: 3))
    }

    @Test("with shuffle every epoch is a permutation, in a new order each epoch")
    func shuffleEveryEpoch() async throws {
        let model = try RecordingModel()
        let count = 20
        try await ModelTrainer(
            model: model, data: CountingDataSource(count: count), epochs: 4, batchSize: 6, shuffle: true, seed: 42
        ).train()
        let orders = epochOrders(model.batchIndices, batchesPerEpoch: 4)
        #expect(orders.count == 4)
        for order in orders {
            #expect(order.sorted() == Array(0..<count), "not a permutation: \(order)")
        }
        #expect(orders.contains { $0 != Array(0..<count) }, "never shuffled: \(orders)")
        // The original shuffled once per call, so every epoch saw the same order: this one reshuffles.
        for epoch in 1..<orders.count {
            #expect(orders[epoch] != orders[epoch - 1], "epochs \(epoch) and \(epoch + 1) have the same order")
        }
    }

    @Test("the same seed gives the same orders; another seed, other orders")
    func seededShuffle() async throws {
        func orders(seed: UInt64) async throws -> [[Int]] {
            let model = try RecordingModel()
            try await ModelTrainer(
                model: model, data: CountingDataSource(count: 16), epochs: 3, batchSize: 5, shuffle: true, seed: seed
            ).train()
            return model.batchIndices
        }
        let first = try await orders(seed: 7)
        let again = try await orders(seed: 7)
        let other = try await orders(seed: 8)
        #expect(first == again)
        #expect(first != other)
    }

    @Test("SplitMix64 gives the reference sequence (Vigna's splitmix64.c, seed 0 and 1234567)")
    func splitMix64() {
        var zero = SplitMix64(seed: 0)
        #expect([zero.next(), zero.next(), zero.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var other = SplitMix64(seed: 1_234_567)
        #expect([other.next(), other.next(), other.next()] == [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423])
    }

    @Test("the placeholders go with every training call")
    func placeholders() async throws {
        let model = try RecordingModel()
        let placeholders: [String: InputValue] = ["learning_rate": 0.1, "momentum": [0.9]]
        try await ModelTrainer(
            model: model, data: CountingDataSource(count: 5), epochs: 2, batchSize: 2, shuffle: true,
            placeholders: placeholders, seed: 3
        ).train()
        #expect(model.trainCount == 6)
        #expect(model.calls.allSatisfy { $0.placeholders == placeholders })
    }

    @Test("no placeholders: every call gets an empty dictionary")
    func noPlaceholders() async throws {
        let model = try RecordingModel()
        try await ModelTrainer(model: model, data: CountingDataSource(count: 3), epochs: 1, batchSize: 2).train()
        #expect(model.trainCount == 2)
        #expect(model.calls.allSatisfy { $0.placeholders.isEmpty })
    }

    @Test("progress: an event per batch, then one per epoch, in order; the summaries are the epoch events")
    func progressEvents() async throws {
        let model = try RecordingModel { call, _ in Outputs([Output(name: "loss", value: .numbers(.float64([Double(call)]), shape: []))]) }
        let events = LockedBox([String]())
        let epochEvents = LockedBox([TrainingEpoch]())
        let summaries = try await ModelTrainer(
            model: model, data: CountingDataSource(count: 5), epochs: 2, batchSize: 2, shuffle: false
        ).train { event in
            switch event {
            case .batch(let epoch, let batch, let batchCount, let outputs):
                let loss = (try? outputs["loss"].value(as: Double.self)) ?? .nan
                events.withLock { $0.append("batch \(epoch).\(batch)/\(batchCount) loss \(loss)") }
            case .epoch(let summary):
                events.withLock { $0.append("epoch \(summary.epoch)") }
                epochEvents.withLock { $0.append(summary) }
            }
        }
        #expect(events.withLock { $0 } == [
            "batch 1.1/3 loss 1.0", "batch 1.2/3 loss 2.0", "batch 1.3/3 loss 3.0", "epoch 1",
            "batch 2.1/3 loss 4.0", "batch 2.2/3 loss 5.0", "batch 2.3/3 loss 6.0", "epoch 2",
        ])
        #expect(epochEvents.withLock { $0 } == summaries)
    }

    @Test("an epoch's means average each single-number output over its batches (not its items)")
    func means() async throws {
        // 5 items in batches of 2: sizes 2, 2, 1. "size" averages to 5/3 over batches (1.8 over items).
        let model = try RecordingModel { call, batch in
            Outputs([
                Output(name: "loss", value: .numbers(.float64([Double(call)]), shape: [])),
                Output(name: "probabilities", value: .numbers(.float32([0.2, 0.3, 0.5]), shape: [3])),
                Output(name: "size", value: .numbers(.float32([Float(batch.count)]), shape: [1])),
                Output(name: "steps", value: .numbers(.int64([Int64(call * 10)]), shape: [1])),
            ])
        }
        let summaries = try await ModelTrainer(
            model: model, data: CountingDataSource(count: 5), epochs: 2, batchSize: 2, shuffle: true, seed: 9
        ).train()
        #expect(summaries.count == 2)
        // Only single numbers are averaged, in the outputs' order.
        #expect(summaries.map { $0.means.map(\.name) } == [["loss", "size", "steps"], ["loss", "size", "steps"]])
        #expect(summaries[0].mean("loss") == 2)  // (1 + 2 + 3) / 3
        #expect(summaries[1].mean("loss") == 5)  // (4 + 5 + 6) / 3
        #expect(isClose(summaries.compactMap { $0.mean("size") }, [5.0 / 3, 5.0 / 3], tolerance: 1e-12))
        #expect(summaries[0].mean("steps") == 20)
        #expect(summaries[1].mean("steps") == 50)
        #expect(summaries[0].mean("probabilities") == nil)
        #expect(summaries[0].mean("nothing") == nil)
        // The last batch's outputs are kept whole.
        #expect(try summaries[1].lastOutputs["loss"].value(as: Double.self) == 6)
        #expect(try summaries[1].lastOutputs["probabilities"].values(as: Float.self) == [0.2, 0.3, 0.5])
    }

    @Test("a task cancelled after the first batch throws CancellationError and trains no more")
    func cancellation() async throws {
        let model = try RecordingModel()
        let data = CountingDataSource(count: 10)
        let trainer = ModelTrainer(model: model, data: data, epochs: 3, batchSize: 2, shuffle: false)
        let task = Task {
            try await trainer.train { event in
                // The callback runs on the training task: cancel it there, after the first batch.
                if case .batch = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(model.trainCount == 1)
        #expect(data.fetchCounts == [1, 1] + [Int](repeating: 0, count: 8))
    }

    @Test("a task cancelled before training starts trains nothing")
    func cancelledBeforeStart() async throws {
        let model = try RecordingModel()
        let trainer = ModelTrainer(model: model, data: CountingDataSource(count: 4), epochs: 1, batchSize: 2)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await trainer.train()
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(model.trainCount == 0)
    }

    @Test(
        "epochs or a batch size below 1 throw invalidInput before any training",
        arguments: [(0, 4), (-1, 4), (1, 0), (1, -5)]
    )
    func badCounts(epochs: Int, batchSize: Int) async throws {
        let model = try RecordingModel()
        let data = CountingDataSource(count: 4)
        let error = await #expect(throws: TensorIOError.self) {
            try await ModelTrainer(model: model, data: data, epochs: epochs, batchSize: batchSize).train()
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains(epochs < 1 ? "epochs" : "batch size") == true, "\(String(describing: error))")
        #expect(model.trainCount == 0)
        #expect(data.fetchCounts == [0, 0, 0, 0])
    }

    @Test("an empty data source throws invalidInput")
    func emptySource() async throws {
        let model = try RecordingModel()
        let error = await #expect(throws: TensorIOError.self) {
            try await ModelTrainer(model: model, data: InMemoryBatchDataSource(Batch(keys: ["x"])), epochs: 1, batchSize: 1).train()
        }
        #expect(error?.code == .invalidInput)
        #expect(model.trainCount == 0)
    }

    @Test("an error reading an item comes through, and training stops")
    func dataSourceError() async throws {
        let model = try RecordingModel()
        let error = await #expect(throws: TensorIOError.self) {
            try await ModelTrainer(
                model: model, data: CountingDataSource(count: 6, failingIndex: 3), epochs: 2, batchSize: 2, shuffle: false
            ).train()
        }
        #expect(error?.code == .io)
        #expect(error?.message.contains("item 3") == true)
        #expect(model.trainCount == 1)
    }

    @Test("an error from the model comes through, and training stops")
    func modelError() async throws {
        let model = try RecordingModel { call, _ in
            if call == 2 { throw TensorIOError(.runtimeFailure, "step 2 failed") }
            return Outputs([])
        }
        let error = await #expect(throws: TensorIOError.self) {
            try await ModelTrainer(model: model, data: CountingDataSource(count: 6), epochs: 3, batchSize: 2).train()
        }
        #expect(error?.code == .runtimeFailure)
        #expect(model.trainCount == 2)
    }

    @Test("an in-memory source trains on its items, keys and values intact")
    func inMemoryItems() async throws {
        let model = try RecordingModel()
        let batch = try Batch([["x": [1, 2], "y": 0], ["x": [3, 4], "y": 1], ["x": [5, 6], "y": 0]])
        try await ModelTrainer(model: model, data: InMemoryBatchDataSource(batch), epochs: 1, batchSize: 2, shuffle: false).train()
        #expect(model.calls.map(\.batch) == [try Batch([batch[0], batch[1]]), try Batch([batch[2]])])
    }
}

/// `ModelTrainer` driving real models, against the figures their generating scripts measured.
@Suite("Training: ModelTrainer on real models")
struct ModelTrainerRealModelTests {
    @Test("TensorFlow linear regression: the README's losses, one step per epoch at learning rate 0.1")
    func tensorFlowLinear() async throws {
        let bundle = try ModelBundle(at: Fixtures.tensorFlowURL("tf_trainable_linear_test.tiobundle"))
        let model = try #require(try bundle.makeModel() as? any TrainableModel)
        let batch = try Batch((1...4).map { x in ["x": .numbers(.float64([Double(x)])), "y": .numbers(.float64([Double(2 * x + 1)]))] })
        let summaries = try await ModelTrainer(
            model: model, data: InMemoryBatchDataSource(batch), epochs: 10, batchSize: 4, shuffle: false,
            placeholders: ["learning_rate": 0.1]
        ).train()
        let expected = [41.0, 18.414999, 8.274352, 3.721012, 1.676291, 0.757917, 0.345272, 0.159708, 0.076116, 0.038325]
        let losses = summaries.compactMap { $0.mean("loss") }
        #expect(losses.count == 10)
        #expect(zip(losses, expected).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, $1) }, "\(losses)")
        #expect(summaries.map { $0.means.map(\.name) }.allSatisfy { $0 == ["loss"] })
    }

    @Test("TensorFlow Lite digits: the first batch of 32 gives loss 2.4756010, then 2.2332301")
    func tensorFlowLiteDigits() async throws {
        let bundle = try TrainingFixtures.digitsBundle("digits-train-tflite.tiobundle")
        let model = try #require(try bundle.makeModel() as? any TrainableModel)
        let source = try JSONDataSource(contentsOf: TrainingFixtures.digitsData("train.json"), layers: bundle.inputs)
        let firstBatch = try Batch((0..<32).map { try source.item(at: $0) })
        let summaries = try await ModelTrainer(
            model: model, data: InMemoryBatchDataSource(firstBatch), epochs: 2, batchSize: 32, shuffle: false
        ).train()
        let losses = summaries.compactMap { $0.mean("loss") }
        #expect(isClose(losses, [2.4756010, 2.2332301], tolerance: 1e-6), "\(losses)")
    }
}
