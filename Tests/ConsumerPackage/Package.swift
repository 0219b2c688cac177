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
        // An app that listens and reads: the TensorIOAudio and TensorIOText libraries (still swift-log
        // alone to resolve; Debian's libsndfile, libsoxr, RE2 and SentencePiece to link, which the
        // consumer check makes sure the Consumer program above does not).
        .executableTarget(
            name: "SoundAndTextConsumer",
            dependencies: [
                .product(name: "TensorIOAudio", package: "TensorIO"),
                .product(name: "TensorIOText", package: "TensorIO"),
                .product(name: "TensorIO", package: "TensorIO"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
