// swift-tools-version:6.1
import PackageDescription

// The benchmarks (`make bench`, docs/performance.md): a package of their own, so that a plain `swift
// build` of TensorIO does not build them. They build in release from the repository's root with
// `swift build -c release --static-swift-stdlib --package-path Benchmarks` (the Makefile's flags), into
// Benchmarks/.build.

/// Upcoming language features, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// TensorIO's internal modules that model-load-benchmark uses, compiled again in this package (see the
/// targets) under their own names, so the sources' imports of one another hold; the root's copies, in
/// this graph through TensorIO, are renamed for this package's build by these aliases.
let rootInternalModules = [
    "TensorIOSupport": "RootTensorIOSupport",
    "TensorIOModelFile": "RootTensorIOModelFile",
]

/// A product of the root package, its internal modules under the aliases above.
func tensorIO(_ product: String) -> Target.Dependency {
    .product(name: product, package: "TensorIO", moduleAliases: rootInternalModules)
}

let package = Package(
    name: "TensorIOBenchmarks",
    // TensorIO's own minimum (a dependency may not ask for more than its client declares).
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        // The checkout this folder is in, through the symlink TensorIO (to ..): a path dependency's
        // identity is its folder's name, and a checkout's own name differs between clones and worktrees.
        // Not `.package(name: "TensorIO", path: "..")`: SwiftPM then drops the module aliases below when
        // the folder is not called TensorIO. The library alone, no traits.
        .package(path: "TensorIO", traits: []),
    ],
    targets: [
        // The LiteRT C declarations and the dlopen loader TensorIO uses, compiled again here from the same
        // files (each folder is a symlink to the root's Sources/CLiteRT and Sources/CRuntimeLoader):
        // the root package keeps them internal, not products a consumer could import. Other names than
        // the root's targets, which are in this graph too (through TensorIO): C modules cannot be aliased.
        .target(name: "BenchCLiteRT", dependencies: ["BenchCRuntimeLoader"], path: "BenchCLiteRT"),
        .target(name: "BenchCRuntimeLoader", path: "BenchCRuntimeLoader"),
        // The model-file verifier, for model-load-benchmark: `package` in the root (TensorIOModelFile,
        // over TensorIOSupport), which no other package can see, so compiled here from the same files
        // (symlinks into the root's Sources).
        .target(name: "TensorIOSupport", path: "Internal/TensorIOSupport", swiftSettings: upcomingFeatures),
        .target(
            name: "TensorIOModelFile", dependencies: ["TensorIOSupport"], path: "Internal/TensorIOModelFile",
            swiftSettings: upcomingFeatures
        ),
        // The clock and the median and percentiles every benchmark program sums its runs up with.
        .target(name: "BenchmarkStatistics", path: "Statistics", swiftSettings: upcomingFeatures),
        // Times the image path for the side-by-side comparison in run-image-benchmarks.py.
        .executableTarget(
            name: "image-preprocessing-benchmark",
            dependencies: [tensorIO("TensorIO")],
            path: "ImagePreprocessing",
            swiftSettings: upcomingFeatures
        ),
        // The floor for run-benchmarks.py: the LiteRT C API in a bare loop, nothing of TensorIO (which
        // it must not link either: TensorIO's copy of the same C functions would clash with these).
        .executableTarget(
            name: "raw-litert-benchmark",
            dependencies: ["BenchCLiteRT"],
            path: "RawLiteRT",
            swiftSettings: upcomingFeatures
        ),
        // What verifying a .tflite file adds to loading it: full loads and the verifier alone, interleaved.
        .executableTarget(
            name: "model-load-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), "TensorIOModelFile"],
            path: "ModelLoad",
            swiftSettings: upcomingFeatures
        ),
        // Detection per photo and what detection adds to a run, for run-detection-benchmarks.py.
        .executableTarget(
            name: "detection-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOVision")],
            path: "Detection",
            swiftSettings: upcomingFeatures
        ),
        // Segmentation per photo and what the mask adds to a run, for run-segmentation-benchmarks.py.
        .executableTarget(
            name: "segmentation-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOVision")],
            path: "Segmentation",
            swiftSettings: upcomingFeatures
        ),
        // Landmarks per photo (hand, face, pose) and the two invokes within it, for run-landmarks-benchmarks.py.
        .executableTarget(
            name: "landmarks-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOVision")],
            path: "Landmarks",
            swiftSettings: upcomingFeatures
        ),
        // Video decoding alone, and decoding with pose landmarks tracked frame to frame, for
        // run-video-benchmarks.py.
        .executableTarget(
            name: "video-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOVideo"), tensorIO("TensorIOVision")],
            path: "Video",
            swiftSettings: upcomingFeatures
        ),
        // Audio classification of a long recording (read, mix, resample, every window), and its parts, for
        // run-audio-benchmarks.py.
        .executableTarget(
            name: "audio-classification-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOAudio")],
            path: "AudioClassification",
            swiftSettings: upcomingFeatures
        ),
        // Text classification per sentence, and its tokenization and run alone, for run-text-benchmarks.py.
        .executableTarget(
            name: "text-classification-benchmark",
            dependencies: ["BenchmarkStatistics", tensorIO("TensorIO"), tensorIO("TensorIOText")],
            path: "TextClassification",
            swiftSettings: upcomingFeatures
        ),
        // What an isolated load check costs next to loading in this process (docs/security.md).
        .executableTarget(
            name: "load-check-benchmark",
            dependencies: ["BenchmarkStatistics", 
                tensorIO("TensorIO"),
                // Not linked, built: the isolated checks run it from next to this program.
                tensorIO("tensorio-load-check"),
            ],
            path: "LoadCheck",
            swiftSettings: upcomingFeatures
        ),
    ]
)
