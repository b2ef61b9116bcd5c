import NIOCore

/// A source client's connection once its request is taken: its bytes, the raw stream until it closes, go to the
/// stream's loop through its `PushSession`. The channel reads only once the stream has taken what came before
/// (`autoRead` is off), so a client that sends faster than the stream parses waits in TCP, not in memory. An
/// `IdleStateHandler` before it says when the client stalls.
///
/// Confined to the connection's loop.
final class PushSourceHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let session: PushSession
    /// Bytes read and not yet handed on: at most what one read gives while a delivery is under way.
    private var pending: ByteBuffer?
    /// Whether bytes are on their way to the stream.
    private var delivering = false
    /// How the connection ends, unless it fails or the client closes it.
    private var outcome = PushSource.Outcome.closed
    /// Whether the connection is closed: nothing more will be read.
    private var inactive = false

    init(session: PushSession) {
        self.session = session
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A client gone while the stream was taking it is told of here, as no `channelInactive` will come.
        guard context.channel.isActive else { return session.end(outcome) }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        pending.setOrWriteBuffer(&bytes)
        deliver(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case IdleStateHandler.IdleStateEvent.read = event else {
            return context.fireUserInboundEventTriggered(event)
        }
        outcome = .stalled
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        outcome = .failed(NetworkErrorText.describe(error))
        context.close(promise: nil)
    }

    /// The stream hears of the end once it has every byte read before it: a client's last bytes and its close
    /// often come in one read.
    func channelInactive(context: ChannelHandlerContext) {
        inactive = true
        deliver(context: context)
        context.fireChannelInactive()
    }

    /// Hands what is pending to the stream, then reads on once it is taken, or tells the stream that the
    /// connection is over; a client the stream no longer takes is closed.
    private func deliver(context: ChannelHandlerContext) {
        guard !delivering else { return }
        guard let bytes = pending else { return inactive ? session.end(outcome) : context.read() }
        pending = nil
        delivering = true
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        session.deliver(bytes).hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            handler.delivering = false
            guard case .success(true) = result else {
                handler.pending = nil
                return context.close(promise: nil)
            }
            handler.deliver(context: context)
        }
    }
}
