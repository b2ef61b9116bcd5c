import AudioStreamProtocol
import Glibc
import NIOCore

/// A subscriber's connection, at the head of its channel's pipeline: the one place the daemon goes around NIO,
/// so that the hub's joined writes reach thousands of sockets with one `send` each (NIO's per-channel write path
/// cost more than the system call, most of the fan-out's cost).
///
/// The contract that makes this safe:
/// - **Accept.** `Listener` accepts the connections itself, as NIO gives no access to a channel's descriptor, and
///   serves each as a NIO channel whose pipeline starts with its `SubscriberSocket`; the protocol's handlers come
///   after it and read the request through NIO, then call `join`. Nothing else in the daemon sees a descriptor.
/// - **Direct send.** `writeAndFlush(joined:)` sends with one `send(MSG_DONTWAIT)` while NIO holds none of the
///   channel's writes. Every write of every handler passes through this one, the nearest to the socket, and is
///   counted until NIO completes it, so a direct send never overtakes a write. An HTTP listener's direct send is
///   queued in its loop's `SendRing` instead, and made with the others of the write-out when the hub submits them;
///   until then every write to the socket joins the queued bytes, so nothing overtakes them either.
/// - **Hand-back to NIO.** What the socket does not take at once goes through NIO, in order, and NIO's
///   writability tells the hub when the subscriber is behind. NIO owns the descriptor: it reads, meets the end
///   of the connection and its errors, and closes it; once the channel is inactive (NIO closed the descriptor
///   before saying so) the descriptor is never touched again.
///
/// Confined to the channel's event loop.
final class SubscriberSocket: ChannelDuplexHandler, SubscriberSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The connection's socket; nil where there is none to send to (an `EmbeddedChannel`), and every write goes
    /// through NIO.
    private let descriptor: CInt?
    private var context: ChannelHandlerContext?
    /// Writes NIO has not completed: while there are any, a direct `send` would overtake them.
    private var writesInNIO = 0
    private var subscription: (stream: StreamService, hub: Hub, subscriber: Subscriber)?
    /// Its loop's ring, for an HTTP listener.
    private var ring: SendRing?
    /// Bytes queued in `ring` and not sent yet.
    private var queuedInRing: ByteBuffer?

    /// Called when the subscriber leaves, with what it was sent: an HTTP listener's line in the access log.
    var onLeave: ((Subscriber) -> Void)?

    init(descriptor: CInt?) {
        self.descriptor = descriptor
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Joins the hub of this loop as `sink`, by default this socket with the messages' wire encodings; an HTTP
    /// listener's sink frames them for players and writes through this socket. The first messages are written at
    /// once, and a peer already gone closes the channel during those writes: such a subscriber is taken out again
    /// at once. The subscriber leaves the hub when the channel closes.
    func join(_ stream: StreamService, hello: Hello, welcome: ByteBuffer?, transport: Subscriber.Transport,
              client: ClientIdentity? = nil, sink: SubscriberSink? = nil) {
        guard let context else { return }
        let hub = stream.hubs.hub(on: context.eventLoop)
        let subscriber = hub.add(sink ?? self, hello: hello, welcome: welcome, transport: transport, client: client)
        guard context.channel.isActive else {
            hub.remove(subscriber)
            return
        }
        subscription = (stream, hub, subscriber)
        if transport == .http { sendThrough(hub.sendRing) }
        stream.logger.debug("\(transport.role) \(subscriber.id) joined", metadata: ["kinds": "\(hello.kinds)"])
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable { subscription?.subscriber.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isWritable = false
        // The descriptor is closed: what the ring has not sent yet is never sent.
        queuedInRing = nil
        if let (stream, hub, subscriber) = subscription {
            hub.remove(subscriber)
            stream.logger.debug("\(subscriber.transport.role) \(subscriber.id) left")
            onLeave?(subscriber)
        }
        subscription = nil
        self.context = nil
        context.fireChannelInactive()
    }

    /// A failed read or write: NIO has met it on the socket, and the connection is over.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Counts the write of a handler behind this one until NIO completes it.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: counted(promise, on: context.eventLoop))
    }

    private func counted(_ promise: EventLoopPromise<Void>?, on eventLoop: EventLoop) -> EventLoopPromise<Void> {
        writesInNIO += 1
        let counted = promise ?? eventLoop.makePromise()
        let socket = NIOLoopBound(self, eventLoop: eventLoop)
        counted.futureResult.whenComplete { _ in socket.value.writesInNIO -= 1 }
        return counted
    }

    // MARK: - SubscriberSink

    /// Kept from `channelWritabilityChanged`, as the hub asks it for every message of every subscriber.
    private(set) var isWritable = true

    /// Hands the message to NIO, to go out at the next flush; or joins it to the bytes queued in the ring.
    func write(_ message: ByteBuffer) {
        guard let context else { return }
        if var queued = queuedInRing {
            queued.writeImmutableBuffer(message)
            queuedInRing = queued
            return
        }
        context.write(wrapOutboundOut(message), promise: counted(nil, on: context.eventLoop))
    }

    /// As they are, with `writeNow`.
    func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        writeNow(bytes)
        return bytes.readableBytes
    }

    /// Writes and flushes `bytes`: with one `send` to the socket (or one queued in the ring) unless NIO still
    /// holds earlier writes, and whatever the socket does not take through NIO, which waits until it can.
    func writeNow(_ bytes: ByteBuffer) {
        guard let context else { return }
        guard let descriptor, writesInNIO == 0, queuedInRing == nil else {
            write(bytes)
            return context.flush()
        }
        if let ring {
            queuedInRing = bytes
            if ring.queue(self) { return }
            queuedInRing = nil
        }
        let sent = bytes.withUnsafeReadableBytes {
            send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        handToNIO(bytes, after: sent)
    }

    /// Queues the direct sends in `ring` from now on.
    func sendThrough(_ ring: SendRing) {
        self.ring = ring
    }

    /// What the ring is to send for this socket: its descriptor and the bytes, until `sentFromRing` is called.
    var queuedSend: (descriptor: CInt, bytes: ByteBuffer)? {
        guard let descriptor, let queuedInRing else { return nil }
        return (descriptor, queuedInRing)
    }

    /// What the ring's send returned, as `send` does.
    func sentFromRing(_ sent: Int) {
        guard let bytes = queuedInRing else { return }
        queuedInRing = nil
        handToNIO(bytes, after: sent)
    }

    /// Writes through NIO what a direct send of `bytes` that returned `sent` did not take: all of them after a
    /// failure, which NIO meets itself and closes the channel.
    private func handToNIO(_ bytes: ByteBuffer, after sent: Int) {
        guard let context, sent < bytes.readableBytes else { return }
        var rest = bytes
        rest.moveReaderIndex(forwardBy: max(sent, 0))
        write(rest)
        context.flush()
    }

    func flush() {
        context?.flush()
    }

    /// Leaves its stream's hub and joins `stream`'s as the same subscriber, through `sink`.
    /// - Returns: whether it was subscribed, and so moved.
    func move(to stream: StreamService, sink: SubscriberSink) -> Bool {
        guard let (old, hub, subscriber) = subscription else { return false }
        hub.remove(subscriber)
        old.logger.debug("\(subscriber.transport.role) \(subscriber.id) moved to \(stream.name)")
        join(stream, hello: subscriber.hello, welcome: nil, transport: subscriber.transport, client: subscriber.client,
             sink: sink)
        return true
    }

    func close(afterPendingWrites: Bool) {
        guard let context else { return }
        // What the ring holds goes before the end.
        if afterPendingWrites && queuedInRing != nil { ring?.submit() }
        guard afterPendingWrites else {
            context.close(promise: nil)
            return
        }
        // Writes complete in order, so an empty one completes after everything written before it.
        let channel = context.channel
        let written = counted(nil, on: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0)), promise: written)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
}

extension Subscriber.Transport {
    /// What the log calls a subscriber of this transport.
    var role: String {
        switch self {
        case .socket: "subscriber"
        case .http: "HTTP listener"
        case .output: "output"
        }
    }
}
