import Logging
import NIOCore

/// One subscriber's socket: waits for its hello, then joins the stream's hub and writes what the hub queues.
///
/// Lives on its stream's event loop, like the hub.
final class SubscriberConnection: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = WireFrame
    typealias OutboundOut = ByteBuffer

    /// How long a connection may stay silent before its hello.
    static let helloTimeout = TimeAmount.seconds(10)

    private let stream: StreamService
    private var context: ChannelHandlerContext?
    private var subscriber: Subscriber?
    private var helloDeadline: Scheduled<Void>?

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
        let frame = unwrapInboundIn(data)
        guard subscriber == nil, frame.type == WireMessageType.hello.rawValue else {
            refuse(WireError.unexpectedMessage(frame.type), context: context)
            return
        }
        helloDeadline?.cancel()
        do {
            let hello = try Hello(json: Array(frame.payload.readableBytesView))
            subscriber = stream.subscribe(self, hello: hello)
        } catch {
            refuse(error, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { subscriber?.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        helloDeadline?.cancel()
        if let subscriber { stream.unsubscribe(subscriber) }
        subscriber = nil
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is WireError {
            refuse(error, context: context)
        } else {
            context.close(promise: nil)
        }
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

    var isWritable: Bool { context?.channel.isWritable ?? false }

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
