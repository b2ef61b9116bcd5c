import Logging
import NIOCore

/// A stream's hubs, one on each event loop, so that a large audience is written to by every core.
///
/// Subscriber connections are spread over the loops and join the hub of their own loop. The pipeline, on the
/// stream's loop, queues each chunk's messages with `send` and with `flush` has them handed to every hub within
/// the limits' `writeInterval`: one task per other loop and interval, one write per subscriber and interval
/// rather than per packet, and every message encoded once for all.
final class HubGroup: @unchecked Sendable {
    let demand = PCMDemand()
    private let shards: [(loop: EventLoop, hub: Hub)]
    private let home: EventLoop
    /// Messages not handed to the hubs yet, touched on `home` only.
    private var pending: [HubMessage] = []
    /// How long the first of `pending` may wait (`SubscriberLimits.writeInterval`), touched on `home` only.
    private var writeInterval: TimeAmount
    /// The hand-over of `pending` once the first has waited `writeInterval`, touched on `home` only.
    private var scheduledHandOver: Scheduled<Void>?

    init(loops: [EventLoop], home: EventLoop, limits: SubscriberLimits, logger: Logger, metrics: StreamMetrics) {
        self.home = home
        writeInterval = Self.timeAmount(limits.writeInterval)
        let demand = self.demand
        shards = loops.enumerated().map { index, loop in
            let hub = Hub(limits: limits, demand: demand, logger: logger, firstSubscriberID: index + 1,
                          subscriberIDStride: loops.count, dropped: metrics.droppedPackets)
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

    /// Has the queued messages handed to every hub, which write them to their subscribers: once the first has
    /// waited `writeInterval`, or at once for the end, after which nothing comes.
    func flush() {
        home.preconditionInEventLoop()
        guard !pending.isEmpty else { return }
        if case .end? = pending.last { return handOver() }
        guard writeInterval > .zero else { return handOver() }
        guard scheduledHandOver == nil else { return }
        scheduledHandOver = home.scheduleTask(in: writeInterval) { [self] in handOver() }
    }

    private func handOver() {
        scheduledHandOver?.cancel()
        scheduledHandOver = nil
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

    /// Gives every hub, and the subscribers connected to it, new limits; succeeds once all have them. Call on the
    /// stream's loop.
    func update(limits: SubscriberLimits) -> EventLoopFuture<Void> {
        home.preconditionInEventLoop()
        writeInterval = Self.timeAmount(limits.writeInterval)
        return map { $0.update(limits: limits) }.map { _ in }
    }

    private static func timeAmount(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
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
