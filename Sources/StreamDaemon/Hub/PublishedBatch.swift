import AudioStreamProtocol
import NIOCore

/// What a hub published since it last wrote to the subscribers of one `WriteSlot`, in order.
///
/// A subscriber with nothing queued takes it at the write-out; the messages each kind of subscriber gets of it
/// are joined into one buffer once, shared by all of that kind, so that each costs one write, not one per message.
struct PublishedBatch {
    enum Entry {
        /// For the subscribers that asked for any member of `audience`.
        case message(QueuedMessage, audience: Audience)
        /// One PCM buffer in each format subscribers want.
        case pcm([PCMRequest: QueuedMessage])
    }

    private(set) var entries: [Entry] = []
    /// The joined messages made so far, by kind of subscriber; nil where they cannot be joined.
    private var joined: [Kind: ByteBuffer?] = [:]
    /// The kind asked for last, and its joined messages: a slot's subscribers are mostly of one kind, and comparing
    /// costs less than hashing.
    private var last: (kind: Kind, bytes: ByteBuffer?)?

    /// What makes subscribers get the same bytes of the same entries.
    struct Kind: Hashable {
        let wanted: Audience
        let pcm: PCMRequest?
        /// HTTP listeners get packets' listener bytes, not their wire encoding.
        let listener: Bool

        init(wanted: Audience, hello: Hello, transport: Subscriber.Transport) {
            self.wanted = wanted
            pcm = wanted.contains(.pcm) ? hello.pcm : nil
            listener = transport != .socket
        }
    }

    var count: Int { entries.count }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Empties the batch for the next write-out.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        joined.removeAll(keepingCapacity: true)
        last = nil
    }

    /// What `subscriber` gets of `entry`, if anything.
    static func message(of entry: Entry, for subscriber: Subscriber) -> QueuedMessage? {
        switch entry {
        case .message(let message, let audience): subscriber.wanted.wants(audience) ? message : nil
        case .pcm(let messages):
            subscriber.wanted.contains(.pcm) ? messages[subscriber.hello.pcm] : nil
        }
    }

    /// Everything `subscriber` gets of the batch in one buffer (`SubscriberSink.writeAndFlush(joined:)`), made
    /// once for every subscriber of its kind; nil when it gets nothing, or when an ICY title must reach an HTTP
    /// listener's sink in its place between the packets.
    mutating func joinedBytes(for subscriber: Subscriber) -> ByteBuffer? {
        let kind = subscriber.batchKind
        if let last, last.kind == kind { return last.bytes }
        let made = joined[kind] ?? join(for: subscriber, listener: kind.listener)
        joined[kind] = made
        last = (kind, made)
        return made
    }

    private func join(for subscriber: Subscriber, listener: Bool) -> ByteBuffer? {
        let messages = entries.compactMap { Self.message(of: $0, for: subscriber) }
        guard !listener || !messages.contains(where: { $0.role == .icyMetadata }) else { return nil }
        let parts = listener ? messages.compactMap(\.listenerPayload) : messages.map(\.buffer)
        let size = parts.reduce(0) { $0 + $1.readableBytes }
        guard size > 0 else { return nil }
        var bytes = ByteBufferAllocator().buffer(capacity: size)
        for part in parts { bytes.writeImmutableBuffer(part) }
        return bytes
    }
}
