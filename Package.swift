// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TensorIO",
    products: [
        .library(name: "TensorIO", targets: ["TensorIO"]),
        .executable(name: "tensorio", targets: ["TensorIOCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Our own declarations of the LiteRT C API and a dlopen loader: `swift build` needs no ML library.
        .target(name: "CLiteRT"),
        // The same for the TensorFlow C API (the "tensorflow" backend), from tensorflow-cpu's wheel.
        .target(name: "CTensorFlow"),
        // Image codecs and SIMD pixel work, from Debian's -dev packages (scripts/setup.sh installs them).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        .target(
            name: "TensorIO",
            dependencies: [
                "CLiteRT",
                "CTensorFlow",
                "CTurboJPEG",
                "CSPNG",
                "CYUV",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "TensorIOCLI",
            dependencies: [
                "TensorIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Times the image path for the side-by-side comparison in Benchmarks/run-image-benchmarks.py.
        .executableTarget(
            name: "image-preprocessing-benchmark",
            dependencies: ["TensorIO"],
            path: "Benchmarks/ImagePreprocessing"
        ),
        // The floor for Benchmarks/run-benchmarks.py: the LiteRT C API in a bare loop, nothing of TensorIO.
        .executableTarget(
            name: "raw-litert-benchmark",
            dependencies: ["CLiteRT"],
            path: "Benchmarks/RawLiteRT"
        ),
        .testTarget(
            name: "TensorIOTests",
            dependencies: ["TensorIO"]
        ),
        // Runs the built `tensorio` executable; depending on its target makes `swift test` build it.
        .testTarget(
            name: "TensorIOCLITests",
            dependencies: ["TensorIO", "TensorIOCLI"]
        ),
    ]
)
