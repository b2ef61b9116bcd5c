import AudioFileStream
import Logging
import Metrics
import NIOCore

/// Fans one stream's messages out to the subscribers on one event loop, each message encoded once.
///
/// Keeps what a newcomer needs: the current properties, the last metadata and the recent packets for a burst.
/// Confined to its event loop.
final class Hub {
    let limits: SubscriberLimits
    private let demand: PCMDemand
    private let logger: Logger
    private(set) var subscribers: [Subscriber] = []
    private var nextSubscriberID: Int
    /// Hubs of one stream number their subscribers in step, so ids stay unique across the stream.
    private let subscriberIDStride: Int
    /// The latest message of each property, in the order they first appeared.
    private var properties: [(id: AudioFileStreamPropertyID, message: ByteBuffer)] = []
    /// The latest metadata of each source, in the order the sources first appeared.
    private var lastMetadata: [(source: String, message: ByteBuffer)] = []
    private var history = CircularBuffer<QueuedMessage>()
    private var historySeconds = 0.0
    /// The end event, once the stream has ended.
    private var endMessage: ByteBuffer?
    /// Subscribers disconnected for staying behind, since the hub started.
    private(set) var disconnectedSlow = 0
    /// Bytes written to subscribers that have left.
    private(set) var departedSentBytes = 0

    /// Counts the packets subscribers lose, for the metrics.
    private let dropped: Counter?

    init(limits: SubscriberLimits, demand: PCMDemand = PCMDemand(), logger: Logger = Logger(label: "audiostreamd"),
         firstSubscriberID: Int = 1, subscriberIDStride: Int = 1, dropped: Counter? = nil) {
        self.limits = limits
        self.dropped = dropped
        self.demand = demand
        self.logger = logger
        nextSubscriberID = firstSubscriberID
        self.subscriberIDStride = subscriberIDStride
    }

    /// Bytes written to every subscriber, present and past.
    var sentBytes: Int { subscribers.reduce(departedSentBytes) { $0 + $1.sentBytes } }

    /// Adds a subscriber: it gets the welcome, the current state it asked for, and its burst.
    func add(_ sink: SubscriberSink, hello: Hello, welcome: ByteBuffer, now: NIODeadline = .now()) -> Subscriber {
        let subscriber = Subscriber(id: nextSubscriberID, hello: hello, sink: sink, limits: limits, now: now)
        nextSubscriberID += subscriberIDStride
        subscribers.append(subscriber)
        if hello.kinds.contains(.pcm) { demand.add(hello.pcmEncoding) }
        var opening = [welcome]
        if hello.kinds.contains(.properties) { opening += properties.map(\.message) }
        if hello.kinds.contains(.metadata) { opening += lastMetadata.map(\.message) }
        for message in opening { _ = subscriber.enqueue(QueuedMessage(buffer: message, audio: nil), now: now) }
        if hello.kinds.contains(.packets) {
            for message in burst(seconds: hello.burstSeconds) {
                _ = subscriber.enqueue(message, now: now)
            }
        }
        if let endMessage {
            _ = subscriber.enqueue(QueuedMessage(buffer: endMessage, audio: nil), now: now)
            subscriber.finish()
        } else {
            subscriber.drain()
        }
        return subscriber
    }

    func remove(_ subscriber: Subscriber) {
        guard let index = subscribers.firstIndex(where: { $0 === subscriber }) else { return }
        subscribers.remove(at: index)
        departedSentBytes += subscriber.sentBytes
        if subscriber.hello.kinds.contains(.pcm) { demand.remove(subscriber.hello.pcmEncoding) }
    }

    /// Publishes a chunk's messages in order, then writes them out.
    func apply(_ messages: [HubMessage]) {
        for message in messages {
            switch message {
            case .property(let id, let buffer): publishProperty(id, buffer)
            case .metadata(let source, let buffer): publishMetadata(buffer, from: source)
            case .event(let buffer): publishEvent(buffer)
            case .packet(let packet): publishPacket(packet)
            case .pcm(let buffers): publishPCM(buffers)
            case .end(let buffer): end(buffer)
            }
        }
        flush()
    }

    func publishProperty(_ id: AudioFileStreamPropertyID, _ message: ByteBuffer) {
        if let index = properties.firstIndex(where: { $0.id == id }) {
            properties[index].message = message
        } else {
            properties.append((id, message))
        }
        publish(QueuedMessage(buffer: message, audio: nil), to: .properties)
    }

    func publishMetadata(_ message: ByteBuffer, from source: String) {
        if let index = lastMetadata.firstIndex(where: { $0.source == source }) {
            lastMetadata[index].message = message
        } else {
            lastMetadata.append((source, message))
        }
        publish(QueuedMessage(buffer: message, audio: nil), to: .metadata)
    }

    /// An event every subscriber gets: a discontinuity of the input, the end.
    func publishEvent(_ message: ByteBuffer) {
        publish(QueuedMessage(buffer: message, audio: nil), to: nil)
    }

    func publishPacket(_ message: QueuedMessage) {
        remember(message)
        publish(message, to: .packets)
    }

    /// PCM in the encoding each subscriber asked for.
    func publishPCM(_ messages: [WirePCMEncoding: QueuedMessage]) {
        let now = NIODeadline.now()
        for subscriber in subscribers where subscriber.wanted & Hello.Kind.pcm.bit != 0 {
            guard let message = messages[subscriber.hello.pcmEncoding] else { continue }
            deliver(message, to: subscriber, now: now)
        }
    }

    /// Hands what was published to the sockets; called once per chunk of input so writes are batched.
    func flush() {
        for subscriber in subscribers { subscriber.drain() }
    }

    /// Sends the end event to everyone; each connection closes once it has written it.
    func end(_ message: ByteBuffer) {
        endMessage = message
        publishEvent(message)
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Closes every subscriber's connection.
    func closeAll() {
        for subscriber in subscribers {
            remove(subscriber)
            subscriber.close()
        }
    }

    /// Delivers to the subscribers that asked for `kind`, or to all when nil.
    private func publish(_ message: QueuedMessage, to kind: Hello.Kind?) {
        let now = NIODeadline.now()
        let bit = kind?.bit ?? 0
        for subscriber in subscribers where subscriber.wanted & bit == bit {
            deliver(message, to: subscriber, now: now)
        }
    }

    private func deliver(_ message: QueuedMessage, to subscriber: Subscriber, now: NIODeadline) {
        let droppedBefore = subscriber.droppedPackets
        let keep = subscriber.enqueue(message, now: now)
        if let dropped, subscriber.droppedPackets > droppedBefore {
            dropped.increment(by: subscriber.droppedPackets - droppedBefore)
        }
        guard !keep else { return }
        disconnectedSlow += 1
        logger.warning("subscriber \(subscriber.id) disconnected: behind for \(limits.disconnectAfter) s or more")
        remove(subscriber)
        subscriber.close()
    }

    /// Keeps the packet for bursts, forgetting the oldest beyond `historySeconds`.
    private func remember(_ message: QueuedMessage) {
        guard limits.historySeconds > 0, let audio = message.audio else { return }
        history.append(message)
        historySeconds += audio.seconds
        while historySeconds > limits.historySeconds, let oldest = history.popFirst() {
            historySeconds -= oldest.audio?.seconds ?? 0
        }
    }

    /// The most recent packets covering at least `seconds` of audio, oldest first, within what the queue holds
    /// so that a burst never overflows it.
    private func burst(seconds: Double) -> [QueuedMessage] {
        var covered = 0.0
        var start = history.endIndex
        while start > history.startIndex, covered < seconds {
            let earlier = history.index(before: start)
            let duration = history[earlier].audio?.seconds ?? 0
            guard covered + duration <= limits.queueSeconds else { break }
            covered += duration
            start = earlier
        }
        return Array(history[start...])
    }
}
