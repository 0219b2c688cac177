import Foundation
import Testing
@testable import TensorIOCLI
import TensorIOVision
import TensorIOToolSupport

/// The features CSV reader on hostile bytes: every prefix of a valid file and a few thousand seeded byte
/// flips, insertions of quotes, commas and line ends: each one error (`CLIError`) or classes within the
/// limits, never a crash or a hang (the reader is not under a libFuzzer target: this stands in for one).
@Suite("Features CSV: mutations")
struct FeaturesCSVMutationTests {
    static let valid = Data(("label,x,y,\"z, quoted\"\n" + "a,0.5,1,-2e3\n" + "\"b \"\"two\"\"\",1.5,  2 ,3\r\n"
        + "a,0,0,0\n" + "\n" + "b,1e-3,4,5").utf8)

    @Test("every prefix and 3,000 seeded mutations: a CLIError or classes within the limits")
    func mutations() {
        let limits = ClassifierTrainingLimits(maximumItemsPerClass: 3, maximumItems: 5)
        let alphabet = Array(",\"\n\r \t-.eE0123456789abc\u{FF}".utf8)
        var state: UInt64 = 40
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var inputs = (0...Self.valid.count).map { Data(Self.valid.prefix($0)) }
        for _ in 0..<3000 {
            var bytes = Array(Self.valid)
            for _ in 0..<(1 + next(4)) {
                switch next(3) {
                case 0: bytes[next(bytes.count)] = alphabet[next(alphabet.count)]
                case 1: bytes.insert(alphabet[next(alphabet.count)], at: next(bytes.count + 1))
                default: if bytes.count > 1 { bytes.remove(at: next(bytes.count)) }
                }
            }
            inputs.append(Data(bytes))
        }
        var parsed = 0
        for input in inputs {
            do {
                let classes = try FeaturesCSV.parse(input, name: "f.csv", limits: limits)
                parsed += 1
                let widths = Set(classes.flatMap { $0.features.map(\.count) })
                #expect(widths.count == 1 && classes.allSatisfy { !$0.features.isEmpty && $0.features.count <= 3 })
                #expect(classes.flatMap(\.features).allSatisfy { $0.allSatisfy(\.isFinite) })
            } catch {
                #expect(error is CLIError, "\(error)")
            }
        }
        #expect(parsed > 0 && parsed < inputs.count)
    }
}
