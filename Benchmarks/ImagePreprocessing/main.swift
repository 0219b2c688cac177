// Usage: image-preprocessing-benchmark ITERATIONS FILE...
// For each file, prints one JSON line: {"file": ..., "median_ms": ..., "mean_ms": ..., "min_ms": ..., "checksum": ...}
// Each iteration reads the file, decodes it (at reduced size when TurboJPEG can), applies its orientation,
// centre-crops and scales it to 224×224 and writes [-1, 1]-normalized float32 RGB into a tensor buffer.
import Foundation
import TensorIO

let arguments = CommandLine.arguments.dropFirst()
guard let iterations = arguments.first.flatMap(Int.init), iterations > 0, arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: image-preprocessing ITERATIONS FILE...\n".utf8))
    exit(2)
}
let layer = LayerDescription(
    name: "image", shape: [224, 224, 3], kind: .image(format: .rgb, normalization: .standard(.minusOneToOne))
)
let target = ImageSize(width: 224, height: 224)
let tensor = UnsafeMutableRawBufferPointer.allocate(byteCount: 224 * 224 * 3 * 4, alignment: 64)
defer { tensor.deallocate() }

for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    var times: [Double] = []
    for _ in 0..<(iterations + 2) {  // two warm-up rounds
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let image = try PixelBuffer(contentsOf: url, targetSize: target)
            try layer.writeImage(image, into: tensor)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times = Array(times.dropFirst(2)).sorted()
    let floats = tensor.bindMemory(to: Float.self)
    let checksum = floats.reduce(0, +) / Float(floats.count)
    print("{\"file\": \"\(path)\", \"median_ms\": \(times[times.count / 2]), \"mean_ms\": \(times.reduce(0, +) / Double(times.count)), \"min_ms\": \(times[0]), \"checksum\": \(checksum)}")
}
