import AudioStreamProtocol
import Logging
import NIOCore

/// One subscriber on a stream's socket: reads its hello with the `WireFrameDecoder`, then joins the stream's hub
/// through its `SubscriberSocket`. After the hello a subscriber only reads: anything it sends is refused, never
/// buffered. Confined to its event loop.
final class SubscriberConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a connection may stay silent before its hello.
    static let helloTimeout = TimeAmount.seconds(10)

    private let stream: StreamService
    private let socket: SubscriberSocket
    private let requestDeadline = RequestDeadline(timeout: helloTimeout)
    /// Cuts the hello out of the bytes as they come; nil once it is read.
    private var helloReader: NIOSingleStepByteToMessageProcessor<WireFrameDecoder>? = .init(WireFrameDecoder())

    init(stream: StreamService, socket: SubscriberSocket) {
        self.stream = stream
        self.socket = socket
    }

    func channelActive(context: ChannelHandlerContext) {
        requestDeadline.start(for: context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline.stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard let helloReader else {
            return refuse(WireError.unexpectedMessage(bytes.readableBytesView.first ?? 0), context: context)
        }
        do {
            var frames: [WireFrame] = []
            try helloReader.process(buffer: bytes) { frames.append($0) }
            guard let frame = frames.first else { return }
            guard frame.type != WireMessageType.request.rawValue else { throw WireError.requestOnStreamSocket }
            guard frame.type == WireMessageType.hello.rawValue, frames.count == 1, helloReader.unprocessedBytes == 0
            else { throw WireError.unexpectedMessage(frame.type) }
            self.helloReader = nil
            // A subscriber sends nothing after its hello.
            requestDeadline.stop()
            let hello = try Hello(json: Array(frame.payload.readableBytesView))
            socket.join(stream, hello: hello, welcome: stream.welcome(allocator: context.channel.allocator),
                        transport: .socket)
        } catch {
            refuse(error, context: context)
        }
    }

    /// Says what was wrong, then closes.
    private func refuse(_ error: Error, context: ChannelHandlerContext) {
        stream.logger.info("refused a subscriber: \(error)")
        let message = WireEncoding.message(
            .error, json: WireProtocol.error("\(error)"), allocator: context.channel.allocator)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(message)).whenComplete { _ in channel.close(promise: nil) }
    }
}
