import AudioFileStream
import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// Fans one stream's messages out to the subscribers on one event loop, each message encoded once.
///
/// What is published waits up to the limits' `writeInterval`, so that each subscriber gets it in one write
/// (`PublishedBatch`); the subscribers are spread over `WriteSlot`s written at different moments of the interval.
/// Keeps what a newcomer needs: the current properties, the last metadata, the source's last condition and the
/// recent packets for a burst. Confined to its event loop, which its entry points check.
final class Hub {
    /// Applied to every subscriber, present and future; a reload may change them with `update(limits:)`.
    private(set) var limits: SubscriberLimits
    /// Where its subscribers' connections live and write-outs are scheduled.
    private let eventLoop: EventLoop
    private let demand: PCMDemand
    /// The stream's HTTP listeners over all its hubs.
    private let listenerCount: ListenerCount
    /// Everyone the stream has over all its hubs, waiting listeners included.
    private let attendance: Attendance
    private let logger: Logger
    private(set) var subscribers: [Subscriber] = []
    private var nextSubscriberID: Int
    /// Hubs of one stream number their subscribers in step, so ids stay unique across the stream.
    private let subscriberIDStride: Int
    /// What a newcomer is given of the stream's state.
    private var newcomers = NewcomerState()
    /// What HTTP listeners and outputs are told and given first, and the listeners waiting to be.
    private var mount = MountState()
    /// The subscribers in shares written at different phases of the interval; newcomers join them in turn.
    private var slots = Array(repeating: WriteSlot(), count: WriteSlot.count)
    private var nextSlot = 0
    /// Every subscriber that is not caught up, and some that have caught up since: `publish` queues for these at
    /// once, so that the policy counts from then, without a pass over the whole audience for every message.
    private var behind: [Subscriber] = []
    private var history = PacketHistory()
    /// The end event, once the stream has ended.
    private var endMessage: ByteBuffer?
    /// Subscribers disconnected for staying behind, since the hub started.
    private(set) var disconnectedSlow = 0
    /// Bytes written to subscribers that have left.
    private(set) var departedSentBytes = 0

    /// The rings of the daemon's loops, or nil for a hub of its own.
    private let sendRings: SendRings?
    /// Where HTTP listeners' sends of a write-out wait to be made together at its end: its loop's, shared by the
    /// hubs there.
    private(set) lazy var sendRing = sendRings?.ring(on: eventLoop) ?? SendRing(eventLoop: eventLoop, logger: logger)

    /// Counts the packets subscribers lose, for the metrics.
    private let dropped: Counter?

    init(limits: SubscriberLimits, eventLoop: EventLoop, demand: PCMDemand = PCMDemand(),
         listenerCount: ListenerCount = ListenerCount(), attendance: Attendance = Attendance(),
         logger: Logger = Logger(label: "audiostreamd"), firstSubscriberID: Int = 1, subscriberIDStride: Int = 1,
         dropped: Counter? = nil, sendRings: SendRings? = nil) {
        self.limits = limits
        self.eventLoop = eventLoop
        self.dropped = dropped
        self.demand = demand
        self.listenerCount = listenerCount
        self.attendance = attendance
        self.logger = logger
        self.sendRings = sendRings
        nextSubscriberID = firstSubscriberID
        self.subscriberIDStride = subscriberIDStride
    }

    /// Bytes written to every subscriber, present and past.
    var sentBytes: Int { subscribers.reduce(departedSentBytes) { $0 + $1.sentBytes } }

    /// Adds a subscriber: it gets the welcome (an HTTP listener has written its response's head itself), the
    /// current state it would be sent live (properties, metadata, the source's condition, the ICY title), and
    /// its burst.
    func add(_ sink: SubscriberSink, hello: Hello, welcome: ByteBuffer?, transport: Subscriber.Transport = .socket,
             client: ClientIdentity? = nil, now: NIODeadline = .now()) -> Subscriber {
        eventLoop.preconditionInEventLoop()
        let subscriber = Subscriber(id: nextSubscriberID, hello: hello, transport: transport, client: client, sink: sink,
                                    limits: limits, now: now)
        nextSubscriberID += subscriberIDStride
        subscriber.slot = nextSlot
        nextSlot = (nextSlot + 1) % slots.count
        // What was published before it came is in the state it gets now.
        subscriber.batchStart = slots[subscriber.slot].batch.count
        subscribers.append(subscriber)
        slots[subscriber.slot].subscribers.append(subscriber)
        if hello.kinds.contains(.pcm) { demand.add(hello.pcm) }
        if transport == .http { listenerCount.joined() }
        attendance.joined()
        let opening = (welcome.map { [$0] } ?? []) + newcomers.opening(for: subscriber)
        for message in opening { _ = subscriber.enqueue(QueuedMessage(buffer: message, audio: nil), now: now) }
        if subscriber.wanted.contains(.listeners) {
            for message in mount.opening { _ = subscriber.enqueue(message, now: now) }
        }
        if hello.artwork, let artwork = newcomers.artwork { _ = subscriber.enqueue(artwork, now: now) }
        if hello.kinds.contains(.packets) {
            for message in history.burst(seconds: hello.burstSeconds, limits: limits) {
                _ = subscriber.enqueue(message, now: now)
            }
        }
        if let endMessage {
            _ = subscriber.enqueue(QueuedMessage(buffer: endMessage, audio: nil), now: now)
            subscriber.finish()
        } else {
            subscriber.drain()
        }
        noteIfBehind(subscriber)
        return subscriber
    }

    func remove(_ subscriber: Subscriber) {
        eventLoop.preconditionInEventLoop()
        guard let index = subscribers.firstIndex(where: { $0 === subscriber }) else { return }
        subscribers.remove(at: index)
        subscriber.hasLeft = true
        slots[subscriber.slot].subscribers.removeAll { $0 === subscriber }
        if subscriber.isListedBehind { behind.removeAll { $0 === subscriber } }
        departedSentBytes += subscriber.sentBytes
        if subscriber.hello.kinds.contains(.pcm) { demand.remove(subscriber.hello.pcm) }
        if subscriber.transport == .http { listenerCount.left() }
        attendance.left()
    }

    /// Publishes a chunk's messages in order; they are written out within `writeInterval`.
    func apply(_ messages: [HubMessage]) {
        // Every chunk of the stream: a debug check, free in release builds.
        eventLoop.assertInEventLoop()
        for message in messages {
            switch message {
            case .property(let id, let buffer): publishProperty(id, buffer)
            case .decodedFormat(let buffer): publishDecodedFormat(buffer)
            case .metadata(let source, let buffer): publishMetadata(buffer, from: source)
            case .event(let buffer): publishEvent(buffer)
            case .source(let buffer): publishSource(buffer)
            case .packet(let packet): publishPacket(packet)
            case .pcm(let buffers): publishPCM(buffers)
            case .pcmEvent(let buffer): publishPCMEvent(buffer)
            case .end(let buffer): end(buffer)
            case .mountInfo(let info): noteMountInfo(info)
            case .icyMetadata(let block): publishICYMetadata(block)
            case .mountHeader(let header): publishMountHeader(header)
            case .mountTrailer(let trailer): publishMountTrailer(trailer)
            case .artwork(let buffer): publishArtwork(buffer)
            case .levels(let buffer): publish(QueuedMessage(buffer: buffer, audio: nil), to: .levels)
            case .pastIsStale: history.removeAll()
            }
        }
        scheduleWriteOuts()
    }

    /// What HTTP listeners are told in their response's head, once the stream's format is known.
    var mountInfo: MountInfo? { mount.info }

    /// HTTP listeners waiting for the stream to be servable.
    var waitingListeners: Int { mount.waitingCount }

    /// Whether the stream's end event was published.
    var hasEnded: Bool { endMessage != nil }

    /// For a stream that can be neither served over HTTP (`mountInfo` nil) nor has ended: calls `servable` with
    /// true once it can be served, or with false if it ends before; unless cancelled with the returned id first.
    func waitForMount(_ servable: @escaping (Bool) -> Void) -> Int {
        eventLoop.preconditionInEventLoop()
        attendance.joined()
        return mount.addWaiter(servable)
    }

    func cancelMountWait(_ id: Int) {
        eventLoop.preconditionInEventLoop()
        if mount.removeWaiter(id) { attendance.left() }
    }

    private func noteMountInfo(_ info: MountInfo?) {
        mount.info = info
        if info != nil { releaseMountWaiters() }
    }

    private func releaseMountWaiters() {
        // Taken first: a waiter that is served joins this hub.
        for servable in mount.takeWaiters() {
            servable(mount.info != nil)
            attendance.left()
        }
    }

    func publishProperty(_ id: AudioFileStreamPropertyID, _ message: ByteBuffer) {
        newcomers.setProperty(id, message)
        publish(QueuedMessage(buffer: message, audio: nil), to: Audience.of(id))
    }

    func publishDecodedFormat(_ message: ByteBuffer) {
        newcomers.decodedFormat = message
        publish(QueuedMessage(buffer: message, audio: nil), to: .properties)
    }

    func publishMetadata(_ message: ByteBuffer, from source: String) {
        newcomers.setMetadata(message, from: source)
        publish(QueuedMessage(buffer: message, audio: nil), to: .metadata)
    }

    /// An event every subscriber gets: a discontinuity of the input, the end.
    func publishEvent(_ message: ByteBuffer) {
        publish(QueuedMessage(buffer: message, audio: nil), to: .everyone)
    }

    /// A `source` event, for the subscribers of the stream's status; newcomers get the last one.
    func publishSource(_ message: ByteBuffer) {
        newcomers.source = message
        publish(QueuedMessage(buffer: message, audio: nil), to: .streamStatus)
    }

    /// A new title for HTTP listeners; newcomers get the last one.
    func publishICYMetadata(_ block: ByteBuffer) {
        let message = QueuedMessage(buffer: block, audio: nil, role: .icyMetadata)
        mount.icyMetadata = message
        publish(message, to: .listeners)
    }

    /// A new header for HTTP listeners and outputs, inline (an Ogg chain's next link); newcomers get the last.
    func publishMountHeader(_ header: ByteBuffer) {
        let message = QueuedMessage(buffer: header, audio: nil, role: .mountHeader)
        mount.header = message
        // The packets before it belong to the previous header: a newcomer's burst must not put them after this one.
        history.removeAll()
        publish(message, to: .listeners)
    }

    /// What ends the bytes HTTP listeners and outputs got so far: for those connected now, not for newcomers.
    func publishMountTrailer(_ trailer: ByteBuffer) {
        publish(QueuedMessage(buffer: trailer, audio: nil, role: .mountTrailer), to: .listeners)
    }

    /// A new picture for the subscribers of artwork; newcomers get the last one.
    func publishArtwork(_ message: ByteBuffer) {
        let queued = QueuedMessage(buffer: message, audio: nil, role: .artwork)
        newcomers.artwork = queued
        publish(queued, to: .artwork)
    }

    func publishPacket(_ message: QueuedMessage) {
        history.remember(message, limits: limits)
        publish(message, to: .packets)
    }

    /// PCM in the format each subscriber asked for: one entry for each message a request has, in order.
    func publishPCM(_ messages: [PCMRequest: [QueuedMessage]]) {
        let rounds = messages.values.map(\.count).max() ?? 0
        for round in 0..<rounds {
            publish(.pcm(messages.compactMapValues { round < $0.count ? $0[round] : nil }), to: .pcm)
        }
    }

    /// An event about the PCM, for its subscribers only: packet subscribers are not concerned.
    func publishPCMEvent(_ message: ByteBuffer) {
        publish(QueuedMessage(buffer: message, audio: nil), to: .pcm)
    }

    /// Hands what was published to the sockets now, in every slot.
    func flush() {
        for index in slots.indices { writeOut(slot: index) }
    }

    /// Has every slot holding something written out at its next phase of `writeInterval`; at once without one.
    private func scheduleWriteOuts() {
        guard limits.writeInterval > 0 else { return flush() }
        let interval = TimeAmount.nanoseconds(Int64(limits.writeInterval * 1e9))
        let hub = NIOLoopBound(self, eventLoop: eventLoop)
        for index in slots.indices where slots[index].writeOut == nil && slots[index].batch.count > 0 {
            let deadline = WriteSlot.nextWriteOut(of: index, interval: interval, after: eventLoop.now)
            slots[index].writeOut = eventLoop.scheduleTask(deadline: deadline) { hub.value.writeOut(slot: index) }
        }
    }

    /// Writes the slot's batch in one write to each of its subscribers that takes it so, and whatever else its
    /// subscribers have queued.
    private func writeOut(slot index: Int) {
        slots[index].writeOut?.cancel()
        slots[index].writeOut = nil
        let now = NIODeadline.now()
        // The batch is worked on as a local: reaching it in `slots` costs an exclusivity check each subscriber.
        var batch = PublishedBatch()
        swap(&batch, &slots[index].batch)
        for subscriber in slots[index].subscribers {
            if subscriber.batchStart == 0, subscriber.takesJoinedWrite, let joined = batch.joinedBytes(for: subscriber) {
                subscriber.write(joined: joined)
            } else if queue(batch, for: subscriber, now: now) {
                subscriber.drain()
                noteIfBehind(subscriber)
            }
            subscriber.batchStart = 0
        }
        sendRing.submit()
        batch.removeAll()
        swap(&batch, &slots[index].batch)
    }

    /// Sends the end event to everyone; each connection closes once it has written it.
    func end(_ message: ByteBuffer) {
        endMessage = message
        releaseMountWaiters()
        publishEvent(message)
        flush()
        for subscriber in subscribers {
            subscriber.finish()
            noteIfBehind(subscriber)
        }
    }

    /// Closes every subscriber's connection.
    func closeAll() {
        eventLoop.preconditionInEventLoop()
        for subscriber in subscribers {
            remove(subscriber)
            subscriber.close()
        }
    }

    /// Applies a reload's limits to the subscribers connected now, from their next message, and to newcomers;
    /// history beyond the new `historySeconds` is forgotten at once.
    func update(limits: SubscriberLimits) {
        eventLoop.preconditionInEventLoop()
        self.limits = limits
        for subscriber in subscribers { subscriber.limits = limits }
        history.forgetOld(limits: limits)
    }

    /// Delivers to the subscribers that asked for any member of `audience`.
    private func publish(_ message: QueuedMessage, to audience: Audience) {
        publish(.message(message, audience: audience), to: audience)
    }

    /// Adds the entry to the batch, and queues it at once for the subscribers behind, so that the policy counts it
    /// from now: those caught up take the batch at the next `flush`.
    private func publish(_ entry: PublishedBatch.Entry, to audience: Audience) {
        // A slot nobody is in has nothing to write out, and no write-out to wake the loop for.
        for index in slots.indices where !slots[index].subscribers.isEmpty { slots[index].batch.append(entry) }
        guard !behind.isEmpty else { return }
        let now = NIODeadline.now()
        for subscriber in behind where subscriber.wanted.wants(audience) && !subscriber.isCaughtUp {
            // One disconnected for staying behind has left the hub: nothing more to do for it.
            _ = queue(slots[subscriber.slot].batch, for: subscriber, now: now)
        }
        behind.removeAll { subscriber in
            guard subscriber.isCaughtUp else { return false }
            subscriber.isListedBehind = false
            return true
        }
    }

    /// Lists the subscriber in `behind` if it is not caught up: called after anything queues for it. One that left
    /// during the writes (its connection closed) is not listed, or the list would keep it for ever.
    private func noteIfBehind(_ subscriber: Subscriber) {
        guard !subscriber.hasLeft, !subscriber.isCaughtUp, !subscriber.isListedBehind else { return }
        subscriber.isListedBehind = true
        behind.append(subscriber)
    }

    /// Queues what the subscriber has not been given of its slot's `batch`.
    /// - Returns: false when it was disconnected for staying behind.
    private func queue(_ batch: PublishedBatch, for subscriber: Subscriber, now: NIODeadline) -> Bool {
        let start = subscriber.batchStart
        subscriber.batchStart = batch.count
        for entry in batch.entries[start...] {
            guard let message = PublishedBatch.message(of: entry, for: subscriber) else { continue }
            guard deliver(message, to: subscriber, now: now) else { return false }
        }
        return true
    }

    /// Queues the message; false when the subscriber was disconnected for staying behind.
    private func deliver(_ message: QueuedMessage, to subscriber: Subscriber, now: NIODeadline) -> Bool {
        let droppedBefore = subscriber.droppedPackets
        let keep = subscriber.enqueue(message, now: now)
        if let dropped, subscriber.droppedPackets > droppedBefore {
            dropped.increment(by: subscriber.droppedPackets - droppedBefore)
        }
        guard !keep else { return true }
        disconnectedSlow += 1
        logger.warning("subscriber \(subscriber.id) disconnected: behind for \(limits.disconnectAfter) s or more")
        remove(subscriber)
        subscriber.close()
        return false
    }
}
