// Fuzz target: NumPy inputs as `tensorio run --input @FILE` reads them. The first byte picks the format:
// even, the rest is a `.npy` array (header dictionary, dtype, shape, data); odd, the rest is an `.npz`
// archive (zip entries, each a `.npy` array). Every array that parses is read in full.
import Foundation
import FuzzSupport
// tensorio's own NumPyArray and NumPyArchive, compiled into this package (Fuzz/Package.swift).
import NumPyReader
import TensorIO

/// The archive's limit on unpacked bytes, smaller than the tool's (1 GiB) so that a crafted size is
/// refused rather than allocated on every run of the fuzzer.
let maximumBytes = 64 << 20

func fuzzNumPy(_ data: Data) {
    guard let format = data.first else { return }
    let contents = Data(data.dropFirst())
    if format & 1 == 0 {
        if let array = try? NumPyArray(contents, source: "fuzz.npy") { _ = array.values.count }
    } else if let arrays = try? NumPyArchive.arrays(
        in: contents, path: "fuzz.npz", argument: "@fuzz.npz", maximumBytes: maximumBytes)
    {
        for (_, array) in arrays { _ = array.values.count }
    }
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzNumPy) }
}
