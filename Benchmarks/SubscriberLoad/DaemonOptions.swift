import ArgumentParser

/// The options of every run against audiostreamd: which executable, where it keeps its files, how its subscribers
/// connect, and how often it writes to them.
struct DaemonOptions: ParsableArguments {
    @Option(help: "The audiostreamd executable.")
    var daemon = ".build/release/audiostreamd"

    @Option(help: "An empty folder for the daemon's configuration, sockets and log (short: socket paths are limited).")
    var folder: String

    @Option(help: "Serve the streams over HTTP on this loopback port and connect the subscribers as HTTP listeners.")
    var httpPort: Int?

    @Flag(help: "HTTP listeners ask for ICY metadata (Icy-MetaData: 1), as players that show titles do.")
    var icyMetadata = false

    @Option(help: "The streams' writeInterval in seconds (default: audiostreamd's own).")
    var writeInterval: Double?

    /// Starts audiostreamd with `streams`, in `folder`.
    func start(_ streams: [BenchStream]) throws -> DaemonProcess {
        try DaemonProcess(executable: daemon, folder: folder, streams: streams, httpPort: httpPort,
                          writeInterval: writeInterval)
    }
}
