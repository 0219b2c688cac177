/// A JSON tree with its members in order, for writing `model.json` entries the library builds (the tool
/// renders it; the library itself writes no JSON text).
@_spi(Internal) public indirect enum OrderedJSON: Sendable, Hashable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case array([OrderedJSON])
    case object([Member])

    @_spi(Internal) public struct Member: Sendable, Hashable {
        @_spi(Internal) public var key: String
        @_spi(Internal) public var value: OrderedJSON

        @_spi(Internal) public init(key: String, value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }
}
