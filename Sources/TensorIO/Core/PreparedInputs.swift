/// A run's inputs as the core hands them to a backend instance: one value per prediction input layer,
/// in `model.json` order, matched once (by name, by position, or the single value of a one-input model)
/// and with every image already oriented and scaled to its layer's size.
///
/// A backend writes `values[i]` into layer `i`'s tensor and does no matching or image work of its own:
/// that is the one pass over the data a run makes.
struct PreparedInputs {
    /// One value per prediction input layer, in layer order.
    let values: [InputValue]
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
    /// How images are fitted to their layers.
    let resizeMode: ImageResizeMode
    /// For each layer, the size its images are scaled to (`nil` for layers that take no image).
    private let imageTargets: [ImageSize?]
    /// Whether any layer takes an image; read once, not on every run.
    let hasImageInputs: Bool

    init(layers: LayerList, resizeMode: ImageResizeMode) {
        self.layers = layers
        self.resizeMode = resizeMode
        imageTargets = layers.map(\.imageSize)
        hasImageInputs = imageTargets.contains { $0 != nil }
    }

    /// One value per layer, images oriented and scaled.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming unknown or missing layers,
    ///   or saying how many values the model expects.
    func prepare(_ input: InputValue) throws -> PreparedInputs {
        let values = try InputMatching.values(for: input, layers: layers)
        guard hasImageInputs else { return PreparedInputs(values: values) }
        return PreparedInputs(values: zip(values, imageTargets).map { prepared($0, target: $1) })
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
    func prepared(_ value: InputValue, target: ImageSize?) -> InputValue {
        guard let target, case .image(let image) = value else { return value }
        return .image(VisionPipeline.prepare(image, target: target, mode: resizeMode))
    }
}
