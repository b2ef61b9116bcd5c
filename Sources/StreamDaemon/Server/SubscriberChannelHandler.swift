import AudioStreamProtocol
import Glibc
import NIOCore

/// What every subscriber's connection shares, whatever its protocol: a deadline for its request, then membership
/// of its stream's hub on its own event loop, writes straight to the socket, and leaving the hub when the
/// connection closes.
///
/// The hub's joined writes (`writeAndFlush(joined:)`) go to the socket's descriptor with one `send` while NIO
/// holds nothing of ours for it, as NIO's per-channel write path costs more than the system call: with thousands
/// of subscribers, it was most of the fan-out's cost. What the socket does not take at once, and every other
/// write, goes through NIO, in order, and NIO's writability still tells the hub when a subscriber is behind.
///
/// Subclasses read the request (`channelRead`) and call `requestArrived()` then `join`. Confined to the
/// channel's event loop.
class SubscriberChannelHandler: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What the log calls it: `subscriber`, `HTTP listener`.
    private let role: String
    private(set) var context: ChannelHandlerContext?
    /// The peer's time to send its request.
    private var requestDeadline: RequestDeadline
    private(set) var subscription: (stream: StreamService, hub: Hub, subscriber: Subscriber)?
    /// The connection's socket, when the daemon accepted it itself (`SubscriberListener`).
    private let descriptor: CInt?
    /// Writes handed to NIO that it has not completed: while there are any, a direct `send` would overtake them.
    private var writesInNIO = 0

    init(requestTimeout: TimeAmount, role: String, descriptor: CInt?) {
        requestDeadline = RequestDeadline(timeout: requestTimeout)
        self.role = role
        self.descriptor = descriptor
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        requestDeadline.start(for: context.channel)
        context.fireChannelActive()
    }

    /// Reads the request; subclasses override it.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// The request is complete: the connection may stay.
    func requestArrived() {
        requestDeadline.met()
    }

    /// Joins the hub of this loop. The first messages are written at once, and a peer already gone closes the
    /// channel during those writes: such a subscriber is taken out again at once.
    func join(_ stream: StreamService, hello: Hello, welcome: ByteBuffer?, transport: Subscriber.Transport,
              context: ChannelHandlerContext) {
        let hub = stream.hubs.hub(on: context.eventLoop)
        let subscriber = hub.add(self, hello: hello, welcome: welcome, transport: transport)
        guard context.channel.isActive else {
            hub.remove(subscriber)
            return
        }
        subscription = (stream, hub, subscriber)
        stream.logger.debug("\(role) \(subscriber.id) joined", metadata: ["kinds": "\(hello.kinds)"])
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable { subscription?.subscriber.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline.met()
        isWritable = false
        if let (stream, hub, subscriber) = subscription {
            hub.remove(subscriber)
            stream.logger.debug("\(role) \(subscriber.id) left")
        }
        subscription = nil
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Writes a whole answer, then closes.
    func finish(with answer: ByteBuffer, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: - SubscriberSink

    /// Kept from `channelWritabilityChanged`, as the hub asks it for every message of every subscriber.
    private(set) var isWritable = true

    /// Hands the message to NIO, to go out at the next flush.
    func write(_ message: ByteBuffer) {
        guard let context else { return }
        writesInNIO += 1
        let promise = context.eventLoop.makePromise(of: Void.self)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { _ in handler.value.writesInNIO -= 1 }
        context.write(wrapOutboundOut(message), promise: promise)
    }

    /// The message's wire encoding; an HTTP listener overrides it.
    func write(_ message: QueuedMessage) -> Int {
        write(message.buffer)
        return message.buffer.readableBytes
    }

    /// As they are: an HTTP listener overrides it.
    func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        writeNow(bytes)
        return bytes.readableBytes
    }

    /// Writes and flushes `bytes`: with one `send` to the socket unless NIO still holds earlier writes, and
    /// whatever the socket does not take through NIO, which waits until it can. A connection NIO has closed has
    /// no context: its descriptor, which NIO closed before any callout, is never touched.
    func writeNow(_ bytes: ByteBuffer) {
        guard let context else { return }
        var rest = bytes
        if let descriptor, writesInNIO == 0 {
            let sent = bytes.withUnsafeReadableBytes {
                send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            guard sent < bytes.readableBytes else { return }
            // A failed send leaves it all to NIO, which meets the error itself and closes the channel.
            rest.moveReaderIndex(forwardBy: max(sent, 0))
        }
        write(rest)
        context.flush()
    }

    func flush() {
        context?.flush()
    }

    func close(afterPendingWrites: Bool) {
        guard let context else { return }
        guard afterPendingWrites else {
            context.close(promise: nil)
            return
        }
        // Writes complete in order, so an empty one completes after everything written before it.
        finish(with: context.channel.allocator.buffer(capacity: 0), context: context)
    }
}
