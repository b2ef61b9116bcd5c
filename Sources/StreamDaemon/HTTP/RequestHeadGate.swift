import NIOCore

/// Passes a connection's bytes to NIOHTTP1's decoder, cut at the end of the first request head, so that a handler
/// reading that head may `hold()` what follows it: an Icecast source client's body is the raw stream, without a
/// length, which the decoder would read as further requests. `release()` then hands what was held to the handler
/// after it, and the gate leaves the pipeline.
///
/// A head ends at its first empty line. Its lines may end with a bare LF rather than CRLF, as DarkIce writes them
/// and Icecast reads them (RFC 9112 §2.2 lets a recipient take a lone LF as a line's end): the decoder, which
/// refuses them, gets each made CRLF; what follows the head goes on untouched. Confined to its channel's loop.
final class RequestHeadGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        /// Before the end of the head: whether the line under way is empty so far, and whether it ends with a CR.
        case head(HeadLine)
        case passing
        /// Everything after the head is kept for `release()`.
        case holding(ByteBuffer?)
    }

    /// Where the bytes so far leave the head's line under way.
    private struct HeadLine {
        var isEmpty = false
        var endsWithCR = false
    }

    private var state = State.head(HeadLine())
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
        case .head(var line):
            let (head, ends) = Self.readHead(&bytes, line: &line)
            guard ends else {
                state = .head(line)
                return context.fireChannelRead(wrapInboundOut(head))
            }
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

    /// Leaves the pipeline once its first head has passed and nothing is held: a connection kept alive after its
    /// first answer takes no source client, and each later read would only pass through. It leaves after the read
    /// under way, which may still have a pipelined request to pass along.
    func leave() {
        guard let context else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let gate = loopBound.value
            guard case .passing = gate.state, let context = gate.context else { return }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Reads the bytes of the head from `bytes`: up to and with the LF that ends its empty line, or all of them,
    /// with `line` as the bytes before them left it. Returns them with each bare LF made CRLF, and whether the
    /// head ended.
    private static func readHead(_ bytes: inout ByteBuffer, line: inout HeadLine) -> (head: ByteBuffer, ends: Bool) {
        let startsAfterCR = line.endsWithCR
        var length = 0
        var bareLineFeeds = 0
        var ends = false
        for byte in bytes.readableBytesView {
            length += 1
            if byte == UInt8(ascii: "\n") {
                if !line.endsWithCR { bareLineFeeds += 1 }
                ends = line.isEmpty
                line.isEmpty = true
            } else if byte != UInt8(ascii: "\r") {
                line.isEmpty = false
            }
            line.endsWithCR = byte == UInt8(ascii: "\r")
            if ends { break }
        }
        let head = bytes.readSlice(length: length)!
        guard bareLineFeeds > 0 else { return (head, ends) }
        var normalized = ByteBuffer()
        normalized.reserveCapacity(length + bareLineFeeds)
        var previous = startsAfterCR ? UInt8(ascii: "\r") : 0
        for byte in head.readableBytesView {
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { normalized.writeInteger(UInt8(ascii: "\r")) }
            normalized.writeInteger(byte)
            previous = byte
        }
        return (normalized, ends)
    }
}
