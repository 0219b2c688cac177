/// One or two values held inline, more in an array: how ``Outputs`` and `PreparedInputs` hold a run's
/// outputs and inputs. Most models have no more than two, and an array of them would be an allocation and
/// a free on every run (about 0.05 µs of the 0.3 µs `make bench` allows a run of the number model over
/// the raw LiteRT loop).
///
/// ``init(_:)`` picks the case from the count, so equal values always share a case and the synthesized
/// `==` and `hash(into:)` agree with the elements'.
enum InlineValues<Element> {
    case one(Element)
    case two(Element, Element)
    case other([Element])

    /// `values`, inline when there are one or two.
    init(_ values: [Element]) {
        switch values.count {
        case 1: self = .one(values[0])
        case 2: self = .two(values[0], values[1])
        default: self = .other(values)
        }
    }

    /// How many values there are.
    var count: Int {
        switch self {
        case .one: 1
        case .two: 2
        case .other(let values): values.count
        }
    }

    /// The value at `index`, from 0 to `count - 1`.
    subscript(index: Int) -> Element {
        switch self {
        case .one(let value):
            precondition(index == 0, "index \(index) of 1 value")
            return value
        case .two(let first, let second):
            precondition(index == 0 || index == 1, "index \(index) of 2 values")
            return index == 0 ? first : second
        case .other(let values):
            return values[index]
        }
    }
}

extension InlineValues: Sendable where Element: Sendable {}
extension InlineValues: Equatable where Element: Equatable {}
extension InlineValues: Hashable where Element: Hashable {}
