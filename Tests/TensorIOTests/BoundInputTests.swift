import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The prediction inputs LiteRT is given when compiling (`BoundInputMemory`): runs write into that
/// memory and pass no buffer for it, so LiteRT must read each run's own values there — not the first
/// run's, not zeros — exactly as when every run registers its buffers.
@Suite("Bound inputs: runs pass no input buffers and LiteRT reads each run's values")
struct BoundInputTests {
    @Test("fixed-shape inputs of a signature model are bound", arguments: [
        ("1_in_1_out_number_test.tiobundle", 1), ("2_in_2_out_vectors_test.tiobundle", 2),
    ])
    func fixedShapesAreBound(bundle: String, inputs: Int) throws {
        let model = try LiteRTCompiledModel(bundle: Fixtures.bundle(bundle), configuration: ModelConfiguration())
        #expect(model.boundInputCount == inputs)
    }

    @Test("consecutive runs on bound inputs give each run's answer (10x + 5)")
    func eachRunReadsItsOwnValue() throws {
        let model = try LiteRTCompiledModel(
            bundle: Fixtures.bundle("1_in_1_out_number_test.tiobundle"), configuration: ModelConfiguration()
        )
        #expect(model.boundInputCount == 1)
        for x: Float in [2, -3, 0, 7.5, 2, 1000, -0.25] {
            let outputs = try model.run(single: .numbers(.float32([x])))
            #expect(try outputs["output"].value(as: Float.self) == 10 * x + 5, "x = \(x)")
        }
    }

    @Test("bound and per-run registered inputs give the same outputs, run after run")
    func boundAgreesWithRegistered() throws {
        let bundle = try Fixtures.bundle("2_in_2_out_vectors_test.tiobundle")
        let configuration = ModelConfiguration()
        let bound = try LiteRTCompiledModel(bundle: bundle, configuration: configuration)
        // The way a training session builds its runner: no bindings, every run registers its buffers.
        let instance = try LiteRTModelInstance(bundle: bundle, configuration: configuration)
        let signature = try instance.predictionSignature(trainingSignatures: [])
        let registered = try LiteRTCompiledModel(
            runner: SignatureRunner(instance, signature: signature), bundle: bundle, configuration: configuration
        )
        #expect(bound.boundInputCount == 2)
        #expect(registered.boundInputCount == 0)
        var generator = SplitMix64(seed: 12)  // the library's: failures replay from the seed
        for run in 0..<20 {
            let input = InputValue.named([
                "input1": .numbers(.float32((0..<4).map { _ in Float.random(in: -100...100, using: &generator) })),
                "input2": .numbers(.float32((0..<4).map { _ in Float.random(in: -100...100, using: &generator) })),
            ])
            #expect(try bound.run(input, layers: bundle.predictionInputs) == registered.run(input, layers: bundle.predictionInputs), "run \(run)")
        }
    }

    @Test("a model without signatures keeps a buffer per input, registered on each run, and still runs")
    func placeholderSignatureIsNotBound() throws {
        // A MediaPipe model as shipped: LiteRT gives it a placeholder signature, which bindings cannot name.
        let file = Fixtures.bundlesDirectory.deletingLastPathComponent()
            .appendingPathComponent("Metadata").appendingPathComponent("selfie_segmentation.tflite")
        let bundle = try ModelBundle(modelAt: file, registry: .everyTask)
        let model = try LiteRTCompiledModel(bundle: bundle, configuration: ModelConfiguration())
        #expect(model.boundInputCount == 0)
        let count = try #require(bundle.predictionInputs.first).elementCount
        let dark = try model.run(single: .numbers(.float32([Float](repeating: 0, count: count))))
        let bright = try model.run(single: .numbers(.float32([Float](repeating: 1, count: count))))
        #expect(dark.count == 1)
        #expect(dark != bright, "each run reads its own input")
    }

    @Test("bindings LiteRT refuses (a signature it has not) leave the model compiled without them, running")
    func refusedBindingsCompileAgainWithout() throws {
        let bundle = try Fixtures.bundle("1_in_1_out_number_test.tiobundle")
        let instance = try LiteRTModelInstance(bundle: bundle, configuration: ModelConfiguration()) { signatures in
            signatures.first.map {
                LiteRTModelInstance.Signature(index: $0.index, handle: $0.handle, key: "no such signature",
                                              inputCount: $0.inputCount, outputCount: $0.outputCount)
            }
        }
        #expect(instance.boundInputs == nil)
        let signature = try instance.predictionSignature(trainingSignatures: [])
        let model = try LiteRTCompiledModel(
            runner: SignatureRunner(instance, signature: signature), bundle: bundle, configuration: ModelConfiguration()
        )
        #expect(model.boundInputCount == 0)
        #expect(try model.run(single: .numbers(.float32([3])))["output"].value(as: Float.self) == 35)
    }
}

extension LiteRTCompiledModel {
    /// Runs the instance as the core does: the value matched to `layers`, then written as prepared.
    fileprivate func run(_ input: InputValue, layers: LayerList) throws -> Outputs {
        var profile: RunProfile?
        return try run(InputPreparer(layers: layers, configuration: ModelConfiguration()).prepare(input), placeholders: [:], profile: &profile)
    }

    /// Runs a one-input instance on one value.
    fileprivate func run(single value: InputValue) throws -> Outputs {
        var profile: RunProfile?
        return try run(PreparedInputs(values: [value]), placeholders: [:], profile: &profile)
    }
}
