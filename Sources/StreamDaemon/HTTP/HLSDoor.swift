import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// HLS sessions through the listener backend (`http.auth`): a session is asked about when it is first seen, and
/// its requests pass while it keeps asking; once it has not asked for two target durations (when it stops being
/// counted as a listener) its leaving is posted, with its seconds. Read on any loop; swept on one.
final class HLSDoor: Sendable {
    private struct Session {
        /// What the backend was told, or nil for a session let in while the backend could not answer.
        let listener: ListenerAuth.Listener?
        let admitted: NIODeadline
        var lastSeen: NIODeadline
        let lifetime: TimeAmount
    }

    private let auth: ListenerAuth
    /// The sessions admitted, and those that left (stopped asking, or came back afresh) whose leaving is not
    /// posted yet.
    private let sessions = NIOLockedValueBox<(current: [String: Session], left: [Session])>(([:], []))
    private let sweeping: NIOLockedValueBox<RepeatedTask?>

    /// Sessions admitted at most: a client inventing one per request cannot grow the table past it.
    static let limit = HLSSessions.limit

    /// The sessions `auth`'s backend admits, swept every two seconds on `eventLoop`.
    init(auth: ListenerAuth, eventLoop: EventLoop) {
        self.auth = auth
        sweeping = NIOLockedValueBox(nil)
        let task = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(2), delay: .seconds(2)) { [self] _ in
            sweep(now: .now(), on: eventLoop)
        }
        sweeping.withLockedValue { $0 = task }
    }

    /// Stops sweeping, and posts the leaving of every session: the server is stopping.
    func stop(on eventLoop: EventLoop) {
        sweeping.withLockedValue { $0?.cancel() }
        sweep(now: .now() + .hours(24 * 365), on: eventLoop)
    }

    /// Whether session `key` was admitted and still counts; notes that it asked now.
    func passes(_ key: String, now: NIODeadline = .now()) -> Bool {
        sessions.withLockedValue { sessions in
            guard var session = sessions.current[key], now - session.lastSeen < session.lifetime else { return false }
            session.lastSeen = now
            sessions.current[key] = session
            return true
        }
    }

    /// Lets session `key`, whose player is `listener` (nil when the backend could not be asked), in; it counts
    /// while it asks within `lifetime`. A session of that key that had stopped asking left before it.
    func admit(_ key: String, _ listener: ListenerAuth.Listener?, lifetime: TimeAmount, now: NIODeadline = .now()) {
        sessions.withLockedValue { sessions in
            guard sessions.current.count < Self.limit || sessions.current[key] != nil else { return }
            if let earlier = sessions.current[key] { sessions.left.append(earlier) }
            sessions.current[key] = Session(listener: listener, admitted: now, lastSeen: now, lifetime: lifetime)
        }
    }

    /// Posts the leaving of every session that stopped asking.
    private func sweep(now: NIODeadline, on eventLoop: EventLoop) {
        let gone = sessions.withLockedValue { sessions in
            let stale = sessions.current.filter { now - $0.value.lastSeen >= $0.value.lifetime }
            for key in stale.keys { sessions.current[key] = nil }
            defer { sessions.left = [] }
            return sessions.left + stale.values
        }
        for session in gone {
            guard let listener = session.listener else { continue }
            let seconds = Int((session.lastSeen - session.admitted).nanoseconds / 1_000_000_000)
            auth.remove(listener, after: seconds, on: eventLoop)
        }
    }
}
