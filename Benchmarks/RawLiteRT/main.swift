// raw-litert-benchmark MODEL.tflite RUNS WARMUP THREADS [--bind-inputs]
//
// The floor for Benchmarks/run-benchmarks.py: the LiteRT C API driven directly, with nothing of TensorIO
// in the loop. It loads the model, compiles it for the CPU (XNNPack with THREADS threads, as TensorIO
// does), wraps 64-byte-aligned host memory in one tensor buffer per signature input and output (shapes
// from the compiled model's layouts), fills the inputs once with fixed pseudo-random values, then calls
// RunCompiledModel WARMUP times untimed and RUNS times timed. Only the RunCompiledModel call is inside
// the clock.
//
// With --bind-inputs, the inputs' memory is bound when compiling (LiteRtAddExternalTensorBinding, as
// TensorIO does for fixed-shape inputs) and each run passes NULL for them, so LiteRT does not register
// the input buffers again on every run: the floor for a loop that uses LiteRT's cheapest run.
//
// Prints one JSON line: inference_avg_us, inference_p50_us, inference_min_us, inference_max_us,
// inference_std_us, inference_p95_us (statistics computed as `tensorio bench` computes them), and the
// runs, warmup and threads it was given.
//
// Finds libLiteRt.so as TensorIO does: TENSORIO_LITERT_LIBRARY (and nowhere else when set), then
// $XDG_DATA_HOME/tensorio/litert-2.3.0/libLiteRt.so (~/.local/share by default), then the system's
// library search path.
internal import BenchCLiteRT
import Dispatch
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("raw-litert-benchmark: \(message)\n".utf8))
    exit(1)
}

// MARK: - The runtime

func libraryCandidates() -> [String] {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["TENSORIO_LITERT_LIBRARY"], !path.isEmpty { return [path] }
    let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
    return [dataHome + "/tensorio/litert-2.3.0/libLiteRt.so", "libLiteRt.so"]
}

func loadRuntime() -> TIOLiteRtAPI {
    var failures: [String] = []
    for path in libraryCandidates() {
        if path.contains("/"), !FileManager.default.fileExists(atPath: path) {
            failures.append("\(path): no such file")
            continue
        }
        var message = [CChar](repeating: 0, count: 1024)
        if let table = tio_litert_load(path, &message, message.count) { return table.pointee }
        failures.append(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    fail("cannot load libLiteRt.so (set TENSORIO_LITERT_LIBRARY): " + failures.joined(separator: "; "))
}

func elementSize(_ type: LiteRtElementType) -> Int {
    switch type {
    case kLiteRtElementTypeFloat64, kLiteRtElementTypeInt64, kLiteRtElementTypeUInt64, kLiteRtElementTypeComplex64:
        return 8
    case kLiteRtElementTypeFloat32, kLiteRtElementTypeInt32, kLiteRtElementTypeUInt32: return 4
    case kLiteRtElementTypeInt16, kLiteRtElementTypeUInt16, kLiteRtElementTypeFloat16, kLiteRtElementTypeBFloat16:
        return 2
    case kLiteRtElementTypeComplex128: return 16
    default: return 1
    }
}

/// A fixed sequence (xorshift64*, constant seed), so every run of the benchmark feeds the same values.
struct FixedRandom {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    /// Uniform in [-1, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}

// MARK: - The benchmark

/// Everything after the arguments: load, compile, make the buffers, run and report.
func benchmark(modelPath: String, runs: Int, warmup: Int, threads: Int, bindInputs: Bool) {
    let api = loadRuntime()

    func check(_ status: LiteRtStatus, _ action: String) {
        if status != kLiteRtStatusOk { fail("\(action) failed: \(String(cString: api.GetStatusString(status)))") }
    }

    // The same environment TensorIO makes: LiteRT's logging silenced, only the CPU accelerator registered.
    var environmentOptions = [
        LiteRtEnvOption(
            tag: kLiteRtEnvOptionTagMinLoggerSeverity,
            value: LiteRtAny(type: kLiteRtAnyTypeInt, .init(int_value: Int64(kLiteRtLogSeveritySilent)))
        ),
        LiteRtEnvOption(
            tag: kLiteRtEnvOptionTagAutoRegisterAccelerators,
            value: LiteRtAny(type: kLiteRtAnyTypeInt, .init(int_value: Int64(kLiteRtHwAcceleratorCpu)))
        ),
    ]
    var environmentHandle: LiteRtEnvironment?
    check(api.CreateEnvironment(Int32(environmentOptions.count), &environmentOptions, &environmentHandle),
          "creating the environment")
    guard let environment = environmentHandle else { fail("LiteRT returned no environment") }

    // MARK: - Model and compilation

    var modelHandle: LiteRtModel?
    check(api.CreateModelFromFile(environment, modelPath, &modelHandle), "reading \(modelPath)")
    guard let model = modelHandle else { fail("LiteRT returned no model") }

    // The signature TensorIO runs: "serving_default" when there is one, else the first.
    var signatureCount: LiteRtParamIndex = 0
    check(api.GetNumModelSignatures(model, &signatureCount), "counting signatures")
    guard signatureCount > 0 else { fail("the model has no signature") }
    var signatureIndex: LiteRtParamIndex = 0
    for index in 0..<signatureCount {
        var handle: LiteRtSignature?
        var key: UnsafePointer<CChar>?
        check(api.GetModelSignature(model, index, &handle), "reading signature \(index)")
        if let handle, api.GetSignatureKey(handle, &key) == kLiteRtStatusOk, let key,
           String(cString: key) == "serving_default"
        {
            signatureIndex = index
            break
        }
    }
    var signatureHandle: LiteRtSignature?
    check(api.GetModelSignature(model, signatureIndex, &signatureHandle), "reading the signature")
    guard let signature = signatureHandle else { fail("LiteRT returned no signature") }
    var inputCount: LiteRtParamIndex = 0
    var outputCount: LiteRtParamIndex = 0
    check(api.GetNumSignatureInputs(signature, &inputCount), "counting inputs")
    check(api.GetNumSignatureOutputs(signature, &outputCount), "counting outputs")

    var optionsHandle: LiteRtOptions?
    check(api.CreateOptions(&optionsHandle), "creating options")
    guard let options = optionsHandle else { fail("LiteRT returned no options") }
    check(api.SetOptionsHardwareAccelerators(options, kLiteRtHwAcceleratorCpu), "choosing the CPU")
    guard let payload = strdup("num_threads = \(threads)\n") else { fail("out of memory") }
    var xnnpackHandle: LiteRtOpaqueOptions?
    check(api.CreateOpaqueOptions("xnnpack", payload, { free($0) }, &xnnpackHandle), "creating the XNNPack options")
    if let xnnpack = xnnpackHandle { check(api.AddOpaqueOptions(options, xnnpack), "adding the XNNPack options") }
    // Bound input memory, by input index (only with --bind-inputs), sized from the model's own shapes.
    var boundMemory: [(memory: UnsafeMutableRawPointer, type: LiteRtElementType, count: Int)] = []
    if bindInputs {
        guard let bind = api.AddExternalTensorBinding else { fail("this libLiteRt.so cannot bind inputs") }
        var key: UnsafePointer<CChar>?
        check(api.GetSignatureKey(signature, &key), "reading the signature's name")
        for index in 0..<inputCount {
            var name: UnsafePointer<CChar>?
            var tensorHandle: LiteRtTensor?
            var tensorType = LiteRtRankedTensorType()
            check(api.GetSignatureInputName(signature, index, &name), "reading input \(index)'s name")
            check(api.GetSignatureInputTensorByIndex(signature, index, &tensorHandle), "reading input \(index)")
            guard let tensor = tensorHandle, let name else { fail("LiteRT returned no input \(index)") }
            check(api.GetRankedTensorType(tensor, &tensorType), "reading input \(index)'s type")
            let layout = tensorType.layout
            let count = withUnsafeBytes(of: layout.dimensions) { raw in
                raw.bindMemory(to: Int32.self).prefix(Int(layout.rank)).reduce(1) { $1 > 0 ? $0 * Int($1) : 0 }
            }
            guard count > 0 else { fail("input \(index) has no fixed shape, which --bind-inputs needs") }
            let alignment = Int(LITERT_HOST_MEMORY_BUFFER_ALIGNMENT)
            let capacity = (count * elementSize(tensorType.element_type) + alignment - 1) / alignment * alignment
            let memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: alignment)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
            boundMemory.append((memory, tensorType.element_type, count))
            guard let key else { fail("the signature has no name") }
            check(bind(options, key, name, memory, capacity), "binding input \(index)")
        }
    }
    var compiledHandle: LiteRtCompiledModel?
    check(api.CreateCompiledModel(environment, model, options, &compiledHandle), "compiling the model")
    api.DestroyOptions(options)
    guard let compiledModel = compiledHandle else { fail("LiteRT returned no compiled model") }

    // MARK: - Buffers

    var random = FixedRandom()

    /// Floating-point inputs get values in [-1, 1) (random bit patterns would include NaNs and denormals,
    /// which change the timings); everything else gets random bytes.
    func fill(_ memory: UnsafeMutableRawPointer, type: LiteRtElementType, count: Int) {
        switch type {
        case kLiteRtElementTypeFloat32:
            let floats = memory.bindMemory(to: Float.self, capacity: count)
            for index in 0..<count { floats[index] = Float(random.unit()) }
        case kLiteRtElementTypeFloat64:
            let doubles = memory.bindMemory(to: Double.self, capacity: count)
            for index in 0..<count { doubles[index] = random.unit() }
        case kLiteRtElementTypeFloat16, kLiteRtElementTypeBFloat16:
            // 0x3C00 is 1.0 in float16; 0x3F80 is 1.0 in bfloat16. Vary the mantissa's low bits only.
            let base: UInt16 = type == kLiteRtElementTypeFloat16 ? 0x3C00 : 0x3F80
            let halves = memory.bindMemory(to: UInt16.self, capacity: count)
            for index in 0..<count { halves[index] = base | UInt16(truncatingIfNeeded: random.next() & 0x3F) }
        default:
            let bytes = memory.bindMemory(to: UInt8.self, capacity: count * elementSize(type))
            for index in 0..<(count * elementSize(type)) { bytes[index] = UInt8(truncatingIfNeeded: random.next() >> 56) }
        }
    }

    var outputLayouts = [LiteRtLayout](repeating: LiteRtLayout(), count: outputCount)
    check(api.GetCompiledModelOutputTensorLayouts(compiledModel, signatureIndex, outputCount, &outputLayouts, false),
          "reading the output layouts")

    /// A tensor buffer over our own aligned memory, for input or output `index`.
    func makeBuffer(index: Int, isInput: Bool) -> (LiteRtTensorBuffer, UnsafeMutableRawPointer) {
        let side = isInput ? "input" : "output"
        var tensorHandle: LiteRtTensor?
        check(isInput ? api.GetSignatureInputTensorByIndex(signature, index, &tensorHandle)
                      : api.GetSignatureOutputTensorByIndex(signature, index, &tensorHandle),
              "reading \(side) \(index)")
        guard let tensor = tensorHandle else { fail("LiteRT returned no tensor for \(side) \(index)") }
        var tensorType = LiteRtRankedTensorType()
        check(api.GetRankedTensorType(tensor, &tensorType), "reading \(side) \(index)'s type")
        var layout = isInput ? LiteRtLayout() : outputLayouts[index]
        if isInput {
            check(api.GetCompiledModelInputTensorLayout(compiledModel, signatureIndex, index, &layout),
                  "reading input \(index)'s layout")
        }
        tensorType.layout = layout
        let count = withUnsafeBytes(of: layout.dimensions) { raw in
            raw.bindMemory(to: Int32.self).prefix(Int(layout.rank)).reduce(1) { $0 * max(1, Int($1)) }
        }
        var byteCount = max(1, count * elementSize(tensorType.element_type))
        var requirements: LiteRtTensorBufferRequirements?
        let requirementStatus = isInput
            ? api.GetCompiledModelInputBufferRequirements(compiledModel, signatureIndex, index, &requirements)
            : api.GetCompiledModelOutputBufferRequirements(compiledModel, signatureIndex, index, &requirements)
        if requirementStatus == kLiteRtStatusOk, let requirements {
            var required = 0
            if api.GetTensorBufferRequirementsBufferSize(requirements, &required) == kLiteRtStatusOk {
                byteCount = max(byteCount, required)
            }
        }
        let alignment = Int(LITERT_HOST_MEMORY_BUFFER_ALIGNMENT)
        let capacity = (byteCount + alignment - 1) / alignment * alignment
        let memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: alignment)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        if isInput { fill(memory, type: tensorType.element_type, count: count) }
        var buffer: LiteRtTensorBuffer?
        check(api.CreateTensorBufferFromHostMemory(&tensorType, memory, capacity, nil, &buffer),
              "creating the buffer of \(side) \(index)")
        guard let buffer else { fail("LiteRT returned no buffer for \(side) \(index)") }
        return (buffer, memory)
    }

    let inputs = (0..<inputCount).map { makeBuffer(index: $0, isInput: true) }
    let outputs = (0..<outputCount).map { makeBuffer(index: $0, isInput: false) }
    let inputBuffers = UnsafeMutablePointer<LiteRtTensorBuffer>.allocate(capacity: max(1, inputCount))
    let outputBuffers = UnsafeMutablePointer<LiteRtTensorBuffer>.allocate(capacity: max(1, outputCount))
    for (index, input) in inputs.enumerated() { (inputBuffers + index).initialize(to: input.0) }
    for bound in boundMemory { fill(bound.memory, type: bound.type, count: bound.count) }
    if bindInputs {
        // NULL tells LiteRT the input is bound (the C prototype's pointer type has no NULL, hence raw).
        for index in 0..<inputCount { UnsafeMutableRawPointer(inputBuffers + index).storeBytes(of: 0, as: UInt.self) }
    }
    for (index, output) in outputs.enumerated() { (outputBuffers + index).initialize(to: output.0) }

    // MARK: - The loop

    for _ in 0..<warmup {
        check(api.RunCompiledModel(compiledModel, signatureIndex, inputCount, inputBuffers, outputCount, outputBuffers),
              "running the model")
    }

    var times = [Double](repeating: 0, count: runs)
    for run in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let status = api.RunCompiledModel(compiledModel, signatureIndex, inputCount, inputBuffers, outputCount, outputBuffers)
        let end = DispatchTime.now().uptimeNanoseconds
        if status != kLiteRtStatusOk { check(status, "running the model") }
        times[run] = Double(end - start) / 1000
    }

    // MARK: - Report (the same statistics as `tensorio bench`)

    let sorted = times.sorted()
    let count = Double(sorted.count)
    let mean = sorted.reduce(0, +) / count
    let std = (sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / count).squareRoot()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p / 100 * (count - 1)).rounded()))] }

    func number(_ value: Double) -> String { String(format: "%.3f", value) }
    print("{\"inference_avg_us\": \(number(mean)), \"inference_p50_us\": \(number(percentile(50))), "
        + "\"inference_min_us\": \(number(sorted[0])), \"inference_max_us\": \(number(sorted[sorted.count - 1])), "
        + "\"inference_std_us\": \(number(std)), \"inference_p95_us\": \(number(percentile(95))), "
        + "\"runs\": \(runs), \"warmup\": \(warmup), \"threads\": \(threads)}")

    for input in inputs { api.DestroyTensorBuffer(input.0); input.1.deallocate() }
    for output in outputs { api.DestroyTensorBuffer(output.0); output.1.deallocate() }
    api.DestroyCompiledModel(compiledModel)
    for bound in boundMemory { bound.memory.deallocate() }
    api.DestroyModel(model)
    api.DestroyEnvironment(environment)
}

// MARK: - Arguments

var arguments = CommandLine.arguments
let bindInputs = arguments.last == "--bind-inputs"
if bindInputs { arguments.removeLast() }
guard arguments.count == 5, let runs = Int(arguments[2]), let warmup = Int(arguments[3]),
      let threads = Int(arguments[4]), runs >= 1, warmup >= 0, threads >= 1
else {
    fail("usage: raw-litert-benchmark MODEL.tflite RUNS WARMUP THREADS [--bind-inputs] (RUNS >= 1, WARMUP >= 0, THREADS >= 1)")
}
let modelPath = arguments[1]

benchmark(modelPath: modelPath, runs: runs, warmup: warmup, threads: threads, bindInputs: bindInputs)
