import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Models shared between tasks and threads. The Makefile runs this suite under the thread sanitizer:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter "ConcurrencyTests|AsyncRunTests"`.
///
/// Each run's result is checked exactly, so a run that read another run's input or output shows up as a
/// wrong value even without the sanitizer. Mismatches are collected and checked once per test, so a
/// failure lists what went wrong instead of flooding the log.
@Suite("Concurrency")
struct ConcurrencyTests {
    static let number = "1_in_1_out_number_test.tiobundle"
    static let twoInputs = "2_in_2_out_vectors_test.tiobundle"

    /// Runs the number model on `x` and returns a description of the problem, or nil when it gave 10x + 5.
    static func checkNumber(_ model: any Model, _ x: Int) -> String? {
        do {
            let output = try model.run(Float(x))["output"].value
            let expected = Output.Value.numbers(.float32([Float(10 * x + 5)]), shape: [1])
            return output == expected ? nil : "\(x) → \(output), expected \(expected)"
        } catch {
            return "\(x) → \(error)"
        }
    }

    /// Runs the 2×2 vectors model and returns a description of the problem, or nil when both outputs are
    /// right. input1 = [a, 7, c, 9] and input2 = [11, f, 13, h]: s1 = a + c, s2 = f + h.
    static func checkTwoInputs(_ model: any Model, _ task: Int, _ i: Int) -> String? {
        let a = Float(task), c = Float(i), f = Float(i % 17), h = Float(task + 1)
        do {
            let outputs = try model.run(["input1": [a, 7, c, 9], "input2": [11, f, 13, h]])
            let s1 = Double(a + c), s2 = Double(f + h)
            let expected1 = Output.Value.numbers(.float32([Float(s1 * s2)]), shape: [1, 1])
            let expected2 = Output.Value.numbers(.float32([Float(s1 + s2)]), shape: [1, 1])
            guard try outputs["output1"].value == expected1, try outputs["output2"].value == expected2 else {
                return "task \(task) run \(i) → \(Array(outputs)), expected \(expected1) and \(expected2)"
            }
            return nil
        } catch {
            return "task \(task) run \(i) → \(error)"
        }
    }

    @Test("one number model shared by 8 tasks × 250 runs, each result exactly 10x + 5", arguments: [1, 2])
    func sharedNumberModel(threadCount: Int) async throws {
        let model = try Fixtures.model(Self.number, configuration: ModelConfiguration(threadCount: threadCount))
        let (runs, problems) = await withTaskGroup(of: (Int, [String]).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var problems: [String] = []
                    for i in 0..<250 {
                        if let problem = Self.checkNumber(model, task * 1000 + i) { problems.append(problem) }
                    }
                    return (250, problems)
                }
            }
            var runs = 0
            var problems: [String] = []
            for await (count, found) in group {
                runs += count
                problems += found
            }
            return (runs, problems)
        }
        #expect(runs == 2000)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("one 2-in-2-out model shared by 8 tasks × 250 runs")
    func sharedTwoInputModel() async throws {
        let model = try Fixtures.model(Self.twoInputs)
        let problems = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<250).compactMap { Self.checkTwoInputs(model, task, $0) }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("one model shared by 8 OS threads × 250 runs")
    func sharedModelOnThreads() throws {
        let model = try Fixtures.model(Self.number)
        let problems = LockedBox<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<8 {
            done.enter()
            let worker = Thread {
                for i in 0..<250 {
                    if let problem = Self.checkNumber(model, 10_000 + thread * 1000 + i) {
                        problems.withLock { $0.append(problem) }
                    }
                }
                done.leave()
            }
            worker.start()
        }
        done.wait()
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.prefix(10))")
    }

    @Test("a pool of 3 compiled models shared by 8 tasks, with unload() in between")
    func pooledModel() async throws {
        let model = try Fixtures.model(Self.number, configuration: ModelConfiguration(maximumConcurrentRuns: 3))
        let problems = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<250).compactMap { Self.checkNumber(model, task * 1000 + $0) }
                }
            }
            group.addTask {
                for _ in 0..<20 {
                    model.unload()
                    await Task.yield()
                }
                return []
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        #expect(try await model.run(Float(4))["output"].value(as: Double.self) == 45)
        #expect(model.isLoaded)
        model.unload()
        #expect(!model.isLoaded)
    }

    @Test("runs interleaved with unload() and load() from other tasks")
    func runsDuringUnloadAndLoad() async throws {
        let model = try Fixtures.model(Self.number)
        let twoInputs = try Fixtures.model(Self.twoInputs)
        let problems = await withTaskGroup(of: [String].self) { group in
            for task in 0..<6 {
                group.addTask {
                    var problems: [String] = []
                    for i in 0..<200 {
                        if let problem = Self.checkNumber(model, task * 1000 + i) { problems.append(problem) }
                        if i % 4 == 0, let problem = Self.checkTwoInputs(twoInputs, task, i) { problems.append(problem) }
                    }
                    return problems
                }
            }
            for cycler in 0..<2 {
                group.addTask {
                    var problems: [String] = []
                    for round in 0..<100 {
                        let target: any Model = round % 2 == 0 ? model : twoInputs
                        target.unload()
                        await Task.yield()
                        if round % 3 == cycler {
                            do { try target.load() } catch { problems.append("load: \(error)") }
                        }
                        _ = target.isLoaded
                        if round % 10 == 0 {
                            do {
                                let tensors = try target.tensorDescriptions()
                                if tensors.signature != "serving_default" { problems.append("signature \(String(describing: tensors.signature))") }
                            } catch {
                                problems.append("tensorDescriptions: \(error)")
                            }
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        // Still usable afterwards, loaded or not.
        #expect(Self.checkNumber(model, 42) == nil)
        #expect(Self.checkTwoInputs(twoInputs, 3, 4) == nil)
    }

    @Test("different models run side by side, each loading on first use")
    func differentModelsSideBySide() async throws {
        let cases: [(bundle: String, input: [Float], expected: Output.Value)] = [
            (Self.number, [2], .numbers(.float32([25]), shape: [1])),
            ("1_in_1_out_vectors_test.tiobundle", [1, 2, 3, 4], .numbers(.float32([2, 2, 4, 4]), shape: [4])),
            ("1_in_1_out_number_int32_test.tiobundle", [2], .numbers(.int32([25]), shape: [1])),
            ("1_in_1_out_number_int64_test.tiobundle", [2], .numbers(.int64([25]), shape: [1])),
            ("quantized_uint8_raw_test.tiobundle", [0, 64, 128, 255], .numbers(.uint8([85, 128, 170, 255]), shape: [4])),
            ("output_types_test.tiobundle", [-1, 0, 2, 100], .numbers(.int8([-1, 0, 2, 100]), shape: [4])),
        ]
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for testCase in cases {
                // Two models of each bundle, so the same model file is compiled twice concurrently.
                for copy in 0..<2 {
                    let model = try Fixtures.model(testCase.bundle)
                    group.addTask {
                        var problems: [String] = []
                        for run in 0..<100 {
                            do {
                                let outputs = try model.run(testCase.input)
                                if outputs[0].value != testCase.expected {
                                    problems.append("\(testCase.bundle) #\(copy) run \(run): \(outputs[0].value)")
                                }
                            } catch {
                                problems.append("\(testCase.bundle) #\(copy) run \(run): \(error)")
                            }
                        }
                        return problems
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("bundles open, and models are registered and built with registries of their own, from many tasks at once")
    func bundlesAndRegistryConcurrently() async throws {
        let problems = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var problems: [String] = []
                    var registry = ModelRegistry.builtIn
                    registry.register(modelClass: "ConcurrencyTests.Echo\(task)") { bundle, configuration in
                        EchoModel(bundle: bundle, configuration: configuration)
                    }
                    if registry.modelClassNames != ["ConcurrencyTests.Echo\(task)"] {
                        problems.append("registry \(task): \(registry.modelClassNames)")
                    }
                    for name in Fixtures.validBundles {
                        do {
                            let model = try Fixtures.bundle(name).makeModel(registry: registry)
                            if name == Self.number, let problem = Self.checkNumber(model, task) {
                                problems.append(problem)
                            }
                        } catch {
                            problems.append("\(name): \(error)")
                        }
                    }
                    do {
                        _ = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
                    } catch {
                        problems.append("manager: \(error)")
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        #expect(ModelRegistry.builtIn.modelClassNames.isEmpty)
    }

    @Test("a placeholder model shared between tasks")
    func placeholderConcurrently() async throws {
        let model = try Fixtures.model("placeholder.tiobundle")
        let problems = await withTaskGroup(of: [String].self) { group in
            for task in 0..<4 {
                group.addTask {
                    var problems: [String] = []
                    for i in 0..<200 {
                        if task == 0, i % 2 == 0 { model.unload() }
                        do {
                            if try !model.run(i).isEmpty { problems.append("outputs from a placeholder") }
                        } catch {
                            problems.append("\(error)")
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }
}
