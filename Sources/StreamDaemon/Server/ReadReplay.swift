import NIOCore

/// Bytes read from a connection before NIO served it, passed to the handlers behind as NIO's first read, once they
/// have heard the channel is active, and before NIO reads the socket itself.
final class ReadReplay: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let bytes: ByteBuffer

    init(_ bytes: ByteBuffer) {
        self.bytes = bytes
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.fireChannelRead(wrapInboundOut(bytes))
        context.fireChannelReadComplete()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
