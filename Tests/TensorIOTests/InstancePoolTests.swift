import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The instance pool on its own, with a fake engine whose instances notice being used by two runs at
/// once. The Makefile runs this suite under the thread sanitizer too: the pool hands slots over with
/// atomics instead of a lock, and the sanitizer checks that each holder's writes reach the next one.
@Suite("Concurrency: the instance pool")
struct InstancePoolTests {
    /// Counts loads, and runs in progress on each instance.
    final class Engine: BackendEngine, @unchecked Sendable {
        let maximumInstances: Int
        let failFirstLoad: Bool
        private let lock = NSLock()
        private var loads = 0

        init(maximumInstances: Int, failFirstLoad: Bool = false) {
            self.maximumInstances = maximumInstances
            self.failFirstLoad = failFirstLoad
        }

        var instancesRunConcurrently: Bool { false }

        var loadCount: Int { lock.withLock { loads } }

        func makeInstance() throws -> any BackendInstance {
            let count = lock.withLock {
                loads += 1
                return loads
            }
            if failFirstLoad, count == 1 { throw TensorIOError(.runtimeFailure, "the first load fails") }
            return Instance(serial: count)
        }
    }

    final class Instance: BackendInstance {
        /// Which load made it (a freed instance's address may be reused, so identity is not enough).
        let serial: Int
        /// Plain, unsynchronised state: two runs on one instance at once would race here (the
        /// sanitizer reports it) and show up as a count above one.
        var running = 0
        var mostAtOnce = 0
        var runs = 0

        init(serial: Int) { self.serial = serial }

        var tensors: ModelTensors { ModelTensors(signature: nil, inputs: [], outputs: []) }

        func run(_ inputs: PreparedInputs, placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs {
            Outputs([])
        }

        func use() {
            running += 1
            mostAtOnce = max(mostAtOnce, running)
            runs += 1
            running -= 1
        }
    }

    @Test("4 threads × 2,000 runs on 1, 2 and 4 slots: never two runs on one instance, never more loads than slots",
          arguments: [1, 2, 4])
    func exclusiveUse(slots: Int) throws {
        let engine = Engine(maximumInstances: slots)
        let pool = InstancePool(engine: engine)
        let seen = LockedBox<[ObjectIdentifier: Instance]>([:])
        let failures = LockedBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                do {
                    try pool.withInstance { instance in
                        let instance = instance as! Instance
                        instance.use()
                        seen.withLock { $0[ObjectIdentifier(instance)] = instance }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(engine.loadCount <= slots)
        let instances = seen.withLock { Array($0.values) }
        #expect(instances.count <= slots)
        #expect(instances.map(\.runs).reduce(0, +) == 8_000)
        #expect(instances.allSatisfy { $0.mostAtOnce == 1 })
    }

    @Test("a failed load frees its slot: the next run loads again")
    func failedLoad() throws {
        let engine = Engine(maximumInstances: 1, failFirstLoad: true)
        let pool = InstancePool(engine: engine)
        #expect(throws: TensorIOError.self) { try pool.withInstance { _ in } }
        #expect(!pool.isLoaded)
        try pool.withInstance { _ in }
        #expect(pool.isLoaded)
        #expect(engine.loadCount == 2)
    }

    @Test("drain drops idle instances at once and busy ones when their run ends")
    func drain() throws {
        let engine = Engine(maximumInstances: 2)
        let pool = InstancePool(engine: engine)
        let busy = try pool.acquire()
        let busySerial = busy.withInstance { ($0 as! Instance).serial }
        try pool.withInstance { _ in }  // a second instance, idle afterwards
        #expect(engine.loadCount == 2)
        pool.drain()
        #expect(!pool.isLoaded)
        pool.release(busy)  // from the old generation: dropped, its slot empty
        let first = try pool.acquire()
        let second = try pool.acquire()
        #expect(engine.loadCount == 4)
        // Both loaded anew (serials 3 and 4): the drained ones are not handed out again.
        #expect(Set([first, second].map { lease in lease.withInstance { ($0 as! Instance).serial } }) == [3, 4])
        #expect(busySerial == 1)
        pool.release(first)
        pool.release(second)
        #expect(pool.isLoaded)
    }

    @Test("a run waiting for the only slot gets it when the holder gives it back")
    func waiting() async throws {
        let pool = InstancePool(engine: Engine(maximumInstances: 1))
        let held = try pool.acquire()
        let waiter = Task.detached { try pool.withInstance { $0 as! Instance }.runs }
        try await Task.sleep(for: .milliseconds(50))
        held.withInstance { ($0 as! Instance).use() }
        pool.release(held)
        #expect(try await waiter.value == 1)
    }
}
