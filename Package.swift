// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TensorIO",
    products: [
        .library(name: "TensorIO", targets: ["TensorIO"]),
        .library(name: "TensorIODelivery", targets: ["TensorIODelivery"]),
        .library(name: "TensorIORepositoryServer", targets: ["TensorIORepositoryServer"]),
        .executable(name: "tensorio", targets: ["TensorIOCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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
        // Model delivery, client side: repository client, local model store, archive checks (Apple-compatible).
        .target(
            name: "TensorIODelivery",
            dependencies: [
                "TensorIO",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Model delivery, server side: the Hummingbird 2 repository server with its GRDB index.
        .target(
            name: "TensorIORepositoryServer",
            dependencies: [
                "TensorIO",
                "TensorIODelivery",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "TensorIOCLI",
            dependencies: [
                "TensorIO",
                "TensorIODelivery",
                "TensorIORepositoryServer",
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
        // What verifying a .tflite file adds to loading it: full loads and the verifier alone, interleaved.
        .executableTarget(
            name: "model-load-benchmark",
            dependencies: ["TensorIO"],
            path: "Benchmarks/ModelLoad"
        ),
        .testTarget(
            name: "TensorIOTests",
            dependencies: ["TensorIO"]
        ),
        // Runs the built `tensorio` executable; depending on its target makes `swift test` build it.
        .testTarget(
            name: "TensorIOCLITests",
            dependencies: ["TensorIO", "TensorIOCLI", "TensorIODelivery"]
        ),
        // The repository server on loopback, started in-process, with the client against it.
        .testTarget(
            name: "TensorIODeliveryTests",
            dependencies: [
                "TensorIO",
                "TensorIODelivery",
                "TensorIORepositoryServer",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ]
)
