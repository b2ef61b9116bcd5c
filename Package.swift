// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "audiostream",
    products: [
        .library(name: "AudioFileStream", targets: ["AudioFileStream"]),
        .executable(name: "audiostream", targets: ["audiostream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "AudioFileStream"),
        .executableTarget(
            name: "audiostream",
            dependencies: [
                "AudioFileStream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AudioFileStreamTests", dependencies: ["AudioFileStream"]),
        .testTarget(name: "AudiostreamTests", dependencies: ["audiostream"]),
    ],
    swiftLanguageModes: [.v6]
)
