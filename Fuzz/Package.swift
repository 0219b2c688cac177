// swift-tools-version:6.1
import PackageDescription

// The fuzz targets (`make fuzz`, scripts/fuzz.sh, docs/security.md): a package of their own, so that a
// plain `swift build` of TensorIO does not build them. With -DFUZZING and -sanitize=fuzzer they are
// libFuzzer binaries; in an ordinary build (`swift build --package-path Fuzz`) they replay the files
// named on their command line.
//
// They reach TensorIO's internals only as a client in another package can: its public API and what it
// shares as `@_spi(Tools)`; `package` access does not cross into this package.

/// Upcoming language features, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "TensorIOFuzz",
    // TensorIO's own minimum (a dependency may not ask for more than its client declares).
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        // The checkout this folder is in. Named: a path dependency's identity is its folder's name, which
        // differs between checkouts (a clone into another folder, a git worktree). Tools: fuzz-delivery
        // reads what the repository server reads.
        .package(name: "TensorIO", path: "..", traits: ["Tools"]),
        // CLIError (NumPyReader) uses its exit codes; the same package the root depends on.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "FuzzSupport", path: "FuzzSupport", swiftSettings: upcomingFeatures),
        // tensorio's NumPy readers, compiled again here from the same files (symlinks into the root's
        // Sources/TensorIOToolSupport): they are `package` there, and that target is no product.
        .target(
            name: "NumPyReader",
            dependencies: [
                .product(name: "TensorIO", package: "TensorIO"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "NumPyReader",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-model-json",
            dependencies: ["FuzzSupport", .product(name: "TensorIO", package: "TensorIO")],
            path: "ModelJSON", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-model-file",
            dependencies: ["FuzzSupport", .product(name: "TensorIO", package: "TensorIO")],
            path: "ModelFile", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-image",
            dependencies: ["FuzzSupport", .product(name: "TensorIO", package: "TensorIO")],
            path: "Image", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-archive",
            dependencies: [
                "FuzzSupport",
                .product(name: "TensorIO", package: "TensorIO"),
                .product(name: "TensorIODelivery", package: "TensorIO"),
            ],
            path: "Archive", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-training-data",
            dependencies: ["FuzzSupport", .product(name: "TensorIO", package: "TensorIO")],
            path: "TrainingData", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-numpy",
            dependencies: ["FuzzSupport", "NumPyReader", .product(name: "TensorIO", package: "TensorIO")],
            path: "NumPy", swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "fuzz-delivery",
            dependencies: [
                "FuzzSupport",
                .product(name: "TensorIODelivery", package: "TensorIO"),
                .product(name: "TensorIORepositoryServer", package: "TensorIO"),
            ],
            path: "Delivery", swiftSettings: upcomingFeatures
        ),
    ]
)
