import Logging
import NIOCore

/// A stream's hubs, one on each event loop, so that a large audience is written to by every core.
///
/// Subscriber connections are spread over the loops and join the hub of their own loop. The pipeline, on the
/// stream's loop, hands each chunk's messages to every hub at once with `publish`: one task per other loop and
/// chunk, and every message encoded once for all. Each hub writes them out within the limits' `writeInterval`.
/// Each hub is bound to its loop, and reached there only.
final class HubGroup: Sendable {
    /// The PCM formats subscribers want, counted by every hub's loop: the one part that takes a lock.
    let demand = PCMDemand()
    /// The stream's HTTP listeners, counted by every hub's loop.
    let listenerCount = ListenerCount()
    /// Everyone the stream has, counted by every hub's loop.
    let attendance = Attendance()
    private let hubs: [NIOLoopBoundBox<Hub>]
    /// The stream's loop, where its pipeline publishes.
    private let home: EventLoop

    init(loops: [EventLoop], home: EventLoop, limits: SubscriberLimits, logger: Logger, metrics: StreamMetrics,
         sendRings: SendRings) {
        self.home = home
        let (demand, listenerCount, attendance) = (self.demand, self.listenerCount, self.attendance)
        hubs = loops.enumerated().map { index, loop in
            NIOLoopBoundBox.makeBoxSendingValue(
                Hub(limits: limits, eventLoop: loop, demand: demand, listenerCount: listenerCount,
                    attendance: attendance, logger: logger,
                    firstSubscriberID: index + 1, subscriberIDStride: loops.count, dropped: metrics.droppedPackets,
                    sendRings: sendRings),
                eventLoop: loop)
        }
    }

    /// The hub on `loop`, for a connection living there; call on `loop`.
    func hub(on loop: EventLoop) -> Hub {
        hubs.first { $0.eventLoop === loop }!.value
    }

    /// Hands a chunk's messages to every hub, which write them to their subscribers; call on the stream's loop.
    func publish(_ messages: [HubMessage]) {
        guard !messages.isEmpty else { return }
        for hub in hubs {
            if hub.eventLoop === home {
                hub.value.apply(messages)
            } else {
                hub.eventLoop.execute { hub.value.apply(messages) }
            }
        }
    }

    /// Gives every hub, and the subscribers connected to it, new limits; succeeds once all have them.
    func update(limits: SubscriberLimits) -> EventLoopFuture<Void> {
        map { $0.update(limits: limits) }.map { _ in }
    }

    /// Runs `body` on every hub's loop and gathers the results on the stream's loop.
    func map<T: Sendable>(_ body: @escaping @Sendable (Hub) -> T) -> EventLoopFuture<[T]> {
        EventLoopFuture.whenAllSucceed(hubs.map { hub in hub.eventLoop.submit { body(hub.value) } }, on: home)
    }
}
