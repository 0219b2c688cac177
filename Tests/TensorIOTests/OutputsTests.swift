import Testing
@testable import TensorIO
import TensorIOTestSupport

/// `Outputs` holds one or two outputs inline and more in an array; whichever way it was made, it is
/// the same collection.
@Suite("Outputs: one, two and more outputs")
struct OutputsTests {
    private static func output(_ name: String, _ value: Float) -> Output {
        Output(name: name, value: .numbers(.float32([value]), shape: [1]))
    }

    @Test("made inline or from an array, outputs are equal, hash alike and read the same", arguments: [1, 2, 3])
    func inlineAndArrayAgree(count: Int) throws {
        let items = (0..<count).map { Self.output("out\($0)", Float($0)) }
        let fromArray = Outputs(items)
        let inline: Outputs = switch count {
        case 1: Outputs(items[0])
        case 2: Outputs(items[0], items[1])
        default: Outputs(items)
        }
        #expect(fromArray == inline)
        #expect(fromArray.hashValue == inline.hashValue)
        #expect(Array(inline) == items)
        #expect(inline.count == count)
        #expect(inline.names == items.map(\.name))
        #expect(try inline["out\(count - 1)"] == items[count - 1])
        #expect(throws: TensorIOError.self) { try inline["missing"] }
    }

    @Test("outputs of different counts or values differ")
    func differentOutputsDiffer() {
        let a = Self.output("a", 1), b = Self.output("b", 2)
        #expect(Outputs([a]) != Outputs([a, b]))
        #expect(Outputs([a, b]) != Outputs([b, a]))
        #expect(Outputs([a, b]) != Outputs([a, b, a]))
        #expect(Outputs([]) == Outputs([]))
        #expect(Outputs([]).isEmpty)
    }

    @Test("real runs: one output, two outputs, five outputs")
    func realRuns() throws {
        let one = try Fixtures.model("1_in_1_out_number_test.tiobundle").run(Float(2))
        #expect(one.names == ["output"])
        #expect(try one["output"].values(as: Float.self) == [25])

        let two = try Fixtures.model("2_in_2_out_vectors_test.tiobundle").run(
            ["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]] as [String: [Float]]
        )
        #expect(two.names == ["output1", "output2"])
        #expect(two.count == 2)

        let five = try Fixtures.model("output_types_test.tiobundle").run([Float](repeating: 1, count: 4))
        #expect(five.names == ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"])
        #expect(five.map(\.name) == five.names)
    }
}
