internal import CTensorFlow
import Foundation
import Logging

/// A SavedModel loaded into a TensorFlow session: its graph, the session, and the saver that writes
/// checkpoints. `TF_SessionRun` is thread-safe, so one session serves every caller.
final class TensorFlowSession: @unchecked Sendable {
    let runtime: TensorFlowRuntime.Handle
    /// The tag-set the meta graph was loaded with (`serve` or `train`).
    let tags: [String]
    /// How variables are saved and restored, when the meta graph says.
    private(set) var saver: SaverDefinition?

    private let graph: OpaquePointer
    // Set once loading succeeds; a failing init still runs deinit, which deletes the graph.
    private var session: OpaquePointer?
    /// Names the SavedModel on stderr if TensorFlow crashes the process while loading or running it.
    private let crashActivity: CrashActivity

    /// Loads the SavedModel in `directory` with the meta graph tagged `tags`.
    ///
    /// - Throws: ``TensorIOError`` with TensorFlow's own message when the folder is not a SavedModel or
    ///   has no meta graph with those tags.
    init(directory: URL, tags: [String], threadCount: Int, logger: Logger = Logger.current) throws {
        runtime = try TensorFlowRuntime.handle(logger: logger)
        self.tags = tags
        let api = runtime.api
        graph = api.NewGraph()

        let options = api.NewSessionOptions()
        defer { api.DeleteSessionOptions(options) }
        // ConfigProto: intra_op_parallelism_threads (field 2) and inter_op_parallelism_threads (field 5).
        let config = [0x10] + Self.varint(threadCount) + [0x28] + Self.varint(threadCount)
        try runtime.checked("setting the thread count") { status in
            config.withUnsafeBytes { api.SetConfig(options, $0.baseAddress!, $0.count, status) }
        }

        let metaGraph = api.NewBuffer()
        defer { api.DeleteBuffer(metaGraph) }
        let graph = self.graph
        crashActivity = CrashActivity(modelFile: directory.path)
        // Loading a SavedModel prints (graph passes, warnings about the graph).
        session = try RuntimeOutput.capturing(.tensorFlow, logger: logger) { try crashActivity.loading { try runtime.checked(
            "loading the SavedModel \"\(directory.lastPathComponent)\" with tags \(tags)", location: "model.file"
        ) { status in
            let cTags = tags.compactMap { strdup($0) }
            defer { cTags.forEach { free($0) } }
            guard cTags.count == tags.count else { throw TensorIOError(.runtimeFailure, "out of memory for the tags \(tags)") }
            let tagPointers = cTags.map { UnsafePointer($0) }
            return api.LoadSessionFromSavedModel(
                options, nil, directory.path, tagPointers, Int32(tagPointers.count), graph, metaGraph, status
            )
        } } }
        if let data = metaGraph.pointee.data {
            saver = SaverDefinition(metaGraphDef: UnsafeRawBufferPointer(start: data, count: metaGraph.pointee.length))
        }
    }

    deinit {
        let api = runtime.api
        if let session {
            let status = api.NewStatus()
            api.CloseSession(session, status)
            api.DeleteSession(session, status)
            api.DeleteStatus(status)
        }
        api.DeleteGraph(graph)
    }

    // MARK: - The graph

    /// The operation called `name`, if the graph has one.
    func operation(named name: String) -> OpaquePointer? {
        runtime.api.GraphOperationByName(graph, name)
    }

    /// The endpoint a layer name refers to: `"op"` is the operation's first output, `"op:1"` its second.
    func endpoint(named name: String) -> TF_Output? {
        var operationName = Substring(name)
        var index = 0
        if let colon = name.lastIndex(of: ":"), let parsed = Int(name[name.index(after: colon)...]) {
            operationName = name[..<colon]
            index = parsed
        }
        guard let operation = operation(named: String(operationName)),
              index >= 0, index < Int(runtime.api.OperationNumOutputs(operation))
        else { return nil }
        return TF_Output(oper: operation, index: Int32(index))
    }

    /// The element type of an endpoint.
    func elementType(of output: TF_Output) -> TF_DataType {
        runtime.api.OperationOutputType(output)
    }

    /// The static shape the graph knows for an endpoint (`-1` for unknown sizes), or `nil` when not even
    /// its rank is known.
    func staticShape(of output: TF_Output) -> [Int]? {
        let api = runtime.api
        let status = api.NewStatus()
        defer { api.DeleteStatus(status) }
        let rank = api.GraphGetTensorNumDims(graph, output, status)
        guard api.GetCode(status) == TF_OK, rank >= 0 else { return nil }
        var dims = [Int64](repeating: -1, count: Int(rank))
        if rank > 0 {
            api.GraphGetTensorShape(graph, output, &dims, rank, status)
            guard api.GetCode(status) == TF_OK else { return nil }
        }
        return dims.map { Int($0) }
    }

    // MARK: - Running

    /// Feeds `feeds`, runs `targets`, and returns the fetched tensors in the order asked.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeFailure``) with TensorFlow's message.
    func run(
        feeds: [(endpoint: TF_Output, tensor: TensorFlowTensor)], fetches: [TF_Output], targets: [OpaquePointer],
        action: @autoclosure () -> String
    ) throws -> [TensorFlowTensor] {
        guard let session else { throw TensorIOError(.runtimeFailure, "the TensorFlow session is closed") }
        let api = runtime.api
        let inputs = feeds.map(\.endpoint)
        let inputValues: [OpaquePointer] = feeds.map(\.tensor.pointer)
        var outputValues = [OpaquePointer?](repeating: nil, count: fetches.count)
        try crashActivity.running { try runtime.checked(action()) { status in
            api.SessionRun(
                session, nil, inputs, inputValues, Int32(inputs.count), fetches, &outputValues, Int32(fetches.count),
                targets.isEmpty ? nil : targets, Int32(targets.count),
                nil, status
            )
        } }
        withExtendedLifetime(feeds) {}
        // On failure TensorFlow leaves the outputs unset; on success every one is set.
        return try outputValues.map { pointer in
            guard let pointer else { throw TensorIOError(.runtimeFailure, "\(action()) returned no tensor") }
            return TensorFlowTensor(runtime: runtime, adopting: pointer)
        }
    }

    private static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(max(0, value))
        var bytes: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return bytes
    }
}
