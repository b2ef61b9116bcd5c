import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A stream's time off the air, its source lost and no fallback playing: new HTTP listeners are refused while it
/// lasts (`isOffAir`, read by HTTP connections on any loop), and those connected are closed once it has lasted
/// `timeout`, so that their players give up or try again rather than wait in silence. Socket subscribers stay:
/// they hear the source's condition. Confined to the stream's loop, but for `isOffAir`.
final class DeadAir: Sendable {
    private let offAir = NIOLockedValueBox(false)
    private let hubs: HubGroup
    /// Seconds off the air before the listeners are closed, if they are.
    private let timeout: Double?
    private let eventLoop: EventLoop
    private let logger: Logger
    private let closing: NIOLoopBoundBox<Scheduled<Void>?>

    /// Off-air time of the stream whose listeners are in `hubs`; nil `timeout` closes none (no HTTP server).
    init(hubs: HubGroup, timeout: Double?, eventLoop: EventLoop, logger: Logger) {
        self.hubs = hubs
        self.timeout = timeout
        self.eventLoop = eventLoop
        self.logger = logger
        closing = .makeEmptyBox(eventLoop: eventLoop)
    }

    var isOffAir: Bool { offAir.withLockedValue { $0 } }

    /// The stream went off the air: the clock starts, unless it runs already.
    func began() {
        let wasOffAir = offAir.withLockedValue { isOffAir in
            defer { isOffAir = true }
            return isOffAir
        }
        guard !wasOffAir, let timeout else { return }
        let (hubs, logger) = (hubs, logger)
        closing.value = eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) {
            hubs.map { $0.closeListeners() }.whenSuccess { counts in
                let closed = counts.reduce(0, +)
                guard closed > 0 else { return }
                logger.warning("closed \(closed) HTTP listeners: off the air for \(timeout.secondsText) s")
            }
        }
    }

    /// Something plays again.
    func ended() {
        offAir.withLockedValue { $0 = false }
        closing.value?.cancel()
        closing.value = nil
    }
}

extension Hub {
    /// Closes the HTTP listeners, which hear nothing: the stream has been off the air too long.
    /// - Returns: how many there were.
    func closeListeners() -> Int {
        let listeners = subscribers.filter { $0.transport == .http }
        for listener in listeners {
            remove(listener)
            listener.close()
        }
        return listeners.count
    }
}
