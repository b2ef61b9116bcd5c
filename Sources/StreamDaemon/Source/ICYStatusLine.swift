import NIOCore

/// Lets the HTTP decoder read SHOUTcast's `ICY 200 OK` status line as `HTTP/1.0 200 OK`, which it is in all but
/// name: headers follow, and the body runs until the server closes.
final class ICYStatusLine: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var start = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        start.writeBuffer(&bytes)
        // "ICY " and "HTTP" differ within four bytes.
        guard start.readableBytes >= 4 else { return }
        if start.readableBytesView.starts(with: "ICY ".utf8) {
            start.moveReaderIndex(forwardBy: 3)
            var rewritten = ByteBuffer(string: "HTTP/1.0")
            rewritten.writeBuffer(&start)
            start = rewritten
        }
        context.fireChannelRead(wrapInboundOut(start))
        start = ByteBuffer()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if start.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(start)) }
        context.fireChannelInactive()
    }
}
