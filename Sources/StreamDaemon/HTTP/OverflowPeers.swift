import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The servers listeners are sent to when a mount or the server is full (`overflow:`): each polled through its
/// Icecast statistics (`/status-json.xsl`) every `interval`, for the mounts it serves and its listeners. A peer
/// that does not answer, or answers with no statistics, is dead until it answers again, and is never chosen.
///
/// `peer(for:among:)` is read by HTTP connections on any loop; the polling runs on `eventLoop`.
final class OverflowPeers: Sendable {
    /// What a peer's last answer said.
    struct Reading: Equatable, Sendable {
        /// The mounts it serves, each with its listeners.
        var mounts: [String: Int]
        /// Its listeners over every mount.
        var listeners: Int { mounts.values.reduce(0, +) }
    }

    static let interval = TimeAmount.seconds(3)

    private let client: OutboundHTTP
    private let eventLoop: EventLoop
    private let logger: Logger
    /// The last reading of each peer polled, nil while it is dead.
    private let readings = NIOLockedValueBox<[URL: Reading?]>([:])
    private let polling = NIOLockedValueBox<(peers: Set<URL>, task: RepeatedTask?)>(([], nil))

    init(client: OutboundHTTP, eventLoop: EventLoop, logger: Logger) {
        self.client = client
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// The alive peer of `peers` with the fewest listeners that serves `mount`, if any.
    func peer(for mount: String, among peers: [URL]) -> URL? {
        readings.withLockedValue { readings in
            peers.compactMap { peer in
                (readings[peer] ?? nil).flatMap { $0.mounts[mount] != nil ? (peer, $0.listeners) : nil }
            }.min { $0.1 < $1.1 }?.0
        }
    }

    /// Polls exactly `peers` from now on: at once, then every `interval`; the same peers again change nothing.
    func watch(_ peers: Set<URL>) {
        polling.withLockedValue { polling in
            guard peers != polling.peers else { return }
            readings.withLockedValue { readings in
                readings = readings.filter { peers.contains($0.key) }
                for peer in peers where readings[peer] == nil { readings[peer] = .some(nil) }
            }
            polling.task?.cancel()
            polling.peers = peers
            polling.task = peers.isEmpty ? nil : eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: Self.interval) {
                [self] _ in
                for peer in peers { poll(peer) }
            }
        }
    }

    /// Stops polling.
    func stop() {
        polling.withLockedValue { polling in
            polling.task?.cancel()
            polling = ([], nil)
        }
    }

    private func poll(_ peer: URL) {
        let statusURL = peer.appendingPathComponent("status-json.xsl")
        client.fetch(statusURL, timeout: Self.interval, on: eventLoop).whenComplete { [self] result in
            let reading: Reading? = switch result {
            case .success(let response) where response.status == .ok:
                Self.reading(of: Data((response.body ?? ByteBuffer()).readableBytesView))
            default: nil
            }
            let (wasAlive, known) = readings.withLockedValue { readings -> (Bool, Bool) in
                guard let last = readings[peer] else { return (false, false) }
                readings[peer] = reading
                return (last != nil, true)
            }
            guard known, wasAlive != (reading != nil) else { return }
            if reading == nil {
                logger.warning("overflow peer \(peer.absoluteString) does not answer with its statistics: not used")
            } else {
                logger.info("overflow peer \(peer.absoluteString) answers: \(reading?.listeners ?? 0) listeners")
            }
        }
    }

    /// The mounts and listeners of Icecast statistics: `icestats.source`, one object or an array, each with its
    /// `listenurl` and `listeners`; nil when `data` is not such statistics.
    static func reading(of data: Data) -> Reading? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let stats = object["icestats"] as? [String: Any]
        else { return nil }
        let sources = stats["source"] as? [[String: Any]] ?? (stats["source"] as? [String: Any]).map { [$0] } ?? []
        var mounts: [String: Int] = [:]
        for source in sources {
            guard let url = (source["listenurl"] as? String).flatMap(URLComponents.init(string:)) else { continue }
            mounts[url.percentEncodedPath] = source["listeners"] as? Int ?? 0
        }
        return Reading(mounts: mounts)
    }
}
