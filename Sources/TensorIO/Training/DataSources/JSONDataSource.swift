public import Foundation
internal import TensorIOSupport

/// Training items from a JSON file holding an array of objects keyed by input layer name:
/// `[{"x": [0.1, 0.2], "y": [1, 0]}, …]`.
///
/// Values are numbers or (nested) arrays of numbers; for an image layer, a string is the path of an
/// image file, relative to the JSON file, read when the item is needed. A single class index for a
/// one-hot layer becomes the one-hot vector.
public struct JSONDataSource: BatchDataSource {
    public let keys: [String]
    /// The items, their numbers already converted: a training run asks for every item every epoch, and
    /// walking the parsed JSON again each time (with a location text made for each value) cost more than
    /// a small model's training step.
    private let items: [StoredItem]
    /// When every item gives only numbers, the same values by key: for each key every item's numbers
    /// end to end (all items give a key as many numbers), a table per key (``NumberTable``). A training
    /// batch holds the rows it draws from these tables rather than a dictionary per item, and the step
    /// copies each row into its tensor.
    private let columns: [Batch.Column]?
    private let fileName: String

    /// One item as the file gave it.
    private enum StoredItem: Sendable {
        /// The numbers' layer values, and the image paths (with their item-and-key location), read only
        /// when the item is asked for so that images stay on disk.
        case values(Batch.Item, images: [(key: String, url: URL, location: String)])
        /// What asking for the item throws: a value that is not numbers, say. Kept rather than thrown
        /// when the file is read, so that the other items can still be used, as before.
        case invalid(TensorIOError)
    }

    /// Reads the file.
    ///
    /// - Parameters:
    ///   - url: The JSON file.
    ///   - layers: The layers the items feed (a model's inputs), used to read images and class indices.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/io`` when the file cannot be read,
    ///   ``TensorIOError/Code/invalidInput`` naming the item and key when the content is not an array of
    ///   objects with the same keys.
    public init(contentsOf url: URL, layers: LayerList) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TensorIOError(.io, "cannot read the training data \(url.path): \(SystemErrorText.reason(of: error))")
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch let error as TensorIOError {
            throw TensorIOError(.invalidInput, "\(url.lastPathComponent) is not valid JSON: \(error.message)", location: error.location)
        }
        guard case .array(let elements) = root else {
            throw TensorIOError.invalidInput("\(url.lastPathComponent) must hold an array of items, not \(root.typeName)")
        }
        var items: [[String: JSONValue]] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                throw TensorIOError.invalidInput("\(url.lastPathComponent)[\(index)] must be an object keyed by layer name, not \(element.typeName)")
            }
            items.append(object)
        }
        guard let first = items.first else {
            throw TensorIOError.invalidInput("\(url.lastPathComponent) holds no items")
        }
        let keys = first.keys.sorted()
        for (index, item) in items.enumerated() where Set(item.keys) != Set(keys) {
            throw TensorIOError.invalidInput(
                "\(url.lastPathComponent)[\(index)] has the keys \(item.keys.sorted()), but the first item has \(keys)"
            )
        }
        let fileName = url.lastPathComponent
        let layers = Dictionary(layers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let folder = url.deletingLastPathComponent()
        self.keys = keys
        self.fileName = fileName
        let stored = items.enumerated().map { index, object in
            Self.store(object, index: index, fileName: fileName, layers: layers, folder: folder)
        }
        self.columns = Self.columns(of: stored, keys: keys)
        self.count = stored.count
        // The columns hold every value: the items are made from them when asked for.
        self.items = columns == nil ? stored : []
    }

    /// Every item's numbers by key, or `nil` when an item is invalid, has an image, or gives a key a
    /// different count of numbers than the first item.
    private static func columns(of items: [StoredItem], keys: [String]) -> [Batch.Column]? {
        Batch.Column.numbers(keys: keys, count: items.count) { index in
            guard case .values(let item, let images) = items[index], images.isEmpty else { return nil }
            return item
        }
    }

    /// Converts one item's numbers now and notes its image paths, or keeps the error its values give.
    private static func store(
        _ object: [String: JSONValue], index: Int, fileName: String, layers: [String: LayerDescription], folder: URL
    ) -> StoredItem {
        var item: Batch.Item = [:]
        var images: [(key: String, url: URL, location: String)] = []
        do {
            for (key, value) in object {
                let location = "\(fileName)[\(index)].\(key)"
                let layer = layers[key]
                if case .string(let path) = value {
                    guard layer?.isImage == true else {
                        throw TensorIOError.invalidInput("\(location): a string is only accepted as an image path for an image layer")
                    }
                    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
                    images.append((key, url, location))
                    continue
                }
                var numbers: [Double] = []
                try flatten(value, into: &numbers, at: location)
                item[key] = try TrainingValueEncoding.numbers(numbers, for: layer, at: location)
            }
        } catch let error as TensorIOError {
            return .invalid(error)
        } catch {
            return .invalid(TensorIOError.invalidInput("\(fileName)[\(index)]: \(error)"))
        }
        return .values(item, images: images)
    }

    public let count: Int

    /// - Throws: ``TensorIOError`` naming the item and key when a value is not numbers (or an image path
    ///   for an image layer), or an image cannot be read.
    public func item(at index: Int) throws -> Batch.Item {
        guard index >= 0, index < count else {
            throw TensorIOError.invalidInput("item \(index) is out of range: \(fileName) has \(count) items")
        }
        if let columns {
            var item = Batch.Item(minimumCapacity: keys.count)
            for (key, column) in zip(keys, columns) { item[key] = column.value(at: index) }
            return item
        }
        switch items[index] {
        case .invalid(let error):
            throw error
        case .values(var item, let images):
            for image in images {
                do {
                    item[image.key] = .image(try PixelBuffer(contentsOf: image.url))
                } catch var error as TensorIOError {
                    error.location = [image.location, error.location].compactMap { $0 }.joined(separator: ", ")
                    throw error
                }
            }
            return item
        }
    }

    /// - Throws: As ``item(at:)``, for the first item that fails.
    public func batch(at indices: [Int]) throws -> Batch {
        guard let columns else { return try batchOfItems(at: indices) }
        if let index = indices.first(where: { $0 < 0 || $0 >= count }) {
            throw TensorIOError.invalidInput("item \(index) is out of range: \(fileName) has \(count) items")
        }
        return Batch(keys: keys, count: indices.count, columns: columns.map { $0.gathering(indices) })
    }

    private static func flatten(_ value: JSONValue, into numbers: inout [Double], at location: String) throws {
        switch value {
        case .number(let number): numbers.append(number)
        case .bool(let flag): numbers.append(flag ? 1 : 0)
        case .array(let elements):
            for element in elements { try flatten(element, into: &numbers, at: location) }
        default:
            throw TensorIOError.invalidInput("\(location): expected numbers, got \(value.typeName)")
        }
    }
}
