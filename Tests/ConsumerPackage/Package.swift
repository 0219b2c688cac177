// swift-tools-version:6.1
import PackageDescription

// A package that uses TensorIO as an app would: the TensorIO library alone, depended on by URL with nothing
// else (the package's default traits are empty: no delivery client, no tool or server).
// scripts/consumer-check.sh builds it and fails when SwiftPM resolves more than swift-log for it.
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15), .iOS(.v16)],
    dependencies: [
        // A consumer writes .package(url: "https://…/tensorio-swift", from: "…").
        .package(name: "TensorIO", path: "../.."),
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
