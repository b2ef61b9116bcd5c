import NIOConcurrencyHelpers

/// Which stream each mount serves, read by HTTP connections on any loop and replaced by the supervisor whenever
/// streams start, stop or are reloaded.
final class HTTPMounts: Sendable {
    private let streams = NIOLockedValueBox<[String: StreamService]>([:])

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

    /// Serves exactly `services` from now on, each at its mount.
    func replace(with services: [(mount: String, service: StreamService)]) {
        let table = Dictionary(services.map { ($0.mount, $0.service) }) { first, _ in first }
        streams.withLockedValue { $0 = table }
    }
}
