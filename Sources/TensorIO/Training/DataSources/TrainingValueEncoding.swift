/// How values read from data files become layer values.
enum TrainingValueEncoding {
    /// Numbers for `layer`: as given, except that one whole number `k` for a layer of `n > 1` elements
    /// becomes a one-hot vector (1 at `k`), so class indices can label a one-hot layer.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when a class index is out of range.
    static func numbers(_ values: [Double], for layer: LayerDescription?, at location: String) throws -> InputValue {
        guard let layer, !layer.isImage, layer.elementCount > 1, values.count == 1 else {
            return .numbers(.float64(values))
        }
        let value = values[0]
        guard value == value.rounded(), value >= 0, value < Double(layer.elementCount) else {
            throw TensorIOError.invalidInput(
                "\(location): \(JSONValue.number(value).brief) is neither \(layer.elementCount) numbers nor a class index from 0 to \(layer.elementCount - 1)",
                layer: layer.name
            )
        }
        var oneHot = [Double](repeating: 0, count: layer.elementCount)
        oneHot[Int(value)] = 1
        return .numbers(.float64(oneHot))
    }
}
