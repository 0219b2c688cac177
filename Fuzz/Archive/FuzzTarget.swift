// Fuzz target: the bounded zip reader and inflater, in memory, with the path rules and limits extraction
// applies.
import FuzzSupport
import Foundation
import TensorIO
import TensorIODelivery

func fuzzArchive(_ data: Data) {
    var limits = BundleArchive.Limits()
    limits.maximumUnpackedBytes = 64 << 20
    limits.timeLimit = 10
    _ = try? BundleArchive.unpack(data, limits: limits, name: "fuzz.zip")
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzArchive) }
}
