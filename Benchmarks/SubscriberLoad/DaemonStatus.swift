import Foundation
import StreamDaemon

/// What `audiostream status --json` says about the benchmark's one stream, asked on the control socket: its
/// socket subscribers and HTTP listeners together, those waiting for the stream's format included.
struct DaemonStatus {
    let view: RelayView

    /// Asks the daemon listening on `controlSocket`.
    /// - Throws: when the daemon cannot be reached or answers something else than a status with one stream.
    init(controlSocket: String) throws {
        let client = try WireClient(path: controlSocket)
        try client.send(.request, json: .object([("command", .string("status"))]))
        guard case .json(.response, let text) = try client.receive(),
              let status = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let stream = (status["streams"] as? [[String: Any]])?.first,
              let sockets = stream["subscribers"] as? [[String: Any]],
              let listeners = stream["listeners"] as? [[String: Any]]
        else { throw LoadError("unexpected status from \(controlSocket)") }
        let subscribers = sockets + listeners
        view = RelayView(
            subscribers: subscribers.count + (stream["waitingListeners"] as? Int ?? 0),
            droppedPackets: subscribers.reduce(0) { $0 + ($1["droppedPackets"] as? Int ?? 0) },
            maxLagSeconds: subscribers.compactMap { ($0["lagSeconds"] as? NSNumber)?.doubleValue }.max() ?? 0,
            slowDisconnects: stream["slowDisconnects"] as? Int ?? 0)
    }
}
