public import TensorIO

extension ModelRegistry {
    /// The built-in registry with the vision tasks (detection, segmentation, landmarks, classification heads): opening a bundle reads their
    /// entries, and a bare detector's or segmenter's entry is inferred from its metadata.
    ///
    /// ```swift
    /// let bundle = try ModelBundle(modelAt: URL(filePath: "ssd_mobilenet_v1.tflite"), registry: .vision)
    /// let detections = try bundle.makeModel().detect(contentsOf: URL(filePath: "photo.jpg"))
    /// ```
    public static let vision = ModelRegistry.builtIn.addingVisionTasks()

    /// This registry with the vision tasks (detection, segmentation, landmarks, classification heads) added.
    ///
    /// - Returns: The registry, its backends and other tasks kept.
    public func addingVisionTasks() -> ModelRegistry {
        adding(DetectionTask.self, SegmentationTask.self, LandmarksTask.self, ClassifierHeadTask.self)
    }
}

extension BundleInferenceOptions {
    /// A MediaPipe detector family whose settings (anchors, decoding, suppression, input preparation) to
    /// write for the model, which its file does not carry; `nil` to infer what the file says.
    public var detector: MediaPipeDetector? {
        get { taskSettings[DetectionTask.entryKey].flatMap(MediaPipeDetector.init(rawValue:)) }
        set { taskSettings[DetectionTask.entryKey] = newValue?.rawValue }
    }
}
