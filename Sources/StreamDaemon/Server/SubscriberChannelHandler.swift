import NIOCore

/// What every subscriber's connection shares, whatever its protocol: a deadline for its request, then membership
/// of its stream's hub on its own event loop, writes straight to the socket as the channel's only handler, and
/// leaving the hub when the connection closes.
///
/// Subclasses read the request (`channelRead`) and call `requestArrived()` then `join`. Confined to the
/// channel's event loop.
class SubscriberChannelHandler: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long the peer may take to send its request.
    private let requestTimeout: TimeAmount
    /// What the log calls it: `subscriber`, `HTTP listener`.
    private let role: String
    private(set) var context: ChannelHandlerContext?
    private var requestDeadline: Scheduled<Void>?
    private(set) var subscription: (stream: StreamService, hub: Hub, subscriber: Subscriber)?

    init(requestTimeout: TimeAmount, role: String) {
        self.requestTimeout = requestTimeout
        self.role = role
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        let channel = context.channel
        requestDeadline = context.eventLoop.scheduleTask(in: requestTimeout) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    /// Reads the request; subclasses override it.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// The request is complete: the connection may stay.
    func requestArrived() {
        requestDeadline?.cancel()
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
        requestDeadline?.cancel()
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

    func write(_ message: ByteBuffer) {
        context?.write(wrapOutboundOut(message), promise: nil)
    }

    /// The message's wire encoding; an HTTP listener overrides it.
    func write(_ message: QueuedMessage) -> Int {
        write(message.buffer)
        return message.buffer.readableBytes
    }

    /// As they are: an HTTP listener overrides it.
    func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        context?.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        return bytes.readableBytes
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
