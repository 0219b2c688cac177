import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// The original's data-conversion cases, run through real models: Swift values into tensors of each
/// element type, tensors back into values, and every way a value can fail to fit a layer.
@Suite("Data conversions")
struct DataConversionTests {
    static let number = "1_in_1_out_number_test.tiobundle"
    static let vectors = "1_in_1_out_vectors_test.tiobundle"
    static let twoInputs = "2_in_2_out_vectors_test.tiobundle"

    /// The little-endian bytes of fixed-width integers.
    static func bytes<T: FixedWidthInteger>(_ values: [T]) -> Data {
        var data = Data()
        for value in values {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Runs `input` and expects an `invalidInput` error; returns it.
    static func invalidInput(
        _ model: any Model, _ input: any ModelInput, sourceLocation: SourceLocation = #_sourceLocation
    ) -> TensorIOError? {
        let error = #expect(throws: TensorIOError.self, sourceLocation: sourceLocation) { try model.run(input) }
        #expect(error?.code == .invalidInput, sourceLocation: sourceLocation)
        return error
    }

    // MARK: - Float layers

    @Test("float32 layer: 2 as a number of any type, an array, or float bytes → 25", arguments: [
        2, Int32(2), Int64(2), UInt8(2), Int8(2), UInt64(2), Float(2), Double(2),
        [2], [Float(2)], [[2.0]], Data(float32LittleEndian: [2]),
        InputValue.numbers(.float64([2])), InputValue.positional([2]),
    ] as [any ModelInput])
    func floatNumber(_ input: any ModelInput) throws {
        let model = try Fixtures.model(Self.number)
        let outputs = try model.run(input)
        #expect(try outputs["output"].value(as: Double.self) == 25)
        #expect(outputs.names == ["output"])
    }

    @Test("float32 layer: Bool converts to 0 and 1")
    func floatFromBool() throws {
        let model = try Fixtures.model(Self.vectors)
        let output = try model.run([true, false, false, true])["output"]
        #expect((try output.values(as: Float.self)) == [2, 0, 1, 1])
    }

    @Test("float32 vector layer from every element type", arguments: [
        [UInt8(1), 2, 3, 4], [Int16(1), 2, 3, 4], [Float(1), 2, 3, 4], [Double(1), 2, 3, 4], [Int(1), 2, 3, 4],
        [Int8(1), 2, 3, 4], [Int64(1), 2, 3, 4], [UInt32(1), 2, 3, 4], [Float(1), 2, 3, 4] as ContiguousArray,
        Data(float32LittleEndian: [1, 2, 3, 4]),
    ] as [any ModelInput])
    func floatVectorElementTypes(_ input: any ModelInput) throws {
        let model = try Fixtures.model(Self.vectors)
        let output = try model.run(input)["output"]
        #expect(output.value == .numbers(.float32([2, 2, 4, 4]), shape: [4]))
    }

    @Test("nested arrays flatten row-major")
    func nestedArraysFlattenRowMajor() throws {
        let vectors = try Fixtures.model(Self.vectors)
        #expect(try vectors.run([[1, 2], [3, 4]])["output"].values(as: Float.self) == [2, 2, 4, 4])
        #expect(try vectors.run([[[1.0], [2.0]], [[3.0], [4.0]]])["output"].values(as: Float.self) == [2, 2, 4, 4])
        // Rows of different lengths are fine as long as the total fits: the order is what counts.
        #expect(try vectors.run([[1], [2, 3, 4]])["output"].values(as: Float.self) == [2, 2, 4, 4])
        #expect(try vectors.run([[4, 3], [2, 1]])["output"].values(as: Float.self) == [5, 3, 3, 1])

        // A 3×3×3 tensor as [[[Double]]], slice i scaled by 10^i.
        let tensors = try Fixtures.model("1_in_1_out_tensors_test.tiobundle")
        var input: [[[Double]]] = []
        for scale: Double in [1, 10, 100] {
            var slice: [[Double]] = []
            for j in 0..<3 {
                let row: [Double] = (1...3).map { k in Double(3 * j + k) * scale }
                slice.append(row)
            }
            input.append(slice)
        }
        let output = try tensors.run(input)["output"]
        #expect((try output.shape) == [3, 3, 3])
        var expected: [Float] = []
        for i in 0..<3 {
            let scale: Float = [1, 10, 100][i]
            for n in 1...9 { expected.append(Float(n) * scale + Float(i + 1)) }
        }
        #expect((try output.values(as: Float.self)) == expected)
    }

    @Test("the values of a float32 layer are converted, not reinterpreted")
    func floatConversionExactness() throws {
        let model = try Fixtures.model(Self.vectors)
        let output = try model.run([0.5, -1.25, 1e6, -3])["output"]
        #expect((try output.values(as: Float.self)) == [1.5, -1.25, 1e6 + 1, -3])
    }

    // MARK: - uint8 layers

    @Test("raw uint8 layer: bytes in, bytes out", arguments: [
        [UInt8(0), 64, 128, 255], [0, 64, 128, 255] as [Int], [0.0, 64.0, 128.0, 255.0], Data([0, 64, 128, 255]),
        [Int64(0), 64, 128, 255], [Float(0), 64, 128, 255],
    ] as [any ModelInput])
    func uint8Raw(_ input: any ModelInput) throws {
        let model = try Fixtures.model("quantized_uint8_raw_test.tiobundle")
        let output = try model.run(input)["output"]
        #expect((try output.shape) == [4])
        guard case .numbers(.uint8(let values), _) = output.value else {
            Issue.record("expected uint8 values, got \(output.value)")
            return
        }
        let expected: [Int] = [85, 128, 170, 255]
        #expect(zip(values, expected).allSatisfy { abs(Int($0) - $1) <= 1 }, "\(values)")
        #expect(values.count == 4)
    }

    @Test("raw uint8 layer: floats round to the nearest integer")
    func uint8RawRounding() throws {
        let model = try Fixtures.model("quantized_uint8_raw_test.tiobundle")
        let rounded = try model.run([0.4, 63.6, 127.5, 254.9])["output"]
        let exact = try model.run([0, 64, 128, 255])["output"]
        #expect(rounded == exact)
    }

    @Test("uint8 layer with quantize/dequantize from the tensor: [0, 0.25, 0.5, 1] → [0.25, 0.375, 0.5, 0.75]")
    func uint8FromTensor() throws {
        let model = try Fixtures.model("quantized_uint8_test.tiobundle")
        let quantum = 0.0029411765281111
        for input in [[0, 0.25, 0.5, 1.0] as any ModelInput, [Float(0), 0.25, 0.5, 1] as any ModelInput] {
            let output = try model.run(input)["output"]
            guard case .numbers(.float32, _) = output.value else {
                Issue.record("dequantized values are floats, got \(output.value)")
                continue
            }
            #expect((try output.shape) == [4])
            // Raw output [85, 128, 170, 255] (±1) × scale.
            let values = try output.values(as: Double.self)
            #expect(isClose(values, [0.25, 0.3764706, 0.5, 0.75], tolerance: quantum + 1e-6), "\(values)")
            #expect(isClose(values, [0.25, 0.375, 0.5, 0.75], tolerance: 2 * quantum), "\(values)")
        }
    }

    @Test("uint8 layer with quantize from the tensor: values outside [0, 1] clamp to 0 and 255")
    func uint8FromTensorClamps() throws {
        let model = try Fixtures.model("quantized_uint8_test.tiobundle")
        let clamped = try model.run([-1, 2, 1e9, -.infinity] as [Double])["output"]
        let limits = try model.run([0, 1, 1, 0] as [Double])["output"]
        #expect(clamped == limits)
        // NaN quantizes to 0 rather than trapping.
        let nan = try model.run([Double.nan, 0, 0, 0])["output"]
        #expect((try nan.values(as: Float.self)).first == (try limits.values(as: Float.self)).first)
    }

    @Test("uint8 layer with quantize from the tensor: raw bytes skip the quantizer")
    func uint8FromTensorBytes() throws {
        let model = try Fixtures.model("quantized_uint8_test.tiobundle")
        let output = try model.run(Data([0, 64, 128, 255]))["output"]
        #expect(isClose((try output.values(as: Double.self)), [0.25, 0.3764706, 0.5, 0.75], tolerance: 0.0029411765281111 + 1e-6))
    }

    // MARK: - int32 and int64 layers

    @Test("int32 and int64 layers: 2 → 25 from integers and integral floating-point values", arguments: [
        "1_in_1_out_number_int32_test.tiobundle", "1_in_1_out_number_int64_test.tiobundle",
    ], [
        2, Int32(2), Int64(2), Double(2), Float(2), UInt8(2), [2], [Int64(2)], [[2.0]],
    ] as [any ModelInput])
    func integerModels(_ bundle: String, _ input: any ModelInput) throws {
        let model = try Fixtures.model(bundle)
        #expect(try model.run(input)["output"].value(as: Int64.self) == 25)
    }

    @Test("int32 and int64 layers from raw bytes", arguments: [
        ("1_in_1_out_number_int32_test.tiobundle", DataConversionTests.bytes([Int32(2)])),
        ("1_in_1_out_number_int64_test.tiobundle", DataConversionTests.bytes([Int64(2)])),
    ])
    func integerModelsFromBytes(_ bundle: String, _ data: Data) throws {
        let model = try Fixtures.model(bundle)
        #expect(try model.run(data)["output"].value(as: Int64.self) == 25)
    }

    @Test("int64 layer keeps large values exactly")
    func int64Exact() throws {
        let model = try Fixtures.model("1_in_1_out_number_int64_test.tiobundle")
        let x: Int64 = 1 << 55 + 3  // not representable in a Double
        #expect(try model.run(x)["output"].value(as: Int64.self) == 10 * x + 5)
        #expect(try model.run(-7)["output"].value(as: Int64.self) == -65)
    }

    @Test("int32 layer keeps negative values and its limits")
    func int32Limits() throws {
        let model = try Fixtures.model("1_in_1_out_number_int32_test.tiobundle")
        #expect(try model.run(-3)["output"].value(as: Int64.self) == -25)
        #expect(try model.run(Int32(200_000_000))["output"].value(as: Int64.self) == 2_000_000_005)
    }

    // MARK: - Outputs of every type

    @Test("outputs come back with their element type and values")
    func outputTypes() throws {
        let model = try Fixtures.model("output_types_test.tiobundle")
        let outputs = try model.run([-1, 0, 2, 100] as [Float])
        #expect(outputs.names == ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"])

        #expect(try outputs["as_int8"].value == .numbers(.int8([-1, 0, 2, 100]), shape: [4]))
        #expect(try outputs["as_int16"].value == .numbers(.int16([-1, 0, 2, 100]), shape: [4]))
        #expect(try outputs["as_bool"].value == .numbers(.bool([false, false, true, true]), shape: [4]))
        // float16 values are widened to Float; the data type says what the tensor held.
        #expect(try outputs["as_float16"].value == .numbers(.float32([-1, 0, 2, 100]), shape: [4]))
        #expect(try outputs["as_float32"].value == .numbers(.float32([-0.5, 0, 1, 50]), shape: [4]))
    }

    @Test("float16 outputs round-trip values that need the whole half-precision range")
    func float16Values() throws {
        let model = try Fixtures.model("output_types_test.tiobundle")
        // 0.1 and 1/3 are not exact in half precision; 65504 is its largest finite value.
        let outputs = try model.run([0.1, -65504, 1.0 / 3.0, 1e-5] as [Double])
        let halves = try outputs["as_float16"].values(as: Float.self)
        #expect(halves[0] == 0.099975586)
        #expect(halves[1] == -65504)
        #expect(halves[2] == 0.33325195)
        #expect(abs(halves[3] - 1e-5) < 1e-7)  // a subnormal half
    }

    @Test("outputs are in model.json order and findable by name and position")
    func outputsCollection() throws {
        let model = try Fixtures.model(Self.twoInputs)
        let outputs = try model.run(.positional([[1, 2, 3, 4], [10, 20, 30, 40]]))
        #expect(outputs.count == 2)
        #expect(outputs[0].name == "output1")
        #expect(outputs[1].name == "output2")
        #expect(try outputs[0].value(as: Double.self) == 240)
        #expect(try outputs["output2"].value(as: Double.self) == 64)
        #expect(throws: TensorIOError.self) { try outputs["output3"] }
    }

    @Test("a string layer takes and returns raw bytes")
    func stringLayer() throws {
        let model = try Fixtures.model("1_in_1_out_string_test.tiobundle")
        let output = try model.run(Data([0x00, 0x00, 0x00, 0x40]))["output"]
        #expect(output.value == .bytes(Data([0x00, 0x00, 0xC8, 0x41])))
        #expect(try output.bytes.float32LittleEndian == [25])
    }

    // MARK: - Values that do not fit

    @Test("wrong element count names the layer, the expected and the given counts", arguments: [
        ([1, 2, 3] as [Int], "got 3"), ([1, 2, 3, 4, 5] as [Int], "got 5"), ([Int](), "got 0"), ([[1, 2], [3]], "got 3"),
    ] as [(any ModelInput, String)])
    func wrongElementCount(_ input: any ModelInput, _ given: String) throws {
        let model = try Fixtures.model(Self.vectors)
        let error = Self.invalidInput(model, input)
        #expect(error?.location == #"layer "input""#)
        #expect(error?.message.contains("expected 4 numbers") == true, "\(String(describing: error))")
        #expect(error?.message.contains(given) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix(#"layer "input": "#) == true)
    }

    @Test("wrong byte count names the layer, the expected and the given sizes", arguments: [0, 4, 12, 17, 64])
    func wrongByteCount(_ count: Int) throws {
        let model = try Fixtures.model(Self.vectors)
        let error = Self.invalidInput(model, Data(repeating: 0, count: count))
        #expect(error?.location == #"layer "input""#)
        #expect(error?.message.contains("expected 16 bytes") == true, "\(String(describing: error))")
        #expect(error?.message.contains("got \(count) bytes") == true, "\(String(describing: error))")
    }

    @Test("a value out of range for an integer layer names the layer, the value and the type", arguments: [
        ("quantized_uint8_raw_test.tiobundle", [0, 64, 256, 1] as any ModelInput, "256", "uint8"),
        ("quantized_uint8_raw_test.tiobundle", [0, -1, 2, 1] as any ModelInput, "-1", "uint8"),
        ("quantized_uint8_raw_test.tiobundle", [0, 1, 2, 255.6] as any ModelInput, "255.6", "uint8"),
        ("1_in_1_out_number_int32_test.tiobundle", Int64(3_000_000_000) as any ModelInput, "3000000000", "int32"),
        ("1_in_1_out_number_int32_test.tiobundle", Double.nan as any ModelInput, "nan", "int32"),
        ("1_in_1_out_number_int32_test.tiobundle", Double.infinity as any ModelInput, "inf", "int32"),
        ("1_in_1_out_number_int64_test.tiobundle", UInt64.max as any ModelInput, "18446744073709551615", "int64"),
        ("1_in_1_out_number_int64_test.tiobundle", 1e19 as any ModelInput, "1e+19", "int64"),
    ])
    func valueOutOfRange(_ bundle: String, _ input: any ModelInput, _ value: String, _ type: String) throws {
        let model = try Fixtures.model(bundle)
        let error = Self.invalidInput(model, input)
        #expect(error?.location == #"layer "input""#)
        #expect(error?.message.contains(value) == true, "\(String(describing: error))")
        #expect(error?.message.contains(type) == true, "\(String(describing: error))")
    }

    @Test("a Double too large for a float32 layer is refused, not turned into infinity", arguments: [
        1e39, -1e39, Double.greatestFiniteMagnitude,
    ])
    func float32Overflow(_ value: Double) throws {
        let model = try Fixtures.model(Self.vectors)
        let error = Self.invalidInput(model, [1, 2, value, 4])
        #expect(error?.location == #"layer "input""#)
        #expect(error?.message.contains("index 2") == true, "\(String(describing: error))")
        #expect(error?.message.contains("float32") == true, "\(String(describing: error))")
    }

    @Test("infinities and NaN pass into a float32 layer as they are")
    func float32NonFinite() throws {
        let model = try Fixtures.model(Self.vectors)
        let output = try model.run([Double.infinity, -.infinity, .nan, 0])["output"].values(as: Float.self)
        #expect(output[0] == .infinity)
        #expect(output[1] == -.infinity)
        #expect(output[2].isNaN)
        #expect(output[3] == 0)
    }

    @Test("a dictionary with an unknown name names it and lists the inputs")
    func dictionaryUnknownName() throws {
        let model = try Fixtures.model(Self.vectors)
        let error = Self.invalidInput(model, ["input": [1, 2, 3, 4], "bogus": [1]] as [String: [Int]])
        #expect(error?.message.contains(#""bogus""#) == true, "\(String(describing: error))")
        #expect(error?.message.contains(#"the inputs are "input""#) == true, "\(String(describing: error))")
    }

    @Test("a dictionary missing a name names the missing layer")
    func dictionaryMissingName() throws {
        let model = try Fixtures.model(Self.twoInputs)
        let error = Self.invalidInput(model, ["input1": [1, 2, 3, 4]] as [String: [Int]])
        #expect(error?.message.contains(#""input2""#) == true, "\(String(describing: error))")
        #expect(error?.message.contains(#""input1""#) == false, "\(String(describing: error))")

        let empty = Self.invalidInput(model, [String: Int]())
        #expect(empty?.message.contains(#""input1", "input2""#) == true, "\(String(describing: empty))")
    }

    @Test("a multi-input model given the wrong number of values says how many it needs and got", arguments: [
        (InputValue.positional([[1, 2, 3, 4]]), "got a positional list of 1 value"),
        (InputValue.positional([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]), "got a positional list of 3 values"),
        ([[1, 2, 3, 4], [1, 2, 3, 4]] as [[Int]], "got 8 numbers"),
        ([1, 2] as [Int], "got 2 numbers"),
        ([1, 2, 3] as [Int], "got 3 numbers"),
        (5, "got 1 number"),
        (Data(count: 32), "got 32 bytes"),
    ] as [(any ModelInput, String)])
    func wrongNumberOfValues(_ input: any ModelInput, _ given: String) throws {
        let model = try Fixtures.model(Self.twoInputs)
        let error = Self.invalidInput(model, input)
        #expect(error?.message.contains("the model has 2 inputs") == true, "\(String(describing: error))")
        #expect(error?.message.contains(#""input1", "input2""#) == true, "\(String(describing: error))")
        #expect(error?.message.contains(given) == true, "\(String(describing: error))")
    }

    @Test("a value of the right count for the model but the wrong size for a layer names that layer")
    func rightCountWrongSize() throws {
        let model = try Fixtures.model(Self.twoInputs)
        // Two values by position: each layer gets one number but holds four.
        let error = Self.invalidInput(model, InputValue.positional([1, 2]))
        #expect(error?.location == #"layer "input1""#)
        #expect(error?.message.contains("expected 4 numbers") == true)
        #expect(error?.message.contains("got 1") == true)

        let second = Self.invalidInput(model, ["input1": [1, 2, 3, 4], "input2": [1, 2]] as [String: [Int]])
        #expect(second?.location == #"layer "input2""#)
    }

    @Test("odd values never crash: each is refused with invalidInput", arguments: [
        ("1_in_1_out_vectors_test.tiobundle", InputValue.named(["input": .named(["input": [1, 2, 3, 4]])])),
        ("1_in_1_out_vectors_test.tiobundle", InputValue.positional([.bytes(Data(count: 8)), [1, 2]])),
        ("1_in_1_out_vectors_test.tiobundle", InputValue.positional([])),
        ("1_in_1_out_vectors_test.tiobundle", InputValue.bytes(Data())),
        ("1_in_1_out_vectors_test.tiobundle", InputValue.named([:])),
        ("1_in_1_out_number_test.tiobundle", InputValue.named(["Input": 2])),
        ("2_in_2_out_vectors_test.tiobundle", InputValue.positional([.named(["input1": [1, 2, 3, 4]]), [1, 2, 3, 4]])),
        ("1_in_1_out_string_test.tiobundle", InputValue.bytes(Data([0, 0, 0x40]))),
        ("quantized_uint8_raw_test.tiobundle", InputValue.numbers(.int([Int.min, 0, 0, 0]))),
        ("quantized_uint8_raw_test.tiobundle", InputValue.numbers(.uint64([UInt64.max, 0, 0, 0]))),
    ])
    func oddValues(_ bundle: String, _ input: InputValue) throws {
        let model = try Fixtures.model(bundle)
        _ = Self.invalidInput(model, input)
    }

    @Test("a refused run leaves the model usable")
    func usableAfterRefusal() throws {
        let model = try Fixtures.model("quantized_uint8_raw_test.tiobundle")
        let good = try model.run([0, 64, 128, 255])
        _ = Self.invalidInput(model, [10, 20, 999, 30])  // fails after writing two values
        #expect(try model.run([0, 64, 128, 255]) == good)
    }
}
