public import Foundation
@_spi(Internal) public import TensorIO

/// Finds hands, faces or bodies and their landmarks: a landmark bundle's two-stage pipeline
/// (docs/model-json.md, "Landmarks") — its detector bundle finds instances, its region rule turns each into
/// a rotated region of the photo, its landmark model runs on that region's crop — with MediaPipe's
/// arithmetic at every step, so that the points are MediaPipe's.
///
/// Both models run through the same core as every other task (`Model.run(_:)`); the
/// landmarker only cuts the crops and maps the points back. It may be shared between threads and tasks.
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "hand.tiobundle"), registry: .vision)
/// let landmarker = try Landmarker(bundle: bundle)
/// let hands = try landmarker.landmarks(contentsOf: URL(filePath: "photo.jpg"))
/// ```
public final class Landmarker: Sendable {
    /// The landmark bundle: its model is the landmark model.
    public let bundle: ModelBundle
    /// The detector bundle inside it.
    public let detectorBundle: ModelBundle
    /// The pipeline, as the bundle's `landmarks` entry describes it.
    public let description: LandmarksDescription
    /// The threads, limits and logger both models run with.
    public let configuration: ModelConfiguration

    /// The detector bundle's model: the first stage.
    public let detector: any Model
    /// The landmark model: the second stage, run once per instance.
    public let landmarkModel: any Model
    private let detections: DetectionDecoder
    private let inputSize: ImageSize
    private let decoding: LandmarkDecoding

    /// Opens the detector bundle and builds both models (they load on first use).
    ///
    /// - Parameters:
    ///   - bundle: A bundle with a `landmarks` entry, opened with a registry holding the vision tasks
    ///     (`ModelRegistry/vision`).
    ///   - configuration: Threads, limits and the logger, for both models.
    ///   - registry: The backends and tasks both models are built with.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/unsupported` when the bundle has no `landmarks`
    ///   entry, its model has not one image input, or the detector bundle describes no detection;
    ///   `TensorIOError/Code/invalidBundle` (located at `landmarks.detector`) when the detector bundle is
    ///   missing or wrong.
    public init(
        bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .vision
    ) throws {
        guard let description = try bundle.landmarks else {
            throw TensorIOError(
                .unsupported, "\(bundle.url.lastPathComponent) has no landmarks entry (open it with registry: .vision, or let `tensorio init --landmarker` write one)",
                location: "landmarks")
        }
        // Reading the entry checked that the folder is there, inside the bundle (LandmarksTask.readFiles).
        let detectorURL = bundle.url.appendingPathComponent(description.detector, isDirectory: true)
        let detectorBundle: ModelBundle
        do {
            detectorBundle = try ModelBundle(at: detectorURL, limits: configuration.limits, registry: registry)
        } catch let error as TensorIOError {
            throw TensorIOError(error.code, "the detector bundle \(description.detector): \(error.message)", location: "landmarks.detector")
        }
        let target = try ImageTarget.onlyImageInput(of: bundle, configuration: configuration, task: "a landmark model")
        self.bundle = bundle
        self.detectorBundle = detectorBundle
        self.description = description
        self.configuration = configuration
        detections = try DetectionDecoder(bundle: detectorBundle, configuration: configuration)
        detector = try detectorBundle.makeModel(configuration: configuration, registry: registry)
        landmarkModel = try bundle.makeModel(configuration: configuration, registry: registry)
        inputSize = target.size
        decoding = LandmarkDecoding(
            pointCount: description.points.count, valuesPerPoint: description.points.values,
            inputWidth: target.size.width, inputHeight: target.size.height, normalizeZ: description.points.normalizeZ,
            visibilityActivation: description.points.activation, presenceActivation: description.points.activation)
    }

    /// Finds the instances on a photo and their landmarks.
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation.
    ///   - options: At most how many instances, and the least scores; the bundle's defaults where `nil`.
    /// - Returns: The instances, best detector score first, in pixels of the photo as displayed.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/invalidInput` for options out of range;
    ///   `TensorIOError/Code/outputMismatch` when a model's outputs disagree with the bundle; what
    ///   `Model.run(_:)` throws.
    public func landmarks(in photo: PixelBuffer, options: LandmarkerOptions = LandmarkerOptions()) throws -> [Landmarks] {
        var profile: LandmarksProfile?
        return try landmarks(in: photo, options: options, profile: &profile)
    }

    /// Finds the instances on a photo like `landmarks(in:options:)` and measures where
    /// the time went: each model's run as `RunProfile` splits it, the crops and the point mapping.
    ///
    /// Both models must be `ProfilingModel`s (every backend's models are) for their runs to be split;
    /// a run of another model counts whole as its invoke.
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation.
    ///   - options: At most how many instances, and the least scores.
    /// - Returns: The instances, best first, and the call's profile.
    /// - Throws: As `landmarks(in:options:)` does.
    public func profiledLandmarks(
        in photo: PixelBuffer, options: LandmarkerOptions = LandmarkerOptions()
    ) throws -> (landmarks: [Landmarks], profile: LandmarksProfile) {
        var profile: LandmarksProfile? = LandmarksProfile()
        let found = try landmarks(in: photo, options: options, profile: &profile)
        return (found, profile ?? LandmarksProfile())
    }

    /// The synchronous pipeline, measured step by step when `profile` is not `nil` (the clock is not read
    /// otherwise).
    private func landmarks(in photo: PixelBuffer, options: LandmarkerOptions, profile: inout LandmarksProfile?) throws -> [Landmarks] {
        let settings = try Settings(options, description: description)
        let outputs = try Self.run(detector, .image(photo), profile: &profile) { $0.detector = $1 }
        var start = profile == nil ? 0 : Stopwatch.now()
        let regions = try regions(in: outputs, photo: photo, settings: settings)
        profile?.regions = Stopwatch.since(start)
        guard !regions.isEmpty else { return [] }
        if profile != nil { start = Stopwatch.now() }
        let upright = photo.orientedUpright()
        profile?.cutting = Stopwatch.since(start)
        var found: [Landmarks] = []
        for (region, score) in regions {
            if profile != nil { start = Stopwatch.now() }
            let crop = try crop(upright, region: region)
            profile?.cutting += Stopwatch.since(start)
            let outputs = try Self.run(landmarkModel, .image(crop.pixels), profile: &profile) { $0.landmarkRuns.append($1) }
            if profile != nil { start = Stopwatch.now() }
            let instance = try instance(outputs, region: region, letterbox: crop.letterbox, score: score, photo: upright, settings: settings)
            profile?.pointMapping += Stopwatch.since(start)
            if let instance { found.append(instance) }
        }
        return Self.bestFirst(found)
    }

    /// Runs a model, profiled into `profile` by `record` when there is a profile to fill.
    private static func run(
        _ model: any Model, _ input: InputValue, profile: inout LandmarksProfile?,
        record: (inout LandmarksProfile, RunProfile) -> Void
    ) throws -> Outputs {
        guard profile != nil else { return try model.run(input) }
        var run = RunProfile()
        let outputs: Outputs
        if let profiling = model as? any ProfilingModel {
            (outputs, run) = try profiling.runProfiled(input)
        } else {
            let start = Stopwatch.now()
            outputs = try model.run(input)
            run.invoke = Stopwatch.since(start)
        }
        record(&profile!, run)
        return outputs
    }

    /// Finds the instances on a photo without blocking the calling task's thread; see
    /// `landmarks(in:options:)`.
    ///
    /// - Parameters:
    ///   - photo: The photo.
    ///   - options: At most how many instances, and the least scores.
    /// - Returns: The instances, best first.
    /// - Throws: `CancellationError` when the task is cancelled; otherwise as the synchronous call.
    public func landmarks(in photo: PixelBuffer, options: LandmarkerOptions = LandmarkerOptions()) async throws -> [Landmarks] {
        let settings = try Settings(options, description: description)
        let regions = try regions(in: await detector.run(.image(photo), placeholders: [:]), photo: photo, settings: settings)
        guard !regions.isEmpty else { return [] }
        let upright = photo.orientedUpright()
        var found: [Landmarks] = []
        for (region, score) in regions {
            try Task.checkCancellation()
            let crop = try crop(upright, region: region)
            let outputs = try await landmarkModel.run(.image(crop.pixels), placeholders: [:])
            if let instance = try instance(outputs, region: region, letterbox: crop.letterbox, score: score, photo: upright, settings: settings) {
                found.append(instance)
            }
        }
        return Self.bestFirst(found)
    }

    /// Finds the instances on a JPEG or PNG photo file, decoded at full size and turned upright by its
    /// EXIF orientation.
    ///
    /// - Parameters:
    ///   - url: The photo file.
    ///   - options: At most how many instances, and the least scores.
    /// - Returns: The instances, best first, in pixels of the photo as displayed.
    /// - Throws: What decoding the file throws (`TensorIOError/Code/invalidImage`, `TensorIOError/Code/io`…)
    ///   and what `landmarks(in:options:)` throws.
    public func landmarks(contentsOf url: URL, options: LandmarkerOptions = LandmarkerOptions()) throws -> [Landmarks] {
        try landmarks(in: PixelBuffer(contentsOf: url, limits: configuration.limits), options: options)
    }

    /// Loads both models now rather than on the first photo.
    ///
    /// - Throws: What `Model.load()` throws.
    public func load() throws {
        try detector.load()
        try landmarkModel.load()
    }

    /// Loads both models now, at once (each on a thread of TensorIO's own, as async runs use), without
    /// blocking the calling task's thread: a caller that will run several photos at once starts sooner.
    /// (Not an `async` overload of ``load()``: existing `try landmarker.load()` calls in async code would
    /// then need `await`.)
    ///
    /// - Throws: What `Model.load()` throws (the detector's error first when both fail);
    ///   `CancellationError` when the task is cancelled before the loads start.
    public func loadConcurrently() async throws {
        let (detector, landmarkModel) = (detector, landmarkModel)
        async let detectorLoaded: Void = RunThreads.shared.perform { _ in try detector.load() }
        async let landmarkModelLoaded: Void = RunThreads.shared.perform { _ in try landmarkModel.load() }
        // Both awaited before either error is thrown: a load is not left running past the call.
        var failure: (any Error)?
        do { try await detectorLoaded } catch { failure = error }
        do { try await landmarkModelLoaded } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    // MARK: - The stages

    /// The options with the bundle's defaults filled in, checked.
    struct Settings: Sendable, Hashable {
        var maximumInstances: Int
        var minimumDetectionScore: Double
        var minimumPresenceScore: Double

        init(_ options: LandmarkerOptions, description: LandmarksDescription) throws {
            maximumInstances = options.maximumInstances ?? description.maximumInstances
            minimumDetectionScore = options.minimumDetectionScore ?? description.minimumDetectionScore
            minimumPresenceScore = options.minimumPresenceScore ?? description.minimumPresenceScore
            guard (1...LandmarksDescription.maximumInstances).contains(maximumInstances) else {
                throw TensorIOError(.invalidInput, "at most \(maximumInstances) instances: expected from 1 to \(LandmarksDescription.maximumInstances)", location: "maximumInstances")
            }
            for (name, score) in [("minimumDetectionScore", minimumDetectionScore), ("minimumPresenceScore", minimumPresenceScore)] {
                guard (0...1).contains(score) else {
                    throw TensorIOError(.invalidInput, "\(score) is not a score from 0 to 1", location: name)
                }
            }
        }
    }

    /// The detector's best instances as regions (MediaPipe's detection-to-region subgraph): at most
    /// `maximumInstances` detections above the least score, the photo's letterbox taken out of them and
    /// each turned by the rule into a region, in MediaPipe's single-precision arithmetic (see
    /// ``RegionOfInterest``), then the rule's association of overlapping regions. A detection the rule
    /// cannot turn into a region (a zero-size or not finite box, a missing keypoint) is left out.
    private func regions(
        in outputs: Outputs, photo: PixelBuffer, settings: Settings, associate: Bool = true
    ) throws -> [(RegionOfInterest, score: Float)] {
        var options = DetectionOptions()
        options.scoreThreshold = Float(settings.minimumDetectionScore)
        let candidates = try detections.candidates(in: outputs, options: options).prefix(settings.maximumInstances)
        guard !candidates.isEmpty else { return [] }
        let size = photo.displayedSize
        let letterbox = detectorLetterbox(photo: size)
        // DetectionLetterboxRemovalCalculator, in floats.
        let left = letterbox.left, top = letterbox.top
        let keptWidth = 1 - (letterbox.left + letterbox.right), keptHeight = 1 - (letterbox.top + letterbox.bottom)
        let regions = candidates.compactMap { candidate -> (RegionOfInterest, score: Float)? in
            let box = ((candidate.xMin - left) / keptWidth, (candidate.yMin - top) / keptHeight, candidate.width / keptWidth, candidate.height / keptHeight)
            let keypoints = candidate.keypoints.map { ((($0.x - left) / keptWidth), ($0.y - top) / keptHeight) }
            return RegionOfInterest.region(
                normalizedBox: box, keypoints: keypoints, imageWidth: max(1, size.width), imageHeight: max(1, size.height),
                rule: description.region
            ).map { ($0, candidate.score) }
        }
        guard associate, let threshold = description.region.maximumOverlap else { return regions }
        return RegionOfInterest.associated(regions, threshold: threshold)
    }

    /// The fractions of the detector's input that are padding around the photo (left, top, right, bottom):
    /// MediaPipe's `PadRoi` of the whole photo for a letterboxed input, in its float arithmetic; otherwise
    /// what the input's fit leaves (negative where a centre crop cuts the photo, zero when it is stretched).
    private func detectorLetterbox(photo: ImageSize) -> (left: Float, top: Float, right: Float, bottom: Float) {
        let target = detections.target
        let width = Double(max(1, photo.width)), height = Double(max(1, photo.height))
        if target.resizeMode == .aspectFit {
            let whole = RegionOfInterest(centerX: width / 2, centerY: height / 2, width: width, height: height, rotation: 0)
            let padding = RegionCrop.padded(whole, toWidth: target.size.width, height: target.size.height).letterbox
            return (Float(padding.left), Float(padding.top), Float(padding.right), Float(padding.bottom))
        }
        let fit = ImageFit(photo: photo, target: target.size, mode: target.resizeMode, filter: target.scalingFilter)
        let left = -fit.x / fit.width, top = -fit.y / fit.height
        return (Float(left), Float(top), Float(1 - width / fit.width - left), Float(1 - height / fit.height - top))
    }

    /// The region's crop at the landmark model's input size, as MediaPipe's ImageToTensor cuts it: the
    /// region padded to the input's proportions, warped bilinearly with the border replicated.
    private func crop(_ upright: PixelBuffer, region: RegionOfInterest) throws -> (pixels: PixelBuffer, letterbox: (left: Double, top: Double, right: Double, bottom: Double)) {
        let padded = RegionCrop.padded(region, toWidth: inputSize.width, height: inputSize.height)
        // orientedUpright() gives BGRA: four bytes a pixel, as the crop takes them.
        let bytes = RegionCrop.crop(
            upright.bytes, width: upright.width, height: upright.height, region: padded.region,
            outputWidth: inputSize.width, outputHeight: inputSize.height)
        let pixels = try PixelBuffer(width: inputSize.width, height: inputSize.height, format: upright.format, bytes: bytes)
        return (pixels, padded.letterbox)
    }

    /// The instance the landmark model's outputs describe, or `nil` when its presence is below the least.
    private func instance(
        _ outputs: Outputs, region: RegionOfInterest, letterbox: (left: Double, top: Double, right: Double, bottom: Double),
        score: Float, photo: PixelBuffer, settings: Settings
    ) throws -> Landmarks? {
        try instanceAndPoints(outputs, region: region, letterbox: letterbox, score: score, photo: photo, settings: settings)?.instance
    }

    /// The instance and every point the model gave (auxiliary ones included, which a tracker follows), or
    /// `nil` when its presence is below the least.
    private func instanceAndPoints(
        _ outputs: Outputs, region: RegionOfInterest, letterbox: (left: Double, top: Double, right: Double, bottom: Double),
        score: Float, photo: PixelBuffer, settings: Settings
    ) throws -> (instance: Landmarks, points: [Landmark])? {
        var presence: Double?
        if let score = description.presence {
            presence = score.activation(try Self.floats(outputs, score.output, atLeast: 1)[0])
            if let presence, !(presence >= settings.minimumPresenceScore) { return nil }
        }
        let points = description.points
        let values = try Self.floats(outputs, points.output, atLeast: points.count * points.values)
        var heatmap: (description: LandmarksDescription.Heatmap, values: [Float])?
        if let map = description.heatmap {
            heatmap = (map, try Self.floats(outputs, map.output, atLeast: map.height * map.width * points.count))
        }
        let all = decoding.landmarks(values, heatmap: heatmap, letterbox: letterbox, region: region, photo: (photo.width, photo.height))
        let landmarks = Array(all.prefix(points.keep))
        // A model that answers NaN or infinity (a broken or crafted file) gives no instance rather than
        // points nobody can draw or print as JSON.
        guard all.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && ($0.visibility ?? 0).isFinite && ($0.presence ?? 0).isFinite })
        else { return nil }
        var handedness: Landmarks.Handedness?
        if let classes = description.handedness {
            // MediaPipe's binary classification: the number is the first label's probability.
            let first = Double(try Self.floats(outputs, classes.output, atLeast: 1)[0])
            guard first.isFinite else { return nil }
            handedness = first >= 1 - first
                ? .init(label: classes.labels[0], score: first) : .init(label: classes.labels[1], score: 1 - first)
        }
        var world: [Landmarks.WorldLandmark]?
        if let output = description.worldPoints {
            let numbers = try Self.floats(outputs, output, atLeast: points.count * 3)
            // WorldLandmarkProjectionCalculator: turned by the region's rotation about the z axis.
            let cosine = cos(region.rotation), sine = sin(region.rotation)
            world = (0..<points.keep).map { index in
                let x = Double(numbers[index * 3]), y = Double(numbers[index * 3 + 1])
                return .init(x: cosine * x - sine * y, y: sine * x + cosine * y, z: Double(numbers[index * 3 + 2]))
            }
            guard world?.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) ?? true else { return nil }
        }
        let instance = Landmarks(
            score: Double(score), presence: presence, handedness: handedness,
            box: Self.box(around: landmarks, width: photo.width, height: photo.height), landmarks: landmarks,
            worldLandmarks: world, region: region)
        return (instance, all)
    }

    // MARK: - For the tracker

    /// The detector's regions on a photo, before any association (a tracker associates them with its own).
    func detectedRegions(in photo: PixelBuffer, settings: Settings) throws -> [(RegionOfInterest, score: Float)] {
        try regions(in: detector.run(.image(photo)), photo: photo, settings: settings, associate: false)
    }

    /// ``detectedRegions(in:settings:)`` without blocking the calling task's thread.
    func detectedRegions(in photo: PixelBuffer, settings: Settings) async throws -> [(RegionOfInterest, score: Float)] {
        try regions(in: await detector.run(.image(photo), placeholders: [:]), photo: photo, settings: settings, associate: false)
    }

    /// The landmark model on one region of an upright photo: the instance and all its points, or `nil`.
    func landmarks(
        onUpright upright: PixelBuffer, region: RegionOfInterest, score: Float, settings: Settings
    ) throws -> (instance: Landmarks, points: [Landmark])? {
        let crop = try crop(upright, region: region)
        return try instanceAndPoints(
            landmarkModel.run(.image(crop.pixels)), region: region, letterbox: crop.letterbox, score: score, photo: upright,
            settings: settings)
    }

    /// ``landmarks(onUpright:region:score:settings:)`` without blocking the calling task's thread.
    func landmarks(
        onUpright upright: PixelBuffer, region: RegionOfInterest, score: Float, settings: Settings
    ) async throws -> (instance: Landmarks, points: [Landmark])? {
        let crop = try crop(upright, region: region)
        let outputs = try await landmarkModel.run(.image(crop.pixels), placeholders: [:])
        return try instanceAndPoints(outputs, region: region, letterbox: crop.letterbox, score: score, photo: upright, settings: settings)
    }

    /// The smallest upright box holding every landmark, within the photo.
    static func box(around landmarks: [Landmark], width: Int, height: Int) -> Detection.Box {
        var (left, top, right, bottom) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for point in landmarks {
            (left, right) = (min(left, point.x), max(right, point.x))
            (top, bottom) = (min(top, point.y), max(bottom, point.y))
        }
        guard left <= right, top <= bottom else { return Detection.Box(x: 0, y: 0, width: 0, height: 0) }
        (left, right) = (min(max(left, 0), Double(width)), min(max(right, 0), Double(width)))
        (top, bottom) = (min(max(top, 0), Double(height)), min(max(bottom, 0), Double(height)))
        return Detection.Box(x: left, y: top, width: right - left, height: bottom - top)
    }

    private static func floats(_ outputs: Outputs, _ name: String, atLeast count: Int) throws -> [Float] {
        let values = try outputs[name].values(as: Float.self)
        guard values.count >= count else {
            throw TensorIOError.outputMismatch("holds \(values.count) numbers; the landmarks entry needs \(count)", output: name)
        }
        return values
    }

    /// Best detector score first; equal scores keep MediaPipe's order.
    private static func bestFirst(_ instances: [Landmarks]) -> [Landmarks] {
        instances.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
    }
}
