/// A run's inputs as the core hands them to a backend instance: one value per prediction input layer,
/// in `model.json` order, matched once (by name, by position, or the single value of a one-input model)
/// and with every image already oriented and scaled to its layer's size.
///
/// A backend writes `self[i]` into layer `i`'s tensor and does no matching or image work of its own:
/// that is the one pass over the data a run makes.
struct PreparedInputs {
    /// One or two values (most models take no more) are held inline.
    private let storage: InlineValues<InputValue>

    /// One value per prediction input layer, in layer order.
    init(values: [InputValue]) {
        storage = InlineValues(values)
    }

    /// The only value of a one-input model.
    init(_ value: InputValue) {
        storage = .one(value)
    }

    /// The values of a two-input model, in layer order.
    init(_ first: InputValue, _ second: InputValue) {
        storage = .two(first, second)
    }

    /// How many values there are: one per prediction input layer.
    var count: Int { storage.count }

    /// The value of layer `index`.
    subscript(index: Int) -> InputValue { storage[index] }

    /// Every value, in layer order.
    var values: [InputValue] { (0..<count).map { self[$0] } }
}

/// The items of a batch as the core hands them to a backend instance: for each prediction input layer
/// in `model.json` order, one value per item, images prepared as in ``PreparedInputs``.
struct PreparedBatch {
    /// For each input layer, one value per item.
    let columns: [[InputValue]]
    /// How many items there are (at least one).
    let itemCount: Int

    /// The inputs of one item.
    func item(_ index: Int) -> PreparedInputs {
        PreparedInputs(values: columns.map { $0[index] })
    }
}

/// Matches a run's value to the prediction input layers and prepares its images: the first stage of
/// every run, made before an instance is taken so that concurrent callers overlap it.
struct InputPreparer: Sendable {
    /// The layers a run takes (training-only ones left out).
    let layers: LayerList
    /// For each layer, how its images are prepared (`nil` for layers that take no image).
    private let imageTargets: [ImageTarget?]
    /// Whether any layer takes an image; read once, not on every run.
    let hasImageInputs: Bool

    /// - Parameters:
    ///   - layers: The layers a run feeds.
    ///   - configuration: The model's configuration, whose resize mode and scaling filter, when set,
    ///     replace the layers' own.
    init(layers: LayerList, configuration: ModelConfiguration) {
        self.layers = layers
        imageTargets = layers.map { ImageTarget(layer: $0, configuration: configuration) }
        hasImageInputs = imageTargets.contains { $0 != nil }
    }

    /// One value per layer, images oriented and scaled.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming unknown or missing layers,
    ///   or saying how many values the model expects.
    func prepare(_ input: InputValue) throws -> PreparedInputs {
        guard !hasImageInputs else {
            let values = try InputMatching.values(for: input, layers: layers)
            return PreparedInputs(values: zip(values, imageTargets).map { prepared($0, target: $1) })
        }
        switch layers.count {
        case 1:
            var only: InputValue?
            try InputMatching.forEachValue(in: input, layers: layers) { _, value in only = value }
            guard let only else { throw Self.unmatched(input) }  // forEachValue gives each layer's value once
            return PreparedInputs(only)
        case 2:
            var pair: (InputValue?, InputValue?)
            try InputMatching.forEachValue(in: input, layers: layers) { index, value in
                if index == 0 { pair.0 = value } else { pair.1 = value }
            }
            guard let first = pair.0, let second = pair.1 else { throw Self.unmatched(input) }
            return PreparedInputs(first, second)
        default:
            return try PreparedInputs(values: InputMatching.values(for: input, layers: layers))
        }
    }

    /// A value that matched no layer where matching gives every layer one: never expected, so an error
    /// rather than a crash if it ever happens.
    private static func unmatched(_ input: InputValue) -> TensorIOError {
        TensorIOError.invalidInput("\(input.summary) gives no value to some input layer")
    }

    /// The batch's columns by layer, images oriented and scaled.
    ///
    /// - Throws: ``TensorIOError`` naming the item and layer when an item lacks a layer's value.
    func prepare(_ batch: Batch) throws -> PreparedBatch {
        let columns = try batch.columns(for: layers)
        guard hasImageInputs else { return PreparedBatch(columns: columns, itemCount: batch.count) }
        return PreparedBatch(
            columns: zip(columns, imageTargets).map { column, target in column.map { prepared($0, target: target) } },
            itemCount: batch.count
        )
    }

    /// The batch with every image of a layer that takes images oriented and scaled, for a training step
    /// (which feeds every input layer: build the preparer over ``ModelBundle/inputs``). Columns of plain
    /// numbers are kept as they are.
    func preparingImages(in batch: Batch) -> Batch {
        guard hasImageInputs else { return batch }
        let columns = zip(batch.keys, batch.columns).map { key, column -> Batch.Column in
            guard let index = layers.index(forName: key), let target = imageTargets[index],
                  case .values(let values) = column
            else { return column }
            return .values(values.map { prepared($0, target: target) })
        }
        return Batch(keys: batch.keys, count: batch.count, columns: columns)
    }

    /// An image oriented and fitted to `target`; any other value as it is.
    func prepared(_ value: InputValue, target: ImageTarget?) -> InputValue {
        guard let target, case .image(let image) = value else { return value }
        return .image(VisionPipeline.prepare(image, target: target.size, mode: target.resizeMode, filter: target.scalingFilter))
    }
}

/// How photos are prepared for one image input: the layer's size, and the resize mode and scaling
/// filter in force (the configuration's when set, else the layer's `model.json` settings, else the
/// defaults: centre crop, box filter).
@_spi(Internal) public struct ImageTarget: Sendable, Hashable {
    @_spi(Internal) public let size: ImageSize
    @_spi(Internal) public let resizeMode: ImageResizeMode
    @_spi(Internal) public let scalingFilter: ImageScalingFilter

    /// `nil` for a layer that takes no image.
    @_spi(Internal) public init?(layer: LayerDescription, configuration: ModelConfiguration) {
        guard let size = layer.imageSize else { return nil }
        self.size = size
        resizeMode = configuration.imageResizeMode ?? layer.imageResizeMode ?? .aspectFill
        scalingFilter = configuration.imageScalingFilter ?? layer.imageScalingFilter ?? .box
    }

    /// The size a JPEG may be decoded at for this layer (`targetSize` of
    /// ``PixelBuffer/init(contentsOf:targetSize:resizeMode:limits:)``): the layer's size for the box filter,
    /// whose area average a reduced decode only speeds up; `nil` (full size) for bilinear sampling, which
    /// a reduced decode would turn into an average.
    @_spi(Internal) public var decodeSize: ImageSize? { scalingFilter == .box ? size : nil }
}
