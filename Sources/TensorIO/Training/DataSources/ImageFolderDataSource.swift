public import Foundation
internal import TensorIOSupport

/// Training items from a folder holding one sub-folder of images per label (`digits/3/a.png`).
///
/// Each item feeds the model's image input with the picture (read when the item is needed) and its
/// other input with the label: a one-hot vector when that layer has one element per class, else the
/// class index. Classes are numbered as in the labels of the model's labelled output when it has one
/// (every folder must then be one of those labels), else in the folders' sorted order.
public struct ImageFolderDataSource: BatchDataSource {
    public let keys: [String]
    /// The class names, in class-index order.
    public let classes: [String]
    private let samples: [(url: URL, classIndex: Int)]
    private let imageLayer: LayerDescription
    private let labelLayer: LayerDescription

    /// The image file extensions read.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// Lists the images.
    ///
    /// - Parameters:
    ///   - directory: The folder of label folders.
    ///   - inputs: The layers training feeds: exactly one image layer and one other (the label).
    ///   - labels: The class names in index order (a labelled output's labels), or `nil` to number the
    ///     folders in sorted order.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidInput`` when the layers are not one image
    ///   and one label layer, a folder is not a known label, the label layer's size fits neither a class
    ///   index nor a one-hot vector, or there are no images; ``TensorIOError/Code/io`` when the folder
    ///   cannot be read.
    public init(directory: URL, inputs: LayerList, labels: [String]? = nil) throws {
        let images = inputs.filter(\.isImage)
        let others = inputs.filter { !$0.isImage }
        guard images.count == 1, others.count == 1 else {
            throw TensorIOError.invalidInput(
                "a folder of images per label feeds a model with one image input and one label input; this one's training inputs are \(inputs.map { "\"\($0.name)\" (\($0.kindName))" }.joined(separator: ", "))"
            )
        }
        imageLayer = images[0]
        labelLayer = others[0]
        let files = FileManager.default
        let folders: [String]
        do {
            folders = try files.contentsOfDirectory(atPath: directory.path).filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".")
                    && files.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }.sorted()
        } catch {
            throw TensorIOError(.io, "cannot read the training folder \(directory.path): \(SystemErrorText.reason(of: error))")
        }
        guard !folders.isEmpty else {
            throw TensorIOError.invalidInput("\(directory.path) has no label folders (one sub-folder of images per label)")
        }
        let classes = labels ?? folders
        var samples: [(URL, Int)] = []
        for folder in folders {
            guard let classIndex = classes.firstIndex(of: folder) else {
                throw TensorIOError.invalidInput(
                    "the folder \"\(folder)\" is not one of the model's labels (\(classes.prefix(10).joined(separator: ", "))\(classes.count > 10 ? ", …" : ""))"
                )
            }
            let url = directory.appendingPathComponent(folder)
            let names = (try? files.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where Self.imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                samples.append((url.appendingPathComponent(name), classIndex))
            }
        }
        guard !samples.isEmpty else {
            throw TensorIOError.invalidInput("the label folders in \(directory.path) hold no PNG or JPEG images")
        }
        guard labelLayer.elementCount == 1 || labelLayer.elementCount == classes.count else {
            throw TensorIOError.invalidInput(
                "the label layer has \(labelLayer.elementCount) elements: it must have 1 (a class index) or \(classes.count) (one-hot over the classes)",
                layer: labelLayer.name
            )
        }
        self.keys = [imageLayer.name, labelLayer.name].sorted()
        self.classes = classes
        self.samples = samples
    }

    public var count: Int { samples.count }

    /// - Throws: ``TensorIOError`` when the image cannot be read.
    public func item(at index: Int) throws -> Batch.Item {
        guard samples.indices.contains(index) else {
            throw TensorIOError.invalidInput("item \(index) is out of range: the folder has \(samples.count) images")
        }
        let sample = samples[index]
        let label: InputValue
        if labelLayer.elementCount == 1 {
            label = .numbers(.float64([Double(sample.classIndex)]))
        } else {
            var oneHot = [Double](repeating: 0, count: labelLayer.elementCount)
            oneHot[sample.classIndex] = 1
            label = .numbers(.float64(oneHot))
        }
        return [imageLayer.name: .image(try PixelBuffer(contentsOf: sample.url)), labelLayer.name: label]
    }
}
