// Fuzz target: model.json reading (JSON syntax, schema, limits) through the public entry point.
import FuzzSupport
import Foundation
import TensorIO

func fuzzModelJSON(_ data: Data) {
    _ = ModelBundleValidator.issues(inModelJSON: data)
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzModelJSON) }
}
