extension TensorIOError {
    /// An output that does not hold what the bundle says of it — its kind, its shape, its size — located at
    /// the output: what reading an ``Output`` and every task's decoder (detections, segmentation masks,
    /// embeddings) throw.
    package static func outputMismatch(_ message: String, output name: String) -> TensorIOError {
        TensorIOError(.outputMismatch, message, location: "output \"\(name)\"")
    }
}
