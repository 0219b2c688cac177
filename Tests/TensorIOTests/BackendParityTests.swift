import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The same graphs through both backends: the original's integration tests on the bundles that exist for
/// LiteRT (`Tests/Fixtures/Bundles`) and for TensorFlow (`Tests/Fixtures/TensorFlowBundles`), one test a
/// behaviour, each run on both (``Fixtures/Backend``). What only one backend does stays in
/// `IntegrationTests` and `TensorFlowIntegrationTests`.
@Suite("Backend parity: LiteRT and TensorFlow")
struct BackendParityTests {
    /// The engine type each backend's models run on.
    static func expectEngine(_ model: any Model, _ backend: Fixtures.Backend, sourceLocation: SourceLocation = #_sourceLocation) {
        switch backend {
        case .liteRT: #expect(model.backendEngine is LiteRTEngine, sourceLocation: sourceLocation)
        case .tensorFlow: #expect(model.backendEngine is TensorFlowEngine, sourceLocation: sourceLocation)
        }
    }

    // MARK: - Number

    @Test("number model 2 → 25, as a number, bytes, an array or a dictionary; float32, int32 and int64",
          arguments: Fixtures.Backend.allCases,
          ["1_in_1_out_number_test.tiobundle", "1_in_1_out_number_int32_test.tiobundle", "1_in_1_out_number_int64_test.tiobundle"])
    func numberTypes(_ backend: Fixtures.Backend, _ name: String) throws {
        let model = try backend.model(name)
        Self.expectEngine(model, backend)
        for input: any ModelInput in [2, [2], ["input": 2] as [String: Int]] {
            #expect(try model.run(input)["output"].value(as: Double.self) == 25)
        }
        #expect(try model.run(-3)["output"].value(as: Double.self) == -25)
        let bytes: Data = switch name {
        case "1_in_1_out_number_int32_test.tiobundle": withUnsafeBytes(of: Int32(2).littleEndian) { Data($0) }
        case "1_in_1_out_number_int64_test.tiobundle": withUnsafeBytes(of: Int64(2).littleEndian) { Data($0) }
        default: withUnsafeBytes(of: Float(2).bitPattern.littleEndian) { Data($0) }
        }
        #expect(try model.run(bytes)["output"].value(as: Double.self) == 25)
        // Integer models answer with integers.
        if name.contains("int") {
            #expect(try model.run(2)["output"].value(as: Int64.self) == 25)
        }
    }

    @Test("number model: 2 as a number, float bytes, [2] or [\"input\": 2] → 25", arguments: Fixtures.Backend.allCases, [
        2, 2.0, Float(2), Data(float32LittleEndian: [2]), [2], ["input": 2] as [String: Int],
        ["input": Data(float32LittleEndian: [2])] as [String: Data],
    ] as [any ModelInput])
    func numberInputs(_ backend: Fixtures.Backend, _ input: any ModelInput) throws {
        let model = try backend.model("1_in_1_out_number_test.tiobundle")
        let outputs = try model.run(input)
        let output = try outputs["output"]
        #expect(output.value == .numbers(.float32([25]), shape: [1]))
        #expect(try output.value(as: Float.self) == 25)
        #expect(try output.value(as: Int.self) == 25)
        #expect(try output.values(as: Double.self) == [25])
        #expect(throws: TensorIOError.self) { try output.labeled }
    }

    @Test("the original's scalar bundle (Tensor/IO 1.2): 2 → 25, read as a number", arguments: Fixtures.Backend.allCases)
    func scalarBundle(_ backend: Fixtures.Backend) throws {
        let model = try backend.model("scalar_test.tiobundle")
        #expect(model.inputs[0].kind == .scalar())
        #expect(try model.run(2)["output"].value(as: Double.self) == 25)
        #expect(try model.run(["input": 2])["output"].value(as: Double.self) == 25)
        #expect(try model.run(["input": [2]])["output"].value(as: Double.self) == 25)
        let error = #expect(throws: TensorIOError.self) { try model.run([2, 3]) }
        #expect(error?.code == .invalidInput)
    }

    // MARK: - Vectors, matrices, tensors

    @Test("vectors model: [1, 2, 3, 4] → [2, 2, 4, 4]", arguments: Fixtures.Backend.allCases)
    func vectors(_ backend: Fixtures.Backend) throws {
        let model = try backend.model("1_in_1_out_vectors_test.tiobundle")
        let output = try model.run([1, 2, 3, 4])["output"]
        #expect(output.value == .numbers(.float32([2, 2, 4, 4]), shape: [4]))
        #expect(try output.shape == [4])
        #expect(try output.values(as: Float.self) == [2, 2, 4, 4])
        #expect(try output.values(as: Double.self) == [2, 2, 4, 4])
        let single = #expect(throws: TensorIOError.self) { try output.value(as: Float.self) }
        #expect(single?.code == .outputMismatch)
        #expect(single?.description.contains("output \"output\"") == true)
    }

    @Test("2×2 vectors model: values by position, bytes per input, or a dictionary → 240 and 64",
          arguments: Fixtures.Backend.allCases, [
        InputValue.positional([[1, 2, 3, 4], [10, 20, 30, 40]]),
        InputValue.positional([[[1, 2, 3, 4]], [[10, 20, 30, 40]]]),
        [Data(float32LittleEndian: [1, 2, 3, 4]), Data(float32LittleEndian: [10, 20, 30, 40])],
        ["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]] as [String: [Float]],
        ["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]] as [String: [Int]],
        ["input2": Data(float32LittleEndian: [10, 20, 30, 40]), "input1": Data(float32LittleEndian: [1, 2, 3, 4])],
        InputValue.positional([[1, 2, 3, 4], .bytes(Data(float32LittleEndian: [10, 20, 30, 40]))]),
    ] as [any ModelInput])
    func twoByTwoVectors(_ backend: Fixtures.Backend, _ input: any ModelInput) throws {
        let model = try backend.model("2_in_2_out_vectors_test.tiobundle")
        let outputs = try model.run(input)
        #expect(outputs.names == ["output1", "output2"])
        #expect(try outputs["output1"].value(as: Double.self) == 240)
        #expect(try outputs["output2"].value(as: Double.self) == 64)
    }

    @Test("matrices model: rows scaled by 10ⁿ", arguments: Fixtures.Backend.allCases)
    func matrices(_ backend: Fixtures.Backend) throws {
        let model = try backend.model("2_in_2_out_matrices_test.tiobundle")
        let scales: [Float] = [1, 10, 100, 1000]
        let x = scales.map { s in [1, 2, 3, 4].map { Float($0) * s } }
        let y = scales.map { s in [5, 6, 7, 8].map { Float($0) * s } }
        let outputs = try model.run(["input1": x, "input2": y])

        let output1 = try outputs["output1"]
        let output2 = try outputs["output2"]
        #expect((try output1.shape) == [4, 4])
        #expect((try output2.shape) == [4, 4])
        #expect((try output1.values(as: Float.self)) == [
            56, 72, 56, 72,
            5600, 7200, 5600, 7200,
            560_000, 720_000, 560_000, 720_000,
            56_000_000, 72_000_000, 56_000_000, 72_000_000,
        ])
        #expect((try output2.values(as: Float.self)) == [
            18, 18, 18, 18,
            180, 180, 180, 180,
            1800, 1800, 1800, 1800,
            18000, 18000, 18000, 18000,
        ])
        // The same values by position, in model.json order.
        #expect(try model.run(.positional([x.inputValue, y.inputValue])) == outputs)
    }

    @Test("tensors model: slice i gets + (i + 1)", arguments: Fixtures.Backend.allCases)
    func tensors(_ backend: Fixtures.Backend) throws {
        let model = try backend.model("1_in_1_out_tensors_test.tiobundle")
        var input: [Float] = []
        var expected: [Float] = []
        for (i, scale) in [Float(1), 10, 100].enumerated() {
            for n in 1...9 {
                input.append(Float(n) * scale)
                expected.append(Float(n) * scale + Float(i + 1))
            }
        }
        let output = try model.run(input)["output"]
        #expect((try output.shape) == [3, 3, 3])
        #expect((try output.values(as: Float.self)) == expected)
        #expect(Array((try output.values(as: Float.self))[9..<18]) == [12, 22, 32, 42, 52, 62, 72, 82, 92])
        #expect((try output.values(as: Float.self)).last == 903)
    }

    // MARK: - Lifecycle and concurrency

    @Test("load, unload and isLoaded; a run loads the model, and after unload loads it again", arguments: Fixtures.Backend.allCases)
    func lifecycle(_ backend: Fixtures.Backend) throws {
        let model = try backend.model("1_in_1_out_number_test.tiobundle")
        #expect(!model.isLoaded, "makeModel does not load")
        #expect(try model.run(2)["output"].value(as: Double.self) == 25)
        #expect(model.isLoaded, "a run loads the model")
        model.unload()
        #expect(!model.isLoaded)
        try model.load()
        #expect(model.isLoaded)
        try model.load()  // idempotent
        #expect(model.isLoaded)
        #expect(try model.run(1)["output"].value(as: Double.self) == 15)
        model.unload()
        #expect(!model.isLoaded)
        model.unload()  // idempotent
        #expect(try model.run(3)["output"].value(as: Double.self) == 35)
        #expect(model.isLoaded)
    }

    @Test("concurrent runs on one model all get their own answers", arguments: Fixtures.Backend.allCases)
    func concurrentRuns(_ backend: Fixtures.Backend) async throws {
        let model = try backend.model("1_in_1_out_number_test.tiobundle")
        try await withThrowingTaskGroup(of: (Int, Double?).self) { group in
            for value in 0..<32 {
                group.addTask { (value, try model.run(value)["output"].value(as: Double.self)) }
            }
            for try await (value, output) in group {
                #expect(output == Double(10 * value + 5))
            }
        }
    }
}
