import NIOCore

/// Passes a connection's bytes to NIOHTTP1's decoder, cut at the end of the first request head, so that a handler
/// reading that head may `hold()` what follows it: an Icecast source client's body is the raw stream, without a
/// length, which the decoder would read as further requests. `release()` then hands what was held to the handler
/// after it, and the gate leaves the pipeline.
///
/// A head is taken to end at its first empty line (`CRLF CRLF`), as every source client writes it. Confined to
/// its channel's loop.
final class RequestHeadGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        /// Before the end of the head: how many bytes of `CRLF CRLF` the bytes so far end with.
        case head(matched: Int)
        case passing
        /// Everything after the head is kept for `release()`.
        case holding(ByteBuffer?)
    }

    private var state = State.head(matched: 0)
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The context holds the gate: kept past here, the two would keep each other, and every connection's pipeline,
    /// for the daemon's life.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .passing:
            context.fireChannelRead(data)
        case .holding(var held):
            held.setOrWriteBuffer(&bytes)
            state = .holding(held)
        case .head(let matched):
            let (length, nowMatched) = Self.headLength(in: bytes, matched: matched)
            guard let length else {
                state = .head(matched: nowMatched)
                return context.fireChannelRead(data)
            }
            let head = bytes.readSlice(length: length)!
            state = .passing
            // A handler reading the head may hold what follows it now.
            context.fireChannelRead(wrapInboundOut(head))
            if bytes.readableBytes > 0 { channelRead(context: context, data: wrapInboundOut(bytes)) }
        }
    }

    /// Keeps what follows the head (the rest of the read under way, and every later one) until `release()`.
    func hold() {
        if case .holding = state { return }
        state = .holding(nil)
    }

    /// Hands what was held to the next handler, and leaves the pipeline.
    func release() {
        guard case .holding(let held) = state, let context else { return }
        state = .passing
        if let held { context.fireChannelRead(wrapInboundOut(held)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// The bytes of `bytes` up to and with the `CRLF CRLF` that ends the head, when they hold its end (the bytes
    /// before them ended with `matched` bytes of it); else nil, and how many bytes of it they end with.
    private static func headLength(in bytes: ByteBuffer, matched: Int) -> (length: Int?, matched: Int) {
        var matched = matched
        for (offset, byte) in bytes.readableBytesView.enumerated() {
            if byte == (matched % 2 == 0 ? UInt8(ascii: "\r") : UInt8(ascii: "\n")) {
                matched += 1
            } else {
                matched = byte == UInt8(ascii: "\r") ? 1 : 0
            }
            if matched == 4 { return (offset + 1, 4) }
        }
        return (nil, matched)
    }
}
