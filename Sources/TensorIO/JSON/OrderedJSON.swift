/// A JSON tree with its members in order, for writing `model.json` entries the library builds (the tool
/// renders it; the library itself writes no JSON text).
package indirect enum OrderedJSON: Sendable, Hashable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case array([OrderedJSON])
    case object([Member])

    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: OrderedJSON

        package init(key: String, value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }
}
