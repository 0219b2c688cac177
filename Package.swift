// swift-tools-version:6.1
import PackageDescription

// The libraries. The tools (`tensorio`, `tensorio-repository`) are a package of their own, Tools/Package.swift,
// which depends on this one by path: their dependencies are plainly required there, and a consumer of the
// libraries never resolves them.
//
// Traits keep a consumer of the libraries light (docs/packages.md). None is on by default: a consumer that
// writes only the package URL resolves swift-log alone. Two products carry dependencies of their own that a
// remote consumer must be able to opt into, and so sit behind a trait: TensorIODelivery (`traits:
// ["Delivery"]`: ZIPFoundation, swift-crypto) and TensorIORepositoryServer (`traits: ["Server"]`, which
// enables Delivery: Hummingbird, GRDB, PostgresNIO, swift-metrics, swift-prometheus). SwiftPM declares every
// product whatever the traits and leaves a dependency out of the resolution only when no enabled trait uses
// it, so each of those two targets' files is wrapped whole in `#if Delivery` or `#if Server`: without its
// trait the product is an empty module. This is the one reason for a compile condition on a whole file.

/// Upcoming language features, for every target but TensorIO and its tests.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Only under the Delivery trait (the TensorIODelivery client).
let delivery: TargetDependencyCondition? = .when(traits: ["Delivery"])
/// Only under the Server trait (the repository server library).
let server: TargetDependencyCondition? = .when(traits: ["Server"])

let package = Package(
    name: "TensorIO",
    // Minimum versions for a build on these platforms, not a claim that they are built or tested: only
    // Linux x86-64 is; macOS and the libraries on iOS, tvOS, watchOS and visionOS are planned, and code
    // only Linux has is guarded (docs/packages.md, "Platforms"). TensorIO's public API uses Duration and
    // ContinuousClock (macOS 13, iOS 16); macOS is 15 because one list covers the whole package and the
    // tool uses Mutex (Synchronization) and Hummingbird 2 needs 14.
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "TensorIO", targets: ["TensorIO"]),
        // Detection and segmentation on photos: tasks above the core, as sound and text are (no C library
        // of their own; a separate product so that the core knows no task but through ModelTask).
        .library(name: "TensorIOVision", targets: ["TensorIOVision"]),
        // Sound and text for TensorIO models, each over C libraries of its own (libsndfile and libsoxr;
        // RE2 and SentencePiece): an app that runs image models builds against neither.
        .library(name: "TensorIOAudio", targets: ["TensorIOAudio"]),
        .library(name: "TensorIOText", targets: ["TensorIOText"]),
        // Video files decoded frame by frame with FFmpeg (libavformat, libavcodec, libswscale): a product of
        // its own, so that an app that runs models on photos, sound or text links none of FFmpeg's libraries.
        .library(name: "TensorIOVideo", targets: ["TensorIOVideo"]),
        .library(name: "TensorIODelivery", targets: ["TensorIODelivery"]),
        .library(name: "TensorIORepositoryServer", targets: ["TensorIORepositoryServer"]),
        // Not API: the internal modules the tools (Tools/Package.swift) use — errno in words, the bounded zip
        // reader for .npz inputs, finding a companion program. The underscore says so (docs/packages.md).
        .library(name: "_TensorIOInternals", targets: ["TensorIOSupport", "TensorIOArchive", "TensorIOIsolation"]),
        // Loads one model in a process of its own for isolated load checks; ship it next to the app.
        .executable(name: "tensorio-load-check", targets: ["TensorIOLoadCheck"]),
    ],
    traits: [
        .trait(name: "Delivery", description: "The TensorIODelivery client (ZIPFoundation, swift-crypto)."),
        .trait(
            name: "Server",
            description: "The TensorIORepositoryServer library (Hummingbird, GRDB, PostgresNIO, swift-metrics, swift-prometheus).",
            enabledTraits: ["Delivery"]
        ),
        // None by default: a consumer writing only the package URL builds TensorIO over swift-log alone.
        // The Makefile and CI build and test this package with `--traits Server`.
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Already in the graph through Hummingbird; named so the server can read a bind failure's errno.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Also through Hummingbird; named for UnixSignals (the server's graceful-shutdown signals).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The repository server's index when several instances share one database.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Through postgres-nio; named for the TLS settings of sslmode=prefer/require.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The server's /metrics: the Metrics API and its Prometheus backend (a registry per server).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Our own declarations of the LiteRT C API, loaded with dlopen: `swift build` needs no ML library.
        .target(name: "CLiteRT", dependencies: ["CRuntimeLoader"]),
        // The same for the TensorFlow C API (the "tensorflow" backend), from tensorflow-cpu's wheel.
        .target(name: "CTensorFlow", dependencies: ["CRuntimeLoader"]),
        // The dlopen loader both share: opens a runtime library and fills its table of functions.
        .target(name: "CRuntimeLoader"),
        // Crash evidence: a signal handler (C, async-signal-safe) that says what TensorIO was loading or
        // running when the runtime crashed, and gives the runtime's captured stderr back.
        .target(name: "CCrashReport"),
        // Sequentially consistent atomics for the instance pool (Swift's Synchronization needs iOS 18).
        .target(name: "CAtomics"),
        // pipe2 and prctl for isolated load checks (not imported by Swift's Glibc module).
        .target(name: "CLoadCheck"),
        // A landmark region's crop, bit for bit OpenCV's warp, eight or sixteen pixels at a time with AVX2 or
        // AVX-512 where the processor has them (chosen at run time; the portable path otherwise).
        .target(name: "CRegionCrop"),
        // Image pixels into a float tensor, eight at a time with AVX2 where the processor has it.
        .target(name: "CPixelTensor"),
        // Image codecs and SIMD pixel work, from Debian's -dev packages (scripts/setup.sh installs them).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        // Audio files and resampling, for TensorIOAudio alone (scripts/setup.sh installs them).
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        // FFmpeg's demuxers, decoders and pixel conversion, for TensorIOVideo alone (scripts/setup.sh installs
        // them): one module over the four libraries (SwiftPM looks up each of the names `pkgConfig` lists).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // RE2 and SentencePiece behind a C face, for TensorIOText alone (scripts/setup.sh installs them).
        .target(
            name: "CTextTokenizers",
            linkerSettings: [.linkedLibrary("re2"), .linkedLibrary("sentencepiece")]
        ),
        // Raw deflate for reading untrusted zip archives with our own bounded reader (TensorIOArchive:
        // bundle archives in TensorIODelivery, the files zipped onto the end of .tflite models).
        // Not "CZlib": ZIPFoundation (kept for writing archives) declares a module of that name.
        .systemLibrary(name: "CSystemZlib", providers: [.apt(["zlib1g-dev"])]),
        // TensorIO's internal modules (not products): each holds one concern, depends on nothing of
        // TensorIO's public types, and reports problems with its own small error type, which TensorIO turns
        // into TensorIOError at its boundary (Errors/TensorIOError+Modules.swift). Below them, TensorIO.
        //
        // What TensorIO and its internal modules share: plain words for system errors, a locked value, bytes
        // as a C function takes them.
        .target(name: "TensorIOSupport", swiftSettings: upcomingFeatures),
        // The bounded zip reader for untrusted archives: bundle archives, .npz files, a model's attachments.
        .target(name: "TensorIOArchive", dependencies: ["TensorIOSupport", "CSystemZlib"], swiftSettings: upcomingFeatures),
        // .tflite files read without trusting them: a bounds-checked FlatBuffer reader, the generated TFLite
        // schema, the verifier every model passes before LiteRT sees it, the entry points and metadata buffers.
        .target(name: "TensorIOModelFile", dependencies: ["TensorIOSupport"], swiftSettings: upcomingFeatures),
        // TFLite Model Metadata (names, normalization, labels) and the files zipped onto a model, for bundles
        // inferred from bare .tflite files.
        .target(
            name: "TensorIOMetadata",
            dependencies: ["TensorIOSupport", "TensorIOModelFile", "TensorIOArchive"],
            swiftSettings: upcomingFeatures
        ),
        // Running a program in a child process with a deadline and bounded output, its JSON-line answers,
        // signal names, finding the programs shipped next to this one: the machinery of isolated load checks.
        .target(name: "TensorIOIsolation", dependencies: ["TensorIOSupport", "CLoadCheck"], swiftSettings: upcomingFeatures),
        .target(
            name: "TensorIO",
            dependencies: [
                "TensorIOSupport",
                "TensorIOArchive",
                "TensorIOModelFile",
                "TensorIOMetadata",
                "TensorIOIsolation",
                "CLiteRT",
                "CTensorFlow",
                "CCrashReport",
                "CAtomics",
                "CLoadCheck",
                "CPixelTensor",
                "CTurboJPEG",
                "CSPNG",
                "CYUV",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Vision tasks for TensorIO models: detection (SSD anchors, MediaPipe's detectors, the Task
        // Library's post-processed outputs) and segmentation, each a task folder over the core.
        .target(
            name: "TensorIOVision",
            dependencies: ["TensorIO", "TensorIOSupport", "TensorIOMetadata", "CRegionCrop"],
            swiftSettings: upcomingFeatures
        ),
        // Audio for TensorIO models: recordings read with libsndfile, resampled with libsoxr, classified
        // window by window (a product of its own: TensorIO itself links neither library).
        .target(
            name: "TensorIOAudio",
            dependencies: ["TensorIO", "TensorIOSupport", "TensorIOMetadata", "CSndFile", "CSoxr"],
            swiftSettings: upcomingFeatures
        ),
        // Text for TensorIO models: the regex, WordPiece and SentencePiece tokenizers of TFLite metadata, text
        // classified and embedded (a product of its own: TensorIO itself links neither RE2 nor SentencePiece).
        .target(
            name: "TensorIOText",
            dependencies: ["TensorIO", "TensorIOSupport", "TensorIOMetadata", "CTextTokenizers"],
            swiftSettings: upcomingFeatures
        ),
        // Video for TensorIO models: files opened with libavformat through our own bounded reads, the video
        // stream decoded with libavcodec on a thread of its own, frames converted with libswscale into
        // PixelBuffers (a product of its own: TensorIO itself links no FFmpeg library).
        .target(
            name: "TensorIOVideo",
            dependencies: ["TensorIO", "TensorIOSupport", "CFFmpeg"],
            swiftSettings: upcomingFeatures
        ),
        // Model delivery, client side: repository client, local model store, archive checks (Apple-compatible).
        .target(
            name: "TensorIODelivery",
            dependencies: [
                "TensorIO",
                "TensorIOSupport",
                "TensorIOArchive",
                // Only for writing archives (BundleArchive.create); reading uses our own bounded reader.
                .product(name: "ZIPFoundation", package: "ZIPFoundation", condition: delivery),
                .product(name: "Crypto", package: "swift-crypto", condition: delivery),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Model delivery, server side: the Hummingbird 2 repository server with its GRDB index.
        .target(
            name: "TensorIORepositoryServer",
            dependencies: [
                "TensorIO",
                "TensorIOSupport",
                "TensorIODelivery",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: server),
                .product(name: "GRDB", package: "GRDB.swift", condition: server),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "Metrics", package: "swift-metrics", condition: server),
                .product(name: "Prometheus", package: "swift-prometheus", condition: server),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The child of an isolated load check (`ModelBundle.checkLoading(.isolated)`).
        .executableTarget(
            name: "TensorIOLoadCheck", dependencies: ["TensorIO"], swiftSettings: upcomingFeatures
        ),
        // The benchmarks and the fuzz targets are packages of their own (Benchmarks/Package.swift,
        // Fuzz/Package.swift), so that `swift build` here builds none of them.

        // What every test target shares: the fixtures and where they are, temporary folders, running the
        // built executables, servers on loopback, hand-made archives. A test target, so that a plain
        // `swift build` does not build it.
        .testTarget(
            name: "TensorIOTestSupport",
            dependencies: [
                "TensorIO",
                "TensorIOVision",
                "TensorIOAudio",
                "TensorIOText",
                "TensorIODelivery",
                "TensorIORepositoryServer",
                "CSystemZlib",
                .product(name: "Logging", package: "swift-log"),
                // Only for hand-made archives with entries no honest tool writes (Fixtures.handmadeZip).
                .product(name: "ZIPFoundation", package: "ZIPFoundation", condition: delivery),
            ],
            path: "Tests/TestSupport",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "TensorIOTests",
            dependencies: [
                // CCrashReport directly: the crash-evidence test crashes inside a captured section itself.
                "TensorIO", "TensorIOSupport", "TensorIOArchive", "TensorIOModelFile", "TensorIOMetadata",
                "TensorIOTestSupport", "CCrashReport", "TensorIOLoadCheck", "TensorIOVision", "TensorIOAudio", "TensorIOText",
                "TensorIOVideo",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The repository server on loopback, started in-process, with the client against it.
        .testTarget(
            name: "TensorIODeliveryTests",
            dependencies: [
                "TensorIO",
                "TensorIOArchive",
                "TensorIOTestSupport",
                "TensorIODelivery",
                "TensorIORepositoryServer",
                "TensorIOLoadCheck",
                "TensorIOVision",
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    // CTextTokenizers' C++ (RE2 and SentencePiece headers use C++17).
    cxxLanguageStandard: .cxx17
)
