// swift-tools-version:6.1
import PackageDescription

// A package that uses TensorIO as an app would: the TensorIO library alone, with none of the package's
// traits (no delivery client, no tool or server). scripts/consumer-check.sh builds it and fails when SwiftPM
// resolves more than swift-log for it.
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15), .iOS(.v16)],
    dependencies: [
        // A consumer writes .package(url: "https://…/tensorio-swift", from: "…", traits: []).
        .package(name: "TensorIO", path: "../..", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "TensorIO", package: "TensorIO")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
