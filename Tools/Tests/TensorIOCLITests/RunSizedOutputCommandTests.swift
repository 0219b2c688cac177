import Foundation
import Testing
import TensorIOTestSupport

/// The COCO SSD detector of the test data (`TestData`) through the tool: its four outputs are sized by the
/// runtime, not the file, and every command reads them at the shapes LiteRT gives (docs/model-json.md,
/// "Outputs sized at run time").
@Suite("tensorio with outputs sized at run time")
struct RunSizedOutputCommandTests {
    static let detector = TestData.path("task-models/tflite-support/vision/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite")
    static let photo = TestData.path("task-models/tflite-support/vision/cats_and_dogs.jpg")

    @Test("run prints all 40 box coordinates, 10 classes, 10 scores and the count", TestData.required(paths: detector, photo))
    func run() async throws {
        let result = try await CLI.run("run", Self.detector, "--image", Self.photo)
        #expect(result.exited && result.status == 0, "\(result)")
        let object = try jsonObject(result)
        #expect((object["TFLite_Detection_PostProcess"] as? [Double])?.count == 40, "\(result)")
        #expect((object["TFLite_Detection_PostProcess:1"] as? [Double])?.count == 10)
        #expect((object["TFLite_Detection_PostProcess:2"] as? [Double])?.count == 10)
        #expect(object["TFLite_Detection_PostProcess:3"] as? Double == 10)
    }

    @Test("bench runs the detector", TestData.required(paths: detector, photo))
    func bench() async throws {
        let result = try await CLI.run(
            "bench", Self.detector, "--image", Self.photo, "--runs", "3", "--warmup", "1", "--callers", "1", "--json"
        )
        #expect(result.exited && result.status == 0, "\(result)")
        #expect((try jsonObject(result)["inference_avg_us"] as? Double ?? 0) > 0)
    }

    @Test("inspect and validate say which outputs are sized at run time", TestData.required(paths: detector))
    func inspectAndValidate() async throws {
        let inspect = try await CLI.run("inspect", Self.detector)
        #expect(inspect.exited && inspect.status == 0, "\(inspect)")
        #expect(inspect.stdout.contains(#"out TFLite_Detection_PostProcess: float32 [1, 10, 4] -> layer "TFLite_Detection_PostProcess", sized at run time (the file gives no shape)"#), "\(inspect)")
        let validate = try await CLI.run("validate", Self.detector)
        #expect(validate.exited && validate.status == 0, "\(validate)")
        #expect(validate.stdoutLines.filter { $0.hasSuffix("is sized at run time (any shape)") }.count == 4, "\(validate)")
    }
}
