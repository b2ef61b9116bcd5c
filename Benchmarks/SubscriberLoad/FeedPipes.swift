import Glibc

/// A named pipe per stream in the run's folder, the source of each stream of `SubscriberLoad scale`: the pacer
/// writes every frame to each, as it writes the one stream of `daemon` to audiostreamd's standard input.
final class FeedPipes {
    let streams: [BenchStream]
    /// The write end of each stream's pipe, in the order of `streams`.
    private(set) var descriptors: [Int32] = []

    /// Makes `count` pipes in `folder` and opens them.
    init(folder: String, count: Int) throws {
        streams = (1...count).map { BenchStream(name: "bench\($0)", source: .namedPipe(path: folder + "/bench\($0).in")) }
        for case .namedPipe(let path) in streams.map(\.source) {
            guard mkfifo(path, 0o600) == 0 else { throw LoadError.system("mkfifo \(path)") }
            // Read and write, so the open returns at once rather than wait for audiostreamd to open the other end;
            // the daemon then sees the end of its file when this is closed.
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw LoadError.system("open \(path)") }
            descriptors.append(descriptor)
        }
    }

    deinit {
        close()
    }

    /// Ends every stream's input: each stream ends, and with the last the daemon exits.
    func close() {
        for descriptor in descriptors { Glibc.close(descriptor) }
        descriptors = []
    }
}
