import Foundation
@_spi(Internal) import TensorIO

/// A trainable classification head as `scripts/heads/make_classifier_heads.py` wrote it: softmax regression
/// on up to ``featureCapacity`` features and ``classCapacity`` classes, for one backend, with its
/// `model.json`. Features beyond a base's own are zero with a scale of zero; classes beyond the trained ones
/// have a mask of −10⁹, so the head is the same function as one of the exact size (docs/training-classifiers.md).
///
/// The files are compiled in (``files``, generated): they are mostly the zeros of the initial weights, so
/// they are kept run-length encoded, and decoded when a training writes a head.
struct ClassifierHeadTemplate: Sendable, Hashable {
    /// The classes every head has room for.
    static let classCapacity = 100
    /// The template sizes, smallest first.
    static let featureCapacities = [64, ClassifierHeadDescription.maximumFeatures]

    let backend: ClassifierBackend
    /// The features the head takes (its input's width).
    let featureCapacity: Int

    /// The smallest template that takes `featureCount` features.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/limitExceeded`) when no template is that wide.
    init(backend: ClassifierBackend, featureCount: Int) throws {
        guard let capacity = Self.featureCapacities.first(where: { $0 >= featureCount }) else {
            throw TensorIOError(
                .limitExceeded,
                "the features have \(featureCount) values; a classification head takes at most \(Self.featureCapacities.last!)"
            )
        }
        self.backend = backend
        featureCapacity = capacity
    }

    /// The name the generated files are listed under.
    var name: String { "\(backend.rawValue)-\(featureCapacity)" }

    /// The model file's path in the head's bundle (`model.file`).
    var modelPath: String { backend == .tflite ? "model.tflite" : "head" }

    /// Writes the head's model files into `folder` (which exists), each checked against its recorded size.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/io`) when a file cannot be written.
    func writeModel(into folder: URL) throws {
        let files = Self.files.filter { $0.template == name }
        precondition(!files.isEmpty, "no generated files for the head template \(name)")
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.decoded().write(to: url)
            } catch {
                throw TensorIOError(.io, "writing the classification head's \(file.path) failed: \(error.localizedDescription)")
            }
        }
    }

    /// The head's layers and training settings in `model.json` (for JSONSerialization).
    var modelJSONLayers: [String: Any] {
        let features = featureCapacity, classes = Self.classCapacity
        func layer(_ name: String, _ shape: [Int]) -> [String: Any] { ["name": name, "type": "array", "shape": shape] }
        return [
            "inputs": [layer(Self.featuresLayer, [-1, features]), layer("label", [-1, classes])],
            "outputs": [layer(Self.probabilitiesLayer, [-1, classes]), layer("loss", [1])],
            "placeholders": [
                layer("learning_rate", [1]), layer("momentum", [1]), layer("weight_decay", [1]),
                layer("class_mask", [classes]), layer("feature_mean", [features]), layer("feature_scale", [features]),
            ],
            "train": ["ops": ["train"], "inputs": ["label"], "outputs": ["loss"]],
        ]
    }

    /// The head's input and prediction output.
    static let featuresLayer = "features", probabilitiesLayer = "probabilities"
}

/// Where a classification head trains and runs.
public enum ClassifierBackend: String, Sendable, Hashable, CaseIterable {
    /// TensorFlow Lite through LiteRT, with TensorFlow's on-device training signatures.
    case tflite
    /// The TensorFlow runtime, a TF1-graph SavedModel's `train` operation.
    case tensorflow
}

extension ClassifierHeadTemplate {
    /// One generated file: run-length encoded (records of a literal count, the literal bytes and a count of
    /// zeros, counts as unsigned LEB128), then base64.
    struct EncodedFile: Sendable {
        let template: String
        let path: String
        let size: Int
        let sha256: String
        let base64: String

        /// The file's bytes. The encoding is compiled in, not read from outside: a malformed one is a
        /// build mistake and stops here.
        func decoded() -> Data {
            guard let encoded = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
                  let bytes = Self.runLengthDecoded(encoded, size: size)
            else { preconditionFailure("the generated head file \(template)/\(path) does not decode to \(size) bytes") }
            return bytes
        }

        /// `nil` unless the records give exactly `size` bytes.
        static func runLengthDecoded(_ encoded: Data, size: Int) -> Data? {
            var output = Data(capacity: size)
            var position = encoded.startIndex
            func count() -> Int? {
                var value = 0, shift = 0
                while position < encoded.endIndex, shift < 63 {
                    let byte = encoded[position]
                    position += 1
                    value |= Int(byte & 0x7F) << shift
                    if byte & 0x80 == 0 { return value }
                    shift += 7
                }
                return nil
            }
            while position < encoded.endIndex {
                guard let literal = count(), literal <= encoded.endIndex - position, literal <= size - output.count else { return nil }
                output.append(encoded[position..<(position + literal)])
                position += literal
                guard let zeros = count(), zeros <= size - output.count else { return nil }
                output.append(contentsOf: repeatElement(0, count: zeros))
            }
            return output.count == size ? output : nil
        }
    }
}
