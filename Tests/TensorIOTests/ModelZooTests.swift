import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
import TensorIOTestSupport

/// The model zoo: every pinned `.tflite` of the test data's `task-models/` (``TestData``) and of the pinned `mediapipe==0.10.21` wheel's
/// `mediapipe/modules/`, run in-process through TensorIO on fixed random inputs and compared, element for
/// element, with Python's `ai_edge_litert` Interpreter on the same inputs (Tests/Fixtures/README.md, "The model zoo").
///
/// `scripts/zoo/reference.py` (in `.venv-zoo`, which `make setup-zoo` installs) writes the inputs and
/// Python's outputs into `.build/zoo/reference/`; each model is then one case here:
/// `ModelBundle(modelAt:, registry: .everyTask)`, `makeModel()`, its inputs fed by layer name as raw tensor bytes, every output
/// read back as raw numbers and compared with Python's: the same shape and element type, integers exactly,
/// floats within |a − b| ≤ 1e-5 × max(1, |b|) (b: Python's value). A model Python cannot load or run
/// (custom ops it lacks) must fail in TensorIO with a ``TensorIOError`` too, not crash the process.
///
/// Each case prints one line of the table to stdout (`model-zoo | model | outputs | max abs | max rel |
/// result`), so the run log shows how close every model came.
@Suite("Model zoo: TensorIO against Python's ai_edge_litert")
struct ModelZooTests {
    @Test("the Task Library's models: outputs equal Python's", TestData.required(ModelZoo.pinnedModels),
          arguments: try ModelZoo.models().filter { TestData.isPinned($0.name) })
    func taskModelMatchesPython(_ model: ModelZoo.Model) throws {
        try matchesPython(model)
    }

    @Test("the MediaPipe wheel's models: outputs equal Python's", arguments: try ModelZoo.models().filter { !TestData.isPinned($0.name) })
    func wheelModelMatchesPython(_ model: ModelZoo.Model) throws {
        try matchesPython(model)
    }

    private func matchesPython(_ model: ModelZoo.Model) throws {
        if let pythonError = model.pythonError {
            expectRefusal(model, pythonError: pythonError)
            return
        }
        let outputs: Outputs
        do {
            outputs = try run(model)
        } catch let error as TensorIOError {
            ModelZoo.report(model.name, outputs: model.outputs.count, result: "TensorIO failed: \(error.code): \(error)")
            Issue.record("\(model.name): TensorIO failed where Python ran: \(error.code): \(error)")
            return
        }

        var maxAbsolute = 0.0
        var maxRelative = 0.0
        var problems: [String] = []
        for expected in model.outputs {
            guard let output = try? outputs[expected.name] else {
                problems.append("no output \"\(expected.name)\" (TensorIO's: \(outputs.map(\.name).joined(separator: ", ")))")
                continue
            }
            guard case .numbers(let numbers, let shape) = output.value else {
                problems.append("output \"\(expected.name)\" holds \(output.value.kindDescription), not raw numbers")
                continue
            }
            let comparison = ModelZoo.compare(numbers, shape: shape, with: expected)
            maxAbsolute = max(maxAbsolute, comparison.maxAbsolute)
            maxRelative = max(maxRelative, comparison.maxRelative)
            problems += comparison.problems.map { "output \"\(expected.name)\": \($0)" }
        }
        ModelZoo.report(
            model.name, outputs: model.outputs.count, maxAbsolute: maxAbsolute, maxRelative: maxRelative,
            result: problems.isEmpty ? "ok" : "MISMATCH"
        )
        for problem in problems {
            Issue.record("\(model.name): \(problem)")
        }
    }

    /// Infers the bundle, makes its outputs raw, loads the model and runs it on the reference inputs.
    private func run(_ model: ModelZoo.Model) throws -> Outputs {
        var bundle = try ModelBundle(modelAt: model.url, registry: .everyTask)
        // Python's get_tensor gives the tensors' raw values: no dequantization, no labels. Inputs need no
        // change: raw bytes go into every kind of input layer (images and quantized arrays included) as
        // they are.
        bundle.outputs = LayerList(bundle.outputs.map(ModelZoo.raw))
        let names = Set(bundle.inputs.names)
        let expectedNames = Set(model.inputs.map(\.name))
        guard names == expectedNames else {
            throw TensorIOError(
                .invalidInput,
                "the inferred bundle's inputs \(names.sorted()) are not Python's \(expectedNames.sorted())"
            )
        }
        let instance = try bundle.makeModel()
        try instance.load()
        var inputs: [String: InputValue] = [:]
        for input in model.inputs {
            inputs[input.name] = .bytes(input.data)
        }
        return try instance.run(InputValue.named(inputs))
    }

    /// A model Python cannot run must be refused by TensorIO with a ``TensorIOError`` (at inference,
    /// creation, loading or its first run on zeros), not crash and not run.
    private func expectRefusal(_ model: ModelZoo.Model, pythonError: String) {
        let firstLine = pythonError.split(separator: "\n").first.map(String.init) ?? pythonError
        var stage = "inferring the bundle"
        do {
            let bundle = try ModelBundle(modelAt: model.url, registry: .everyTask)
            stage = "making the model"
            let instance = try bundle.makeModel()
            stage = "loading"
            try instance.load()
            stage = "running"
            var zeros: [String: InputValue] = [:]
            for layer in bundle.inputs {
                zeros[layer.name] = .bytes(Data(count: layer.elementCount * (layer.declaredDataType?.byteCount ?? 1)))
            }
            _ = try instance.run(InputValue.named(zeros))
        } catch let error as TensorIOError {
            ModelZoo.report(
                model.name, outputs: nil,
                result: "refused as expected, \(stage): TensorIO \(error.code): \(error) | Python: \(firstLine)"
            )
            return
        } catch {
            ModelZoo.report(model.name, outputs: nil, result: "FAILED: not a TensorIOError: \(error)")
            Issue.record("\(model.name): Python cannot run it (\(firstLine)); TensorIO threw \(type(of: error)), not a TensorIOError: \(error)")
            return
        }
        ModelZoo.report(model.name, outputs: nil, result: "FAILED: TensorIO ran it | Python: \(firstLine)")
        Issue.record("\(model.name): Python cannot run it (\(firstLine)), yet TensorIO ran it without an error")
    }
}

/// The zoo's reference data and the comparison.
enum ModelZoo {
    /// The test data's models (`task-models/…/*.tflite`), which `scripts/zoo/reference.py` runs when they are
    /// in the cache.
    static let pinnedModels = TestData.names(under: "task-models").filter { $0.hasSuffix(".tflite") }

    /// Where `scripts/zoo/reference.py` writes the inputs and Python's outputs.
    static let referenceDirectory = Fixtures.repositoryURL(".build/zoo/reference")

    /// Relative difference allowed for float outputs: |a − b| ≤ tolerance × max(1, |b|), b being Python's.
    static let tolerance = 1e-5

    /// One model of the manifest, with its reference data read into memory.
    struct Model: Sendable, CustomTestStringConvertible {
        struct Tensor: Sendable {
            var name: String
            var dtype: String
            var shape: [Int]
            var data: Data
        }

        /// The model's name: `task-models/…` or `mediapipe/modules/…`.
        var name: String
        /// The model file.
        var url: URL
        /// What Python met loading or running it; `nil` when it ran.
        var pythonError: String?
        var inputs: [Tensor]
        var outputs: [Tensor]

        var testDescription: String { name }
    }

    /// Every model of the zoo, in the manifest's order (by name), with its data; `reference.py` runs
    /// once per test process.
    static func models() throws -> [Model] {
        try loaded.get()
    }

    private static let loaded: Result<[Model], ZooSetupError> = Result { try load() }.mapError {
        $0 as? ZooSetupError ?? ZooSetupError(message: "\($0)")
    }

    struct ZooSetupError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static func load() throws -> [Model] {
        let python = Fixtures.repositoryURL(".venv-zoo/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ZooSetupError(
                message: "the model zoo test needs .venv-zoo (Python's ai_edge_litert) and the MediaPipe models: run make setup-zoo"
            )
        }
        let script = Fixtures.repositoryURL("scripts/zoo/reference.py")
        let run = try ChildProcess.run(python, [script.path, referenceDirectory.path])
        guard run.exited, run.status == 0 else {
            throw ZooSetupError(
                message: "scripts/zoo/reference.py failed (status \(run.status); run make setup-zoo if a model folder is missing):\n\(run.stderr)"
            )
        }
        print(run.stdout, terminator: "")

        struct Manifest: Decodable {
            struct Entry: Decodable {
                struct Array: Decodable {
                    var name: String
                    var dtype: String
                    var shape: [Int]
                    var file: String
                }

                var name: String
                var path: String
                var id: String
                var error: String?
                var inputs: [Array]?
                var outputs: [Array]?
            }

            var models: [Entry]
        }
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: referenceDirectory.appendingPathComponent("manifest.json"))
        )
        // Everything is read now, right after the script: another test run rewriting the folder later
        // cannot mix two runs' data.
        return try manifest.models.map { entry in
            let folder = referenceDirectory.appendingPathComponent(entry.id)
            func tensors(_ arrays: [Manifest.Entry.Array]?) throws -> [Model.Tensor] {
                try (arrays ?? []).map { array in
                    Model.Tensor(
                        name: array.name, dtype: array.dtype, shape: array.shape,
                        data: try Data(contentsOf: folder.appendingPathComponent(array.file))
                    )
                }
            }
            return Model(
                name: entry.name, url: TestData.referencedURL(entry.path).standardizedFileURL,
                pythonError: entry.error, inputs: try tensors(entry.inputs), outputs: try tensors(entry.outputs)
            )
        }
    }

    /// The layer with its numbers as the tensor holds them: no dequantization, no labels.
    static func raw(_ layer: LayerDescription) -> LayerDescription {
        switch layer.kind {
        case .array, .scalar:
            return LayerDescription(name: layer.name, shape: layer.shape, declaredDataType: layer.declaredDataType, kind: .array())
        case .image, .bytes:
            return layer
        }
    }

    // MARK: - Comparison

    struct Comparison {
        var maxAbsolute = 0.0
        var maxRelative = 0.0
        var problems: [String] = []
    }

    /// Compares TensorIO's numbers with Python's array: shape, element type, then every element.
    static func compare(_ numbers: NumericArray, shape: [Int], with expected: Model.Tensor) -> Comparison {
        var comparison = Comparison()
        if shape != expected.shape {
            comparison.problems.append("shape \(shape), Python's \(expected.shape)")
        }
        let actualType = dtypeName(numbers)
        // TensorIO reads float16 tensors as Float.
        guard actualType == expected.dtype || (actualType == "float32" && expected.dtype == "float16") else {
            comparison.problems.append("element type \(actualType), Python's \(expected.dtype)")
            return comparison
        }
        let reference = decode(expected)
        guard let reference else {
            comparison.problems.append("Python's dtype \(expected.dtype) is not one the test reads")
            return comparison
        }
        switch (values(numbers), reference) {
        case (.floats(let actual), .floats(let wanted)):
            guard actual.count == wanted.count else {
                comparison.problems.append("\(actual.count) elements, Python's \(wanted.count)")
                return comparison
            }
            var mismatches = 0
            var first: String?
            for index in actual.indices {
                let a = actual[index], b = wanted[index]
                if a.isNaN || b.isNaN || a.isInfinite || b.isInfinite {
                    if !(a.isNaN && b.isNaN) && a != b {
                        mismatches += 1
                        first = first ?? "element \(index): \(a), Python's \(b)"
                    }
                    continue
                }
                let absolute = abs(a - b)
                let relative = absolute / max(1, abs(b))
                comparison.maxAbsolute = max(comparison.maxAbsolute, absolute)
                comparison.maxRelative = max(comparison.maxRelative, relative)
                if relative > tolerance {
                    mismatches += 1
                    first = first ?? "element \(index): \(a), Python's \(b)"
                }
            }
            if let first {
                comparison.problems.append(
                    "\(mismatches) of \(actual.count) elements differ by more than \(tolerance) × max(1, |Python's|); first: \(first)"
                )
            }
        case (.integers(let actual), .integers(let wanted)):
            guard actual.count == wanted.count else {
                comparison.problems.append("\(actual.count) elements, Python's \(wanted.count)")
                return comparison
            }
            let different = actual.indices.filter { actual[$0] != wanted[$0] }
            for index in actual.indices {
                let absolute = abs(Double(actual[index]) - Double(wanted[index]))
                comparison.maxAbsolute = max(comparison.maxAbsolute, absolute)
                comparison.maxRelative = max(comparison.maxRelative, absolute / max(1, abs(Double(wanted[index]))))
            }
            if let index = different.first {
                comparison.problems.append(
                    "\(different.count) of \(actual.count) integers differ; first: element \(index): \(actual[index]), Python's \(wanted[index])"
                )
            }
        default:
            comparison.problems.append("element type \(actualType), Python's \(expected.dtype)")
        }
        return comparison
    }

    enum Values {
        case floats([Double])
        case integers([Int64])
    }

    /// NumPy's name for the element type of TensorIO's numbers.
    static func dtypeName(_ numbers: NumericArray) -> String {
        switch numbers {
        case .uint8: "uint8"
        case .int8: "int8"
        case .int16: "int16"
        case .int32: "int32"
        case .int64, .int: "int64"
        case .uint16: "uint16"
        case .uint32: "uint32"
        case .uint64, .uint: "uint64"
        case .float32: "float32"
        case .float64: "float64"
        case .bool: "bool"
        }
    }

    static func values(_ numbers: NumericArray) -> Values {
        switch numbers {
        case .uint8(let a): .integers(a.map(Int64.init))
        case .int8(let a): .integers(a.map(Int64.init))
        case .int16(let a): .integers(a.map(Int64.init))
        case .int32(let a): .integers(a.map(Int64.init))
        case .int64(let a): .integers(a)
        case .int(let a): .integers(a.map(Int64.init))
        case .uint16(let a): .integers(a.map(Int64.init))
        case .uint32(let a): .integers(a.map(Int64.init))
        case .uint64(let a): .integers(a.map { Int64(truncatingIfNeeded: $0) })
        case .uint(let a): .integers(a.map { Int64(truncatingIfNeeded: $0) })
        case .float32(let a): .floats(a.map(Double.init))
        case .float64(let a): .floats(a)
        case .bool(let a): .integers(a.map { $0 ? 1 : 0 })
        }
    }

    /// Python's little-endian bytes as numbers.
    static func decode(_ tensor: Model.Tensor) -> Values? {
        let bytes = [UInt8](tensor.data)
        func words<Word: FixedWidthInteger>(_: Word.Type) -> [Word] {
            let size = MemoryLayout<Word>.size
            return stride(from: 0, to: bytes.count - bytes.count % size, by: size).map { offset in
                var word = Word.zero
                for byte in 0..<size { word |= Word(truncatingIfNeeded: bytes[offset + byte]) << (8 * byte) }
                return word
            }
        }
        switch tensor.dtype {
        case "uint8": return .integers(bytes.map(Int64.init))
        case "int8": return .integers(bytes.map { Int64(Int8(bitPattern: $0)) })
        case "bool": return .integers(bytes.map { $0 != 0 ? 1 : 0 })
        case "int16": return .integers(words(UInt16.self).map { Int64(Int16(bitPattern: $0)) })
        case "int32": return .integers(words(UInt32.self).map { Int64(Int32(bitPattern: $0)) })
        case "int64": return .integers(words(UInt64.self).map { Int64(bitPattern: $0) })
        case "float16": return .floats(words(UInt16.self).map { Double(HalfFloat.float(from: $0)) })
        case "float32": return .floats(words(UInt32.self).map { Double(Float(bitPattern: $0)) })
        case "float64": return .floats(words(UInt64.self).map { Double(bitPattern: $0) })
        default: return nil
        }
    }

    // MARK: - The table

    /// Prints one line of the run log's table.
    static func report(
        _ name: String, outputs: Int?, maxAbsolute: Double? = nil, maxRelative: Double? = nil, result: String
    ) {
        func number(_ value: Double?) -> String { value.map { String(format: "%.3g", $0) } ?? "-" }
        let line = [
            "model-zoo", name, outputs.map { "\($0) output\($0 == 1 ? "" : "s")" } ?? "-",
            "max abs \(number(maxAbsolute))", "max rel \(number(maxRelative))", result,
        ].joined(separator: " | ")
        print(line.replacingOccurrences(of: "\n", with: " "))
    }
}
