import AudioStreamProtocol
import Foundation

/// What `audiostream status --json` says about the benchmark's streams, asked on the control socket: their
/// socket subscribers and HTTP listeners together, those waiting for a stream's format included, summed over the
/// streams.
struct DaemonStatus {
    let view: RelayView
    /// Streams the daemon runs.
    let streams: Int

    /// Asks the daemon listening on `controlSocket`.
    /// - Throws: when the daemon cannot be reached or answers something else than a status of streams.
    init(controlSocket: String) throws {
        let client = try WireClient(path: controlSocket)
        try client.send(.request, json: WireProtocol.statusRequest)
        guard case .json(.response, let text) = try client.receive(),
              let status = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let streams = status["streams"] as? [[String: Any]]
        else { throw LoadError("unexpected status from \(controlSocket)") }
        var subscribers: [[String: Any]] = []
        for stream in streams {
            guard let sockets = stream["subscribers"] as? [[String: Any]],
                  let listeners = stream["listeners"] as? [[String: Any]]
            else { throw LoadError("unexpected status from \(controlSocket)") }
            subscribers += sockets + listeners
        }
        self.streams = streams.count
        view = RelayView(
            subscribers: subscribers.count + streams.reduce(0) { $0 + ($1["waitingListeners"] as? Int ?? 0) },
            droppedPackets: subscribers.reduce(0) { $0 + ($1["droppedPackets"] as? Int ?? 0) },
            maxLagSeconds: subscribers.compactMap { ($0["lagSeconds"] as? NSNumber)?.doubleValue }.max() ?? 0,
            slowDisconnects: streams.reduce(0) { $0 + ($1["slowDisconnects"] as? Int ?? 0) },
            hlsListeners: streams.reduce(0) { $0 + ($1["hlsListeners"] as? Int ?? 0) })
    }
}
