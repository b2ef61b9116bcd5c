import AudioStreamProtocol
import NIOCore

/// One subscriber's queue and the policy for falling behind.
///
/// Messages wait here while the sink is full. Once the queued audio exceeds `queueSeconds`, the oldest whole
/// packets (or PCM buffers) are dropped; the next one delivered is preceded by an `overflow` discontinuity
/// event saying how many. A subscriber that keeps dropping for `disconnectAfter` seconds is disconnected.
/// Confined to its hub's event loop, its connection's, which need not be its stream's: the hub checks it.
final class Subscriber {
    /// How a subscriber is connected: what it is told and how it counts in the status.
    enum Transport: Sendable {
        /// The wire protocol on a stream's Unix socket.
        case socket
        /// An HTTP listener of the stream's mount: its audio, and ICY metadata blocks.
        case http
        /// An Icecast server the stream pushes itself to: its audio and titles.
        case output
    }

    let id: Int
    let hello: Hello
    let transport: Transport
    /// What it asked for, tested for every message.
    let wanted: Audience
    /// Which subscribers get the same bytes of a `PublishedBatch` as this one.
    let batchKind: PublishedBatch.Kind
    let connectedAt: NIODeadline
    /// An HTTP listener's address and user agent.
    let client: ClientIdentity?
    private let sink: SubscriberSink
    /// Its hub's limits, changed by a reload.
    var limits: SubscriberLimits
    /// Read for every subscriber at every write-out (`isCaughtUp`): unchecked for overlapping accesses, which cost
    /// more than the read, as a subscriber is confined to its loop and nothing its queue calls comes back to it.
    @exclusivity(unchecked) private var queue = CircularBuffer<QueuedMessage>()
    /// Seconds of audio in `queue`.
    private(set) var queuedSeconds = 0.0
    /// Bytes of events in `queue`: they are never dropped, so a subscriber that lets them pile up is dropped.
    private var queuedEventBytes = 0
    /// Events a subscriber may leave unread; far more than any stream's properties, tags and discontinuities
    /// between two reads of a live subscriber.
    static let maximumQueuedEventBytes = 1 << 20
    /// What was dropped since the last overflow event was sent.
    private var pendingOverflow: (packets: Int, frames: Int, bytes: Int)?
    /// When the subscriber started dropping without catching up since, or nil.
    private var behindSince: NIODeadline?
    /// Set by `finish()`: close once the queue is empty.
    private var finishing = false
    private(set) var droppedPackets = 0
    private(set) var sentBytes = 0
    /// Its hub's `WriteSlot`.
    var slot = 0
    /// The first entry of its slot's `PublishedBatch` it has not been given (queued or written) yet.
    var batchStart = 0
    /// Whether its hub lists it among the subscribers that may be behind.
    var isListedBehind = false
    /// Set when it leaves its hub, which then never lists it again: a connection may close, and leave, in the
    /// middle of a write the hub makes to it.
    var hasLeft = false

    init(id: Int, hello: Hello, transport: Transport = .socket, client: ClientIdentity? = nil, sink: SubscriberSink,
         limits: SubscriberLimits, now: NIODeadline) {
        self.id = id
        self.client = client
        self.hello = hello
        self.transport = transport
        wanted = Audience(hello: hello, transport: transport)
        batchKind = PublishedBatch.Kind(wanted: wanted, hello: hello, transport: transport)
        self.sink = sink
        self.limits = limits
        connectedAt = now
    }

    /// Queues a message, dropping the oldest audio if the queue is over its limit.
    /// - Returns: false when the subscriber must be disconnected: it has been behind for `disconnectAfter`, or
    ///   has left `maximumQueuedEventBytes` of events unread.
    func enqueue(_ message: QueuedMessage, now: NIODeadline) -> Bool {
        if message.role == .artwork {
            // At most one picture waits, so pictures never count against the events' limit.
            queue.removeAll { $0.role == .artwork }
        }
        queue.append(message)
        if let audio = message.audio {
            queuedSeconds += audio.seconds
        } else if message.role != .artwork {
            queuedEventBytes += message.buffer.readableBytes
        }
        // Over a limit, first hand the sink what it takes: a chunk may hold more than the queue, and a
        // subscriber that keeps up must not lose packets, nor be dropped, because writes are batched per chunk.
        if queuedSeconds > limits.queueSeconds || queuedEventBytes > Self.maximumQueuedEventBytes { drain() }
        // The tolerance keeps rounding in the running sum from dropping a packet that fits exactly.
        while queuedSeconds > limits.queueSeconds + 1e-9, dropOldestAudio() {
            behindSince = behindSince ?? now
        }
        guard queuedEventBytes <= Self.maximumQueuedEventBytes else { return false }
        guard let behindSince else { return true }
        return now - behindSince < .nanoseconds(Int64(limits.disconnectAfter * 1e9))
    }

    /// Writes queued messages while the sink takes them, then flushes.
    func drain() {
        var wrote = false
        while sink.isWritable, let message = queue.popFirst() {
            if let audio = message.audio {
                queuedSeconds -= audio.seconds
                if let overflow = pendingOverflow {
                    send(QueuedMessage(buffer: Self.overflowEvent(overflow, resumingAt: audio.offset), audio: nil))
                    pendingOverflow = nil
                }
            }
            if message.audio == nil && message.role != .artwork { queuedEventBytes -= message.buffer.readableBytes }
            send(message)
            wrote = true
        }
        if queue.isEmpty {
            queuedSeconds = 0
            queuedEventBytes = 0
            behindSince = nil
        }
        if wrote { sink.flush() }
        if finishing && queue.isEmpty { sink.close(afterPendingWrites: true) }
    }

    /// Whether it takes what is published as it comes: nothing queued, no drop to report, not closing.
    var isCaughtUp: Bool { queue.isEmpty && pendingOverflow == nil && !finishing }

    /// Whether a batch's messages may go to it in one joined write now: caught up, and its sink takes them as
    /// they come (an Icecast output paces its packets one by one).
    var takesJoinedWrite: Bool { isCaughtUp && transport != .output && sink.isWritable }

    /// Writes messages joined into one buffer by `PublishedBatch`; only when `takesJoinedWrite`.
    func write(joined bytes: ByteBuffer) {
        // Written first and counted after: a count that spanned the write would cost an exclusivity check on
        // every subscriber's every write.
        let written = sink.writeAndFlush(joined: bytes)
        sentBytes += written
    }

    /// Closes the connection once everything queued has been written.
    func finish() {
        finishing = true
        drain()
    }

    /// The subscriber's part of `audiostream status`.
    func status(now: NIODeadline) -> JSON {
        .object([
            ("id", .number(id)), ("transport", .string("\(transport)")),
            ("kinds", .array(Hello.Kind.allCases.filter(hello.kinds.contains).map { .string($0.rawValue) })),
            ("lagSeconds", .double((queuedSeconds * 1000).rounded() / 1000)),
            ("droppedPackets", .number(droppedPackets)), ("bytesOut", .number(sentBytes)),
            ("connectedSeconds", .number((now - connectedAt).nanoseconds / 1_000_000_000)),
        ])
    }

    /// Closes the connection now, dropping what is queued.
    func close() {
        sink.close(afterPendingWrites: false)
    }

    /// Moves the subscriber, an HTTP listener, to `stream`: see `SubscriberSink.move(to:)`.
    func move(to stream: StreamService) -> Bool {
        sink.move(to: stream)
    }

    private func send(_ message: QueuedMessage) {
        let written = sink.write(message)
        sentBytes += written
    }

    /// Drops the oldest audio message, keeping events in place. False when the queue holds no audio.
    private func dropOldestAudio() -> Bool {
        guard let index = queue.firstIndex(where: { $0.audio != nil }), let audio = queue[index].audio else {
            return false
        }
        queue.remove(at: index)
        queuedSeconds -= audio.seconds
        let dropped = pendingOverflow ?? (0, 0, 0)
        pendingOverflow = (dropped.packets + 1, dropped.frames + audio.frames, dropped.bytes + audio.bytes)
        droppedPackets += 1
        return true
    }

    private static func overflowEvent(
        _ overflow: (packets: Int, frames: Int, bytes: Int), resumingAt offset: Int64
    ) -> ByteBuffer {
        let event = EventJSON.overflow(resumingAt: offset, skippedBytes: overflow.bytes,
                                       droppedPackets: overflow.packets, droppedFrames: overflow.frames)
        return WireEncoding.message(.event, json: event, allocator: ByteBufferAllocator())
    }
}
