// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "audiostream",
    products: [
        .library(name: "AudioFileStream", targets: ["AudioFileStream"]),
        .library(name: "MPEGDecoder", targets: ["MPEGDecoder"]),
        .executable(name: "audiostream", targets: ["audiostream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "AudioFileStream"),
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .target(name: "MPEGDecoder", dependencies: ["CMPG123", "AudioFileStream"]),
        .executableTarget(
            name: "audiostream",
            dependencies: [
                "AudioFileStream",
                "MPEGDecoder",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The committed fixtures and their expected values, shared by the test targets.
        .target(name: "FixtureSupport", dependencies: ["AudioFileStream"], path: "Tests/FixtureSupport"),
        .testTarget(name: "AudioFileStreamTests", dependencies: ["AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "MPEGDecoderTests", dependencies: ["MPEGDecoder", "AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "AudiostreamTests", dependencies: ["audiostream", "FixtureSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
