import Foundation
@testable import StreamDaemon
import Testing

/// What a reload does to a running stream, from its configuration before and after: only a new source or socket
/// file needs a restart, which drops the subscribers; limits and the socket's mode and owner are applied in place.
@Suite struct StreamReloadTests {
    static let running = StreamConfig(
        name: "radio", source: .file(path: "/srv/radio.mp3", pace: .realTime(speed: 1), loop: true),
        socket: SocketConfig(path: "/run/radio.sock", mode: 0o660, group: "audio"),
        limits: SubscriberLimits(queueSeconds: 5, disconnectAfter: 10, historySeconds: 10))

    /// A change to the running stream, and what the reload must do.
    struct Change: Sendable, CustomTestStringConvertible {
        let what: String
        let change: @Sendable (inout StreamConfig) -> Void
        let restarts: Bool

        var testDescription: String { "\(what): \(restarts ? "restart" : "adjust")" }
    }

    @Test(arguments: [
        Change(what: "queueSeconds", change: { $0.limits.queueSeconds = 2 }, restarts: false),
        Change(what: "disconnectAfter", change: { $0.limits.disconnectAfter = 30 }, restarts: false),
        Change(what: "historySeconds", change: { $0.limits.historySeconds = 0 }, restarts: false),
        Change(what: "writeInterval", change: { $0.limits.writeInterval = 0 }, restarts: false),
        Change(what: "every limit and the mode, owner and group", change: {
            $0.limits = SubscriberLimits(queueSeconds: 1, disconnectAfter: 2, historySeconds: 3)
            $0.socket.mode = 0o600
            $0.socket.owner = "radio"
            $0.socket.group = "staff"
        }, restarts: false),
        Change(what: "the source", change: { $0.source = .standardInput }, restarts: true),
        Change(what: "the pace", change: { $0.source = .file(path: "/srv/radio.mp3", pace: .unpaced, loop: true) },
               restarts: true),
        Change(what: "the socket's path", change: { $0.socket.path = "/run/other.sock" }, restarts: true),
        Change(what: "the mode back to the default", change: { $0.socket.mode = nil }, restarts: true),
        Change(what: "the group back to the daemon's", change: { $0.socket.group = nil }, restarts: true),
    ])
    func aChangedStreamIsAdjustedOrRestarted(_ change: Change) {
        var new = Self.running
        change.change(&new)
        #expect(StreamReload(from: Self.running, to: new) == (change.restarts ? .restart : .adjust(to: new)))
    }

    @Test func anUnchangedStreamIsKeptAndAMissingOneRemoved() {
        #expect(StreamReload(from: Self.running, to: Self.running) == .keep)
        #expect(StreamReload(from: Self.running, to: nil) == .remove)
    }
}
