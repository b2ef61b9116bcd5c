import NIOConcurrencyHelpers

/// Which stream each mount serves, read by HTTP connections on any loop and replaced by the supervisor whenever
/// streams start, stop or are reloaded.
final class HTTPMounts: Sendable {
    private let streams = NIOLockedValueBox<[String: StreamService]>([:])
    /// The streams whose HLS is served, by name: those served with `hls:`, and ended ones whose playlist stays.
    private let hlsStreams = NIOLockedValueBox<[String: StreamService]>([:])

    /// The stream served at `path`, if any.
    func stream(at path: String) -> StreamService? {
        streams.withLockedValue { $0[path] }
    }

    /// The mounts in order, one per served stream.
    var paths: [String] { streams.withLockedValue { $0.keys.sorted() } }

    /// The streams served, in the order of their mounts.
    var served: [StreamService] {
        streams.withLockedValue { table in table.keys.sorted().map { table[$0]! } }
    }

    /// The stream called `name` whose HLS is served, if any.
    func hlsStream(named name: String) -> StreamService? {
        hlsStreams.withLockedValue { $0[name] }
    }

    /// The streams of HLS group `group`.
    func hlsGroup(_ group: String) -> [StreamService] {
        hlsStreams.withLockedValue { $0.values.filter { $0.hls?.group == group } }
    }

    /// Serves exactly `services` from now on, each at its mount, and the HLS of `hls`.
    func replace(with services: [(mount: String, service: StreamService)], hls: [StreamService] = []) {
        let table = Dictionary(services.map { ($0.mount, $0.service) }) { first, _ in first }
        streams.withLockedValue { $0 = table }
        let hlsTable = Dictionary(hls.map { ($0.name, $0) }) { first, _ in first }
        hlsStreams.withLockedValue { $0 = hlsTable }
    }
}
