import Logging
import NIOCore

/// One subscriber's socket: waits for its hello, then joins the stream's hub on its event loop and writes what
/// the hub queues.
///
/// It reads the hello itself rather than behind a decoder handler: as the only handler of the channel, every
/// write goes straight to the socket, which matters with thousands of subscribers per packet.
final class SubscriberConnection: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a connection may stay silent before its hello.
    static let helloTimeout = TimeAmount.seconds(10)

    private let stream: StreamService
    private var context: ChannelHandlerContext?
    private var subscription: (hub: Hub, subscriber: Subscriber)?
    private var helloDeadline: Scheduled<Void>?
    /// Bytes of the hello received so far.
    private var received: ByteBuffer?

    init(stream: StreamService) {
        self.stream = stream
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        let channel = context.channel
        helloDeadline = context.eventLoop.scheduleTask(in: Self.helloTimeout) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        // After the hello a subscriber only reads: anything it sends is refused, never buffered.
        guard subscription == nil else {
            refuse(WireError.unexpectedMessage(bytes.readableBytesView.first ?? 0), context: context)
            return
        }
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
        do {
            let maximumSize = WireFrameDecoder.maximumRequestSize
            guard let frame = try WireFrameDecoder.nextFrame(from: &received!, maximumSize: maximumSize) else { return }
            guard frame.type == WireMessageType.hello.rawValue, received!.readableBytes == 0 else {
                throw WireError.unexpectedMessage(frame.type)
            }
            received = nil
            helloDeadline?.cancel()
            join(try Hello(json: Array(frame.payload.readableBytesView)), context: context)
        } catch {
            refuse(error, context: context)
        }
    }

    /// Adds the subscriber to the hub of this loop. The welcome is written at once, and a peer already gone
    /// closes the channel during that write: such a subscriber is taken out again at once.
    private func join(_ hello: Hello, context: ChannelHandlerContext) {
        let hub = stream.hubs.hub(on: context.eventLoop)
        let subscriber = hub.add(self, hello: hello, welcome: stream.welcome(allocator: context.channel.allocator))
        guard context.channel.isActive else {
            hub.remove(subscriber)
            return
        }
        subscription = (hub, subscriber)
        stream.logger.debug("subscriber \(subscriber.id) joined", metadata: ["kinds": "\(hello.kinds)"])
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable { subscription?.subscriber.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        helloDeadline?.cancel()
        isWritable = false
        if let (hub, subscriber) = subscription {
            hub.remove(subscriber)
            stream.logger.debug("subscriber \(subscriber.id) left")
        }
        subscription = nil
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Says what was wrong, then closes.
    private func refuse(_ error: Error, context: ChannelHandlerContext) {
        stream.logger.info("refused a subscriber: \(error)")
        let message = WireEncoding.message(
            .error, json: .object([("error", .string("\(error)"))]), allocator: context.channel.allocator)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(message)).whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: - SubscriberSink

    /// Kept from `channelWritabilityChanged`, as the hub asks it for every message of every subscriber.
    private(set) var isWritable = true

    func write(_ message: ByteBuffer) {
        context?.write(wrapOutboundOut(message), promise: nil)
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
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
