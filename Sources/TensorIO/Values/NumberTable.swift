internal import TensorIOSupport

/// A data source's numbers for one key: every item's `width` numbers end to end, `rowCount` items, as
/// the file gave them (``JSONDataSource`` and ``CSVDataSource`` keep doubles). Shared by every batch drawn
/// from the source (``Batch/Column/rows(_:indices:)``), so that a training step writes the rows it needs
/// straight into its tensor.
final class NumberTable: Sendable {
    let numbers: NumericArray
    let width: Int
    let rowCount: Int
    /// The numbers as float32, made on the first write into a float32 tensor (`nil` inside until then;
    /// `.some(nil)` when they cannot be: see ``float32``).
    private let float32Copy = LockedValue<[Float]??>(nil)

    init(numbers: NumericArray, width: Int, rowCount: Int) {
        precondition(width >= 0 && rowCount >= 0 && numbers.count == width * rowCount, "\(numbers.count) numbers in \(rowCount) rows of \(width)")
        self.numbers = numbers
        self.width = width
        self.rowCount = rowCount
    }

    /// Row `index`'s numbers, in their type.
    func row(_ index: Int) -> InputValue {
        .numbers(numbers.slice((index * width)..<((index + 1) * width)))
    }

    /// Every number converted to float32 once, exactly as writing them into a float32 tensor converts
    /// each (`Float(value)`, to the nearest): a float32 layer's batches then copy their rows instead of
    /// converting them at every step, which for a small model was several percent of the step. `nil` when
    /// the numbers are neither doubles nor floats, or when a finite double becomes infinite (a value out
    /// of float32's range): writing them is an error the element-by-element path names.
    var float32: [Float]? {
        float32Copy.withLock { cached in
            if let cached { return cached }
            let made: [Float]?
            switch numbers {
            case .float32(let floats):
                made = floats
            case .float64(let doubles):
                let floats = doubles.map { Float($0) }
                let overflows = zip(doubles, floats).contains { $0.isFinite && $1.isInfinite }
                made = overflows ? nil : floats
            default:
                made = nil
            }
            cached = .some(made)
            return made
        }
    }
}
