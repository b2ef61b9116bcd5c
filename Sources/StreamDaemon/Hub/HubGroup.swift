import Logging
import NIOCore

/// A stream's hubs, one on each event loop, so that a large audience is written to by every core.
///
/// Subscriber connections are spread over the loops and join the hub of their own loop. The pipeline, on the
/// stream's loop, queues each chunk's messages with `send` and hands them to every hub at once with `flush`: one
/// task per other loop and chunk, and every message encoded once for all. Each hub writes them out within the
/// limits' `writeInterval`.
final class HubGroup: @unchecked Sendable {
    let demand = PCMDemand()
    private let shards: [(loop: EventLoop, hub: Hub)]
    private let home: EventLoop
    /// Messages of the current chunk, touched on `home` only.
    private var pending: [HubMessage] = []

    init(loops: [EventLoop], home: EventLoop, limits: SubscriberLimits, logger: Logger, metrics: StreamMetrics) {
        self.home = home
        let demand = self.demand
        shards = loops.enumerated().map { index, loop in
            let hub = Hub(limits: limits, eventLoop: loop, demand: demand, logger: logger,
                          firstSubscriberID: index + 1, subscriberIDStride: loops.count,
                          dropped: metrics.droppedPackets)
            return (loop, hub)
        }
    }

    /// The hub on `loop`, for a connection living there.
    func hub(on loop: EventLoop) -> Hub {
        shards.first { $0.loop === loop }!.hub
    }

    /// Queues a message for every hub; call on the stream's loop.
    func send(_ message: HubMessage) {
        pending.append(message)
    }

    /// Hands the queued messages to every hub, which write them to their subscribers.
    func flush() {
        guard !pending.isEmpty else { return }
        let messages = pending
        pending.removeAll(keepingCapacity: true)
        for (loop, hub) in shards {
            if loop === home {
                hub.apply(messages)
            } else {
                let unchecked = UncheckedHub(hub: hub)
                loop.execute { unchecked.hub.apply(messages) }
            }
        }
    }

    /// Gives every hub, and the subscribers connected to it, new limits; succeeds once all have them.
    func update(limits: SubscriberLimits) -> EventLoopFuture<Void> {
        map { $0.update(limits: limits) }.map { _ in }
    }

    /// Runs `body` on every hub's loop and gathers the results.
    func map<T: Sendable>(_ body: @escaping @Sendable (Hub) -> T) -> EventLoopFuture<[T]> {
        let futures = shards.map { loop, hub in
            let unchecked = UncheckedHub(hub: hub)
            return loop.submit { body(unchecked.hub) }
        }
        return EventLoopFuture.whenAllSucceed(futures, on: home)
    }
}

/// A hub carried to its own loop: it is used there only.
private struct UncheckedHub: @unchecked Sendable {
    let hub: Hub
}
