import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `model.results(for:concurrency:input:)`: many items with every core busy, results in item order.
@Suite("Concurrency: results over many items")
struct ModelResultsTests {
    struct Bad: Error {}

    @Test("300 items, 4 in flight on 2 compiled models: every result exact and in item order")
    func orderKept() async throws {
        let model = try Fixtures.model(
            "1_in_1_out_number_test.tiobundle", configuration: ModelConfiguration(maximumConcurrentRuns: 2)
        )
        var received: [Float] = []
        for await result in model.results(for: 0..<300, concurrency: 4, input: { .numbers(.float32([Float($0)])) }) {
            received.append(try result.get()["output"].value(as: Float.self))
        }
        let expected: [Float] = (0..<300).map { (x: Int) -> Float in Float(10 * x + 5) }
        #expect(received == expected)
    }

    @Test("an item whose input fails gives its error in its place; the others go on")
    func failuresInPlace() async throws {
        let model = try Fixtures.model("1_in_1_out_number_test.tiobundle")
        var outcomes: [String] = []
        for await result in model.results(for: [1, 2, -1, 4, 5], concurrency: 3, input: { x in
            guard x >= 0 else { throw Bad() }
            return [Float(x)].inputValue
        }) {
            switch result {
            case .success(let outputs): outcomes.append(String(try outputs["output"].value(as: Int.self)))
            case .failure(let error): outcomes.append(error is Bad ? "bad" : "\(error)")
            }
        }
        #expect(outcomes == ["15", "25", "bad", "45", "55"])

        // A value that does not fit the model is that item's error too.
        var errors: [TensorIOError] = []
        for await result in model.results(for: [[Float(1)], [1, 2]], concurrency: 2, input: { $0.inputValue }) {
            if case .failure(let error as TensorIOError) = result { errors.append(error) }
        }
        #expect(errors.map(\.code) == [.invalidInput])
    }

    @Test("stopping the iteration early stops taking items")
    func earlyEnd() async throws {
        let model = try Fixtures.model("1_in_1_out_number_test.tiobundle")
        let started = LockedBox(0)
        var seen = 0
        for await _ in model.results(for: 0..<10_000, concurrency: 2, input: { x in
            started.withLock { $0 += 1 }
            return [Float(x)].inputValue
        }) {
            seen += 1
            if seen == 3 { break }
        }
        // Items already in flight may finish; no more are started once the stream ends.
        try await Task.sleep(for: .milliseconds(100))
        let afterEnd = started.value
        try await Task.sleep(for: .milliseconds(100))
        #expect(started.value == afterEnd)
        #expect(afterEnd < 100, "\(afterEnd) items were started")
    }

    @Test("an empty sequence finishes at once")
    func empty() async throws {
        let model = try Fixtures.model("1_in_1_out_number_test.tiobundle")
        var count = 0
        for await _ in model.results(for: [Int](), input: { [Float($0)].inputValue }) { count += 1 }
        #expect(count == 0)
    }
}
