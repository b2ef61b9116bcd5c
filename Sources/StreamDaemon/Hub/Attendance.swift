import NIOConcurrencyHelpers

/// Everyone a stream has, over all of its hubs: socket subscribers, HTTP listeners, and listeners waiting for its
/// format. An on-demand stream connects its source while it has someone.
final class Attendance: Sendable {
    private let count = NIOLockedValueBox(0)
    private let watcher = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    /// Whether no one is there now.
    var isEmpty: Bool { count.withLockedValue { $0 == 0 } }

    /// Calls `changed`, on the loop where it happened, whenever the stream gains its first member or loses its
    /// last: it reads `isEmpty` then, which says where things stand whatever the order of the calls.
    func watch(_ changed: @escaping @Sendable () -> Void) {
        watcher.withLockedValue { $0 = changed }
    }

    func joined() {
        if count.withLockedValue({ $0 += 1; return $0 == 1 }) { watcher.withLockedValue { $0 }?() }
    }

    func left() {
        if count.withLockedValue({ $0 -= 1; return $0 == 0 }) { watcher.withLockedValue { $0 }?() }
    }
}
