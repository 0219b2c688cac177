import Testing
@testable import TensorIO
@testable import TensorIOVision

/// Score calibration as TFLite Model Metadata describes it and tflite-support applies it.
@Suite("Detection: score calibration")
struct DetectionScoreCalibrationTests {
    static let location = "outputs[1].scoreCalibration"
    static let file = "0.9,0.5,0.1\n\n1.0,2.0,-1.0,0.3"

    static func calibration(_ transformation: ScoreCalibration.Transformation = .identity) throws -> ScoreCalibration {
        try ScoreCalibration(parsing: file, classCount: 3, transformation: transformation, defaultScore: 0.05, location: location)
    }

    @Test("lines become per-class sigmoids; an empty line leaves the class to the default score")
    func parsing() throws {
        let calibration = try Self.calibration()
        #expect(calibration.sigmoids == [
            .init(scale: 0.9, slope: 0.5, offset: 0.1),
            nil,
            .init(scale: 1, slope: 2, offset: -1, minScore: 0.3),
        ])
        #expect(calibration.defaultScore == 0.05 && calibration.transformation == .identity)
        // A final newline and \r\n line ends, and spaces around values, read the same.
        let lenient = try ScoreCalibration(parsing: " 0.9, 0.5 ,0.1\r\n\r\n1.0,2.0,-1.0,0.3\r\n", classCount: 3, location: Self.location)
        #expect(lenient.sigmoids == calibration.sigmoids)
    }

    @Test("scale / (1 + exp(−(slope × g(x) + offset))), both branches, the minimum and the default")
    func identity() throws {
        let calibration = try Self.calibration()
        #expect(nearly(calibration.calibrated(0.6, classIndex: 0), 0.53881889))  // 0.9 / (1 + e^−0.4)
        #expect(nearly(calibration.calibrated(-2, classIndex: 0), 0.26014545))  // 0.9 e^−0.9 / (1 + e^−0.9)
        #expect(calibration.calibrated(0.6, classIndex: 1) == 0.05)  // empty line
        #expect(calibration.calibrated(0.29, classIndex: 2) == 0.05)  // under min_score
        #expect(calibration.calibrated(0.5, classIndex: 2) == 0.5)  // 2 × 0.5 − 1 = 0: 1 / (1 + 1)
        #expect(calibration.calibrated(0.3, classIndex: 2) != 0.05)  // at min_score: calibrated
        #expect(calibration.calibrated(0.6, classIndex: 3) == 0.05 && calibration.calibrated(0.6, classIndex: -1) == 0.05)
        #expect(calibration.calibrated(.nan, classIndex: 0).isNaN)
    }

    @Test("log and inverse-logistic transforms, with tflite-support's smooth clamp near zero")
    func transformations() throws {
        #expect(nearly(try Self.calibration(.log).calibrated(2.7182817, classIndex: 0), 0.58109068))  // log e = 1
        #expect(nearly(try Self.calibration(.inverseLogistic).calibrated(0.5, classIndex: 0), 0.47248127))  // g = 0
        #expect(nearly(ScoreCalibration.clampedLog(1), 0))
        #expect(nearly(ScoreCalibration.clampedLog(0), -37.534509, tolerance: 1e-4))  // 2 log 1e-16 − log 2e-16
        #expect(ScoreCalibration.clampedLog(-1) < ScoreCalibration.clampedLog(0))
        #expect(ScoreCalibration.clampedLog(-1).isFinite)
        let atZero = try Self.calibration(.log).calibrated(0, classIndex: 0)
        #expect(atZero.isFinite && atZero >= 0)
    }

    @Test("hostile files are refused with the line at fault")
    func hostileFiles() {
        func message(_ text: String, classes: Int = 3) -> String? {
            guard let error = detectionError({ _ = try ScoreCalibration(parsing: text, classCount: classes, location: Self.location) }) else { return nil }
            #expect(error.code == .invalidBundle && error.location == Self.location)
            return error.message
        }
        #expect(message(Self.file) == nil)
        #expect(message("0.9,0.5\n\n1,2,3")?.hasPrefix("line 1: expected 3 or 4") == true)
        #expect(message("1,2,3\n1,2,3,4,5\n")?.hasPrefix("line 2: expected 3 or 4") == true)
        #expect(message("1,2,3\n1,2,3\n1,x,3")?.hasPrefix("line 3, value 2:") == true)
        #expect(message("1,2,3\n1,2,3\n1,2,inf")?.hasPrefix("line 3, value 3:") == true)
        #expect(message("1,2,3\n1,nan,3\n1,2,3")?.hasPrefix("line 2, value 2:") == true)
        #expect(message("1,2,3\n1,,3\n1,2,3")?.hasPrefix("line 2, value 2:") == true)
        #expect(message("1,2,3\n")?.contains("after line 1,") == true)  // too few: the final newline ends the file
        #expect(message("1,2,3\n\n") == nil)  // three lines, the last two empty
        #expect(message("1,2,3\n\n\n\n")?.hasPrefix("line 4:") == true)  // too many
        #expect(message("")?.contains("empty") == true)
        #expect(message("1,2,3", classes: 0) != nil)
        // A million lines for three classes: refused at the fourth, without reading on.
        let huge = String(repeating: "1,2,3\n", count: 1_000_000)
        #expect(message(huge)?.hasPrefix("line 4:") == true)
    }
}
