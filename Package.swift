// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "audiostream",
    products: [
        .library(name: "AudioFileStream", targets: ["AudioFileStream"]),
        .library(name: "AudioDecoding", targets: ["AudioDecoding"]),
        .library(name: "AudioStreamProtocol", targets: ["AudioStreamProtocol"]),
        .library(name: "AudioFileWriting", targets: ["AudioFileWriting"]),
        .library(name: "AudioRecording", targets: ["AudioRecording"]),
        .library(name: "AudioHLS", targets: ["AudioHLS"]),
        .library(name: "AudioLoudness", targets: ["AudioLoudness"]),
        .library(name: "StreamDaemon", targets: ["StreamDaemon"]),
        .executable(name: "audiostream", targets: ["audiostream"]),
        .executable(name: "audiostreamd", targets: ["audiostreamd"]),
        .executable(name: "audiostream-fetch", targets: ["audiostream-fetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Carry-less multiplication for the page and frame checksums every byte of Ogg and FLAC goes through.
        .target(name: "CCRCFold"),
        .target(name: "AudioFileStream", dependencies: ["CCRCFold"]),
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        // glibc's malloc.h, for malloc_trim (StreamDaemon/HeapTrimmer.swift).
        .systemLibrary(name: "CMalloc"),
        // liburing's sends, many to a system call, for the HTTP listeners' write-outs (Server/SendRing.swift) and
        // the floor the benchmark measures them against.
        .target(name: "CSendRing", linkerSettings: [.linkedLibrary("uring")]),
        // libavcodec's headers, its functions loaded on first use (Sources/CFFmpeg/ffmpeg_loader.c).
        .target(name: "CFFmpeg"),
        .target(name: "AudioDecoding", dependencies: ["CMPG123", "CFFmpeg", "AudioFileStream"]),
        // The parser's mirror: a writer per container and per tag key space, from the parser's own events.
        .target(name: "AudioFileWriting", dependencies: ["AudioFileStream"]),
        // Recordings: a stream's packets into files of its own codec, split by time or title, crash-safe.
        .target(name: "AudioRecording", dependencies: ["AudioFileStream", "AudioFileWriting", "AudioDecoding"]),
        // HTTP Live Streaming: a stream's packets cut into segments and parts of packed audio or CMAF, and the
        // playlists over them, without sockets: the daemon serves what it makes, the tool writes it to a folder.
        .target(name: "AudioHLS", dependencies: ["AudioFileStream", "AudioFileWriting", "AudioRecording"]),
        // EBU R128 loudness and true peak of PCM, measured by libebur128.
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .target(name: "AudioLoudness", dependencies: ["CEBUR128"]),
        // The wire protocol of docs/protocol.md and its events' JSON, with a blocking client, and what a network
        // source says beside the audio (ICY blocks, station headers): what the daemon, the tool and any Swift
        // subscriber share, without NIO.
        .target(name: "AudioStreamProtocol", dependencies: ["AudioFileStream"]),
        .target(
            name: "StreamDaemon",
            dependencies: [
                "AudioFileStream",
                "AudioFileWriting",
                "AudioDecoding",
                "AudioStreamProtocol",
                "AudioRecording",
                "AudioHLS",
                "AudioLoudness",
                "CMalloc",
                "CSendRing",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "audiostream",
            dependencies: [
                "AudioFileStream",
                "AudioDecoding",
                "AudioFileWriting",
                "AudioRecording",
                "AudioHLS",
                "AudioLoudness",
                "AudioStreamProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The tool's reader of http(s) URLs, a process of its own so that the tool links no NIO or TLS.
        .executableTarget(
            name: "audiostream-fetch",
            dependencies: [
                "AudioStreamProtocol",
                "StreamDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "audiostreamd",
            dependencies: [
                "AudioStreamProtocol",
                "StreamDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "SubscriberLoad",
            dependencies: [
                "AudioFileStream",
                "CSendRing",
                "AudioStreamProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/SubscriberLoad"
        ),
        // The committed fixtures and their expected values, shared by the test targets.
        .target(name: "FixtureSupport", dependencies: ["AudioFileStream"], path: "Tests/FixtureSupport"),
        .testTarget(name: "AudioFileStreamTests", dependencies: ["AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "AudioDecodingTests", dependencies: ["AudioDecoding", "AudioFileStream", "FixtureSupport"]),
        .testTarget(
            name: "AudioStreamProtocolTests", dependencies: ["AudioStreamProtocol", "AudioFileStream", "FixtureSupport"]
        ),
        .testTarget(name: "AudioFileWritingTests", dependencies: ["AudioFileWriting", "AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "AudioRecordingTests", dependencies: ["AudioRecording", "AudioFileWriting", "AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "AudioHLSTests", dependencies: ["AudioHLS", "AudioFileWriting", "AudioFileStream", "FixtureSupport"]),
        .testTarget(name: "AudioLoudnessTests", dependencies: ["AudioLoudness"]),
        .testTarget(name: "AudiostreamTests", dependencies: ["audiostream", "FixtureSupport"]),
        .testTarget(
            name: "StreamDaemonTests",
            dependencies: ["StreamDaemon", "AudioRecording", "AudioStreamProtocol", "AudioFileStream", "AudioDecoding", "CSendRing", "FixtureSupport", "audiostreamd", "audiostream", "audiostream-fetch", .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "Prometheus", package: "swift-prometheus")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
