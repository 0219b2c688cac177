// swift-tools-version:6.1
import PackageDescription

// The tools: `tensorio` (the model commands) and `tensorio-repository` (the repository commands and the
// server), a package of their own beside the libraries, which they use like any app does. Their
// dependencies (ArgumentParser, swift-configuration, cairo) are plainly required here, so no file needs a
// compile condition, and a consumer of the libraries never resolves them. `make build` builds the three
// programs from the repository's root with `swift build --package-path Tools` into Tools/.build, and
// `tensorio-load-check` (the root's) next to them.

/// Upcoming language features, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A product of the root package.
func tensorIO(_ product: String) -> Target.Dependency {
    .product(name: product, package: "TensorIO")
}

let package = Package(
    name: "TensorIOTools",
    // TensorIO's own minimum; the tools use Mutex (Synchronization) and Hummingbird 2 needs macOS 14.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tensorio", targets: ["TensorIOCLI"]),
        // tensorio's repository commands (serve, push, pull, …), which it hands over to this program:
        // linking the networking libraries into tensorio itself would slow every model command's start.
        .executable(name: "tensorio-repository", targets: ["TensorIORepositoryCLI"]),
    ],
    dependencies: [
        // The checkout this folder is in, through the symlink TensorIO (to ..): a path dependency's identity
        // is its folder's name, and a checkout's own name differs between clones and worktrees. The Server
        // trait: the repository server library (it enables Delivery, the client).
        .package(path: "TensorIO", traits: ["Server"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `tensorio serve` configuration: flags over environment over a JSON file (default trait JSON only).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        // cairo, for `tensorio detect --draw` and `segment --overlay`.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // What both programs share: errors, output, logging, the main loop.
        .target(
            name: "TensorIOToolSupport",
            dependencies: [
                tensorIO("TensorIO"),
                tensorIO("_TensorIOInternals"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // `tensorio`: the model commands; no networking library (RepositoryHandover).
        .executableTarget(
            name: "TensorIOCLI",
            dependencies: [
                "TensorIOToolSupport",
                "CCairo",
                tensorIO("TensorIO"),
                tensorIO("TensorIOVision"),
                tensorIO("TensorIOAudio"),
                tensorIO("TensorIOText"),
                // Video files for the vision commands (FFmpeg: decoding clips, writing the drawn ones).
                tensorIO("TensorIOVideo"),
                tensorIO("_TensorIOInternals"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // `tensorio-repository`: the repository commands.
        .executableTarget(
            name: "TensorIORepositoryCLI",
            dependencies: [
                "TensorIOToolSupport",
                tensorIO("TensorIO"),
                tensorIO("TensorIODelivery"),
                tensorIO("TensorIORepositoryServer"),
                tensorIO("_TensorIOInternals"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The root's test support, the same files (Tests/TestSupport is a symlink to the root's): fixtures,
        // temporary folders, running the built programs, servers on loopback. CraftedZip is the library's
        // archive tests' alone (over zlib, which the root keeps internal).
        .testTarget(
            name: "TensorIOTestSupport",
            dependencies: [
                tensorIO("TensorIO"),
                tensorIO("TensorIOVision"),
                tensorIO("TensorIOAudio"),
                tensorIO("TensorIOText"),
                tensorIO("TensorIODelivery"),
                tensorIO("TensorIORepositoryServer"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            exclude: ["CraftedZip.swift"],
            swiftSettings: upcomingFeatures
        ),
        // Runs the built programs; depending on their targets makes `swift test` build them.
        .testTarget(
            name: "TensorIOCLITests",
            dependencies: [
                "TensorIOTestSupport", "TensorIOCLI", "TensorIORepositoryCLI", "TensorIOToolSupport",
                tensorIO("TensorIO"),
                tensorIO("tensorio-load-check"),
                tensorIO("TensorIODelivery"),
                // For making clips and reading the drawn videos back (the video commands' tests), and the
                // landmark tracker the landmarks command's answers on a clip are checked against.
                tensorIO("TensorIOVideo"),
                tensorIO("TensorIOVision"),
                // For reading both programs' subcommands (RepositoryHandoverTests).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: upcomingFeatures
        ),
    ]
)
