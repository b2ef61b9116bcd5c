import AudioStreamProtocol
import Logging
import NIOCore

/// One subscriber's socket: waits for its hello, then joins the stream's hub on its event loop and writes what
/// the hub queues.
///
/// It reads the hello itself rather than behind a decoder handler, as the channel's only handler.
final class SubscriberConnection: SubscriberChannelHandler {
    /// How long a connection may stay silent before its hello.
    static let helloTimeout = TimeAmount.seconds(10)

    private let stream: StreamService
    /// Bytes of the hello received so far.
    private var received: ByteBuffer?

    /// A handler for the connection on `descriptor`, when the daemon accepted it itself.
    init(stream: StreamService, descriptor: CInt?) {
        self.stream = stream
        super.init(requestTimeout: Self.helloTimeout, role: "subscriber", descriptor: descriptor)
    }

    override func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
            guard frame.type != WireMessageType.request.rawValue else { throw WireError.requestOnStreamSocket }
            guard frame.type == WireMessageType.hello.rawValue, received!.readableBytes == 0 else {
                throw WireError.unexpectedMessage(frame.type)
            }
            received = nil
            requestArrived()
            let hello = try Hello(json: Array(frame.payload.readableBytesView))
            join(stream, hello: hello, welcome: stream.welcome(allocator: context.channel.allocator), transport: .socket,
                 context: context)
        } catch {
            refuse(error, context: context)
        }
    }

    /// Says what was wrong, then closes.
    private func refuse(_ error: Error, context: ChannelHandlerContext) {
        stream.logger.info("refused a subscriber: \(error)")
        let message = WireEncoding.message(
            .error, json: WireProtocol.error("\(error)"), allocator: context.channel.allocator)
        finish(with: message, context: context)
    }
}
