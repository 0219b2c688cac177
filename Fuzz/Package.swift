// swift-tools-version:6.1
import PackageDescription

// The fuzz targets (`make fuzz`, scripts/fuzz.sh, docs/security.md): a package of their own, so that a
// plain `swift build` of TensorIO does not build them. With -DFUZZING and -sanitize=fuzzer they are
// libFuzzer binaries; in an ordinary build (`swift build --package-path Fuzz`) they replay the files
// named on their command line.
//
// `package` access does not cross into this package: what the targets need of TensorIO's internal
// modules (the verifier, the metadata readers, the zip reader) and of tensorio's NumPy readers is compiled
// again here from the same files, through symlinks into the root's Sources.

/// Upcoming language features, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// TensorIO's internal modules compiled again in this package (see the targets) under their own names,
/// so that the sources' imports of one another hold; the root's copies, in this graph through TensorIO's
/// products, are renamed for this package's build by these aliases.
let rootInternalModules = [
    "TensorIOSupport": "RootTensorIOSupport",
    "TensorIOArchive": "RootTensorIOArchive",
    "TensorIOModelFile": "RootTensorIOModelFile",
    "TensorIOMetadata": "RootTensorIOMetadata",
]

/// A product of the root package, its internal modules under the aliases above.
func tensorIO(_ product: String) -> Target.Dependency {
    .product(name: product, package: "TensorIO", moduleAliases: rootInternalModules)
}

let package = Package(
    name: "TensorIOFuzz",
    // TensorIO's own minimum (a dependency may not ask for more than its client declares).
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        // The checkout this folder is in, through the symlink TensorIO (to ..): a path dependency's
        // identity is its folder's name, and a checkout's own name differs between clones and worktrees.
        // Not `.package(name: "TensorIO", path: "..")`: SwiftPM then drops the module aliases above when
        // the folder is not called TensorIO. Server: fuzz-delivery reads what the repository server reads.
        .package(path: "TensorIO", traits: ["Server"]),
        // CLIError (NumPyReader) uses its exit codes; the same package the Tools package depends on.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "FuzzSupport", path: "FuzzSupport", swiftSettings: upcomingFeatures),
        // TensorIO's internal modules the targets fuzz, from the root's Sources (Internal/ holds symlinks).
        .target(name: "TensorIOSupport", path: "Internal/TensorIOSupport", swiftSettings: upcomingFeatures),
        .target(
            name: "TensorIOArchive", dependencies: ["TensorIOSupport", "FuzzSystemZlib"],
            path: "Internal/TensorIOArchive", swiftSettings: upcomingFeatures
        ),
        .target(
            name: "TensorIOModelFile", dependencies: ["TensorIOSupport"], path: "Internal/TensorIOModelFile",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "TensorIOMetadata", dependencies: ["TensorIOSupport", "TensorIOModelFile", "TensorIOArchive"],
            path: "Internal/TensorIOMetadata", swiftSettings: upcomingFeatures
        ),
        // zlib for TensorIOArchive: the root's module map (module CSystemZlib), under another target name
        // (a system library's name cannot be aliased, and the root's is in this graph too).
        .systemLibrary(name: "FuzzSystemZlib", path: "Internal/CSystemZlib"),
        // tensorio's NumPy readers, compiled again here from the same files (symlinks into
        // Tools/Sources/TensorIOToolSupport): that target is the Tools package's, no product. TensorIOArchive and TensorIOSupport, which NumPyArchive imports, come through
        // TensorIOMetadata: naming them here beside the aliased TensorIO product makes SwiftPM 6.3 give
        // the aliases to this package's own TensorIOMetadata and TensorIOModelFile too, which then clash.
        .target(
            name: "NumPyReader",
            dependencies: [
                "TensorIOMetadata",
                tensorIO("TensorIO"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "NumPyReader",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-model-json",
            dependencies: ["FuzzSupport", tensorIO("TensorIO"), tensorIO("TensorIOVision"), tensorIO("TensorIOAudio"), tensorIO("TensorIOText")],
            path: "ModelJSON", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-model-file",
            dependencies: ["FuzzSupport", "TensorIOModelFile", "TensorIOMetadata", tensorIO("TensorIO")],
            path: "ModelFile", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-image",
            dependencies: ["FuzzSupport", tensorIO("TensorIO")],
            path: "Image", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-audio",
            dependencies: ["FuzzSupport", tensorIO("TensorIO"), tensorIO("TensorIOAudio")],
            path: "Audio", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-video",
            dependencies: ["FuzzSupport", tensorIO("TensorIO"), tensorIO("TensorIOVideo")],
            path: "Video", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-text",
            dependencies: ["FuzzSupport", tensorIO("TensorIO"), tensorIO("TensorIOText")],
            path: "Text", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-archive",
            dependencies: [
                "FuzzSupport",
                tensorIO("TensorIO"),
                tensorIO("TensorIODelivery"),
            ],
            path: "Archive", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-training-data",
            dependencies: ["FuzzSupport", tensorIO("TensorIO")],
            path: "TrainingData", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-numpy",
            dependencies: ["FuzzSupport", "NumPyReader", tensorIO("TensorIO")],
            path: "NumPy", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-delivery",
            dependencies: [
                "FuzzSupport",
                tensorIO("TensorIODelivery"),
                tensorIO("TensorIORepositoryServer"),
            ],
            path: "Delivery", swiftSettings: upcomingFeatures
        ),
    ]
)
