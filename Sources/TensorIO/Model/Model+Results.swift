import Foundation

extension Model {
    /// Runs the model on many items with every core busy, giving each item's result in item order.
    ///
    /// Up to `concurrency` items are in flight at once, each on one of TensorIO's run threads: `input`
    /// makes the item's value there (decoding an image file, say) and the model runs on it, so the
    /// preparation of some items overlaps the inference of others. The calling task only receives
    /// results; Swift's cooperative pool stays free. For runs to overlap as well, build the model with
    /// ``ModelConfiguration/maximumConcurrentRuns`` of at least `concurrency` (LiteRT models; a
    /// TensorFlow session takes concurrent runs as it is).
    ///
    /// ```swift
    /// let configuration = ModelConfiguration(maximumConcurrentRuns: 2)
    /// let model = try bundle.makeModel(configuration: configuration)
    /// let files: [URL] = …
    /// var index = 0
    /// for await result in model.results(for: files, concurrency: 2, input: { url in
    ///     .image(try PixelBuffer(contentsOf: url, targetSize: ImageSize(width: 224, height: 224)))
    /// }) {
    ///     print(files[index].lastPathComponent, try result.get()["probabilities"].labeled.top(1))
    ///     index += 1
    /// }
    /// ```
    ///
    /// A failing item (an unreadable file, a value that does not fit) gives its error in its place and the
    /// others go on. Ending the iteration early, or cancelling the iterating task, stops taking new items.
    ///
    /// - Parameters:
    ///   - items: The items, in the order their results are wanted.
    ///   - concurrency: How many items may be in flight at once; `nil` for one per active core.
    ///   - input: Makes an item's value for the model; runs on TensorIO's threads, concurrently for
    ///     different items.
    /// - Returns: One result per item, in item order, each yielded as soon as it and every earlier one are
    ///   ready.
    public func results<Items: Sequence & Sendable>(
        for items: Items,
        concurrency: Int? = nil,
        input: @escaping @Sendable (Items.Element) throws -> InputValue
    ) -> AsyncStream<Result<Outputs, any Error>> where Items.Element: Sendable {
        results(for: items, concurrency: concurrency) { item in try self.run(try input(item)) }
    }

    /// Does `work` on many items with every core busy, giving each item's result in item order: what
    /// ``results(for:concurrency:input:)`` does for runs, for any work that runs this model — a detection
    /// call on a decoded photo, say.
    ///
    /// ```swift
    /// for await result in model.results(for: files, concurrency: 2, perform: { url in
    ///     try model.detect(contentsOf: url)
    /// }) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - items: The items, in the order their results are wanted.
    ///   - concurrency: How many items may be in flight at once; `nil` for one per active core.
    ///   - work: What to do with an item; runs on TensorIO's threads, concurrently for different items.
    /// - Returns: One result per item, in item order, each yielded as soon as it and every earlier one are
    ///   ready.
    public func results<Items: Sequence & Sendable, Value: Sendable>(
        for items: Items,
        concurrency: Int? = nil,
        perform work: @escaping @Sendable (Items.Element) throws -> Value
    ) -> AsyncStream<Result<Value, any Error>> where Items.Element: Sendable {
        let width = max(1, concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        return AsyncStream { continuation in
            let feeder = Task {
                await withTaskGroup(of: (Int, Result<Value, any Error>).self) { group in
                    var iterator = items.makeIterator()
                    var nextIndex = 0
                    func startNext() -> Bool {
                        guard !Task.isCancelled, let item = iterator.next() else { return false }
                        let index = nextIndex
                        nextIndex += 1
                        group.addTask {
                            let result = await Result(catching: {
                                try await RunThreads.shared.perform { _ in try work(item) }
                            })
                            return (index, result)
                        }
                        return true
                    }
                    for _ in 0..<width {
                        guard startNext() else { break }
                    }
                    // Results finish in any order; they are yielded in item order.
                    var ready: [Int: Result<Value, any Error>] = [:]
                    var nextToYield = 0
                    for await (index, result) in group {
                        ready[index] = result
                        while let result = ready.removeValue(forKey: nextToYield) {
                            continuation.yield(result)
                            nextToYield += 1
                        }
                        _ = startNext()
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in feeder.cancel() }
        }
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
