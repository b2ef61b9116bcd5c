import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP client: reads its request head, then answers it, or joins the stream's hub on its event loop as a
/// listener and writes the stream's packets (with ICY metadata blocks if asked) until either side closes.
///
/// As the only handler of its channel, it writes audio straight to the socket. Confined to its event loop.
final class HTTPListenerConnection: ChannelInboundHandler, SubscriberSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: HTTPServer
    private var context: ChannelHandlerContext?
    /// The request head received so far, until it is complete.
    private var received: ByteBuffer?
    private var headDeadline: Scheduled<Void>?
    /// Set once the request is read: anything the client sends later is dropped.
    private var answered = false
    private var listening: (stream: StreamService, hub: Hub, subscriber: Subscriber)?
    /// Metadata blocks for a listener that asked for them.
    private var interleaver: ICYInterleaver?

    init(server: HTTPServer) {
        self.server = server
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        let channel = context.channel
        headDeadline = context.eventLoop.scheduleTask(in: server.headerTimeout) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var bytes = unwrapInboundIn(data)
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
        switch HTTPListenerRequest.parse(received!.readableBytesView) {
        case .incomplete:
            return
        case .refused(let status, let reason):
            let allow = status == .methodNotAllowed ? [("Allow", "GET, HEAD")] : []
            finish(with: HTTPResponse.refusal(status, http11: false, reason: reason, fields: allow), context: context)
        case .request(let request):
            answer(request, context: context)
        }
        received = nil
        answered = true
        headDeadline?.cancel()
    }

    private func answer(_ request: HTTPListenerRequest, context: ChannelHandlerContext) {
        let http11 = request.isHTTP11
        if request.path == "/status.json" {
            answerStatus(request, context: context)
        } else if request.path == "/admin/streamlist.txt" {
            guard server.acceptsRelay(authorization: request.header("authorization")) else {
                let challenge = [("WWW-Authenticate", "Basic realm=\"audiostreamd\"")]
                return finish(with: HTTPResponse.refusal(.unauthorized, http11: http11, reason: "relay password needed",
                                                         fields: challenge), context: context)
            }
            let list = server.mounts.paths.map { $0 + "\n" }.joined()
            finish(with: complete(request, contentType: "text/plain; charset=utf-8", body: list), context: context)
        } else if let stream = server.mounts.stream(at: request.path) {
            listen(to: stream, request, context: context)
        } else {
            finish(with: HTTPResponse.refusal(.notFound, http11: http11, reason: "no stream at \(request.path)"),
                   context: context)
        }
    }

    /// The listener's response head, then the stream: the hub's burst from a packet boundary and the live packets.
    private func listen(to stream: StreamService, _ request: HTTPListenerRequest, context: ChannelHandlerContext) {
        let hub = stream.hubs.hub(on: context.eventLoop)
        guard let info = hub.mountInfo else {
            let reason = "the stream has no audio yet, or its format cannot be served over HTTP"
            return finish(with: HTTPResponse.refusal(.serviceUnavailable, http11: request.isHTTP11, reason: reason),
                          context: context)
        }
        let metaint = request.wantsICYMetadata ? server.metaint : nil
        let head = HTTPResponse.audioHead(info, http11: request.isHTTP11, metaint: metaint)
        guard request.method == .get else { return finish(with: head, context: context) }
        context.write(wrapOutboundOut(head), promise: nil)
        interleaver = metaint.map(ICYInterleaver.init)
        let hello = Hello(kinds: [.packets], burstSeconds: server.burstSeconds)
        let subscriber = hub.add(self, hello: hello, welcome: nil, transport: .http)
        // A peer already gone closed the channel during the first writes: take it out again at once.
        guard context.channel.isActive else {
            hub.remove(subscriber)
            return
        }
        listening = (stream, hub, subscriber)
        stream.logger.debug("HTTP listener \(subscriber.id) joined", metadata: ["mount": "\(request.path)"])
    }

    private func answerStatus(_ request: HTTPListenerRequest, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        server.status().hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            switch result {
            case .success(let json):
                handler.finish(with: handler.complete(request, contentType: "application/json", body: json.text),
                               context: context)
            case .failure(let error):
                handler.finish(with: HTTPResponse.refusal(.internalServerError, http11: request.isHTTP11,
                                                          reason: "\(error)"), context: context)
            }
        }
    }

    /// A complete answer to `request`: a HEAD gets the head alone.
    private func complete(_ request: HTTPListenerRequest, contentType: String, body: String) -> ByteBuffer {
        HTTPResponse.complete(.ok, http11: request.isHTTP11, contentType: contentType, body: body,
                              headOnly: request.method == .head)
    }

    /// Writes a whole answer, then closes.
    private func finish(with answer: ByteBuffer, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable { listening?.subscriber.drain() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        headDeadline?.cancel()
        isWritable = false
        if let (stream, hub, subscriber) = listening {
            hub.remove(subscriber)
            stream.logger.debug("HTTP listener \(subscriber.id) left")
        }
        listening = nil
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    // MARK: - SubscriberSink

    /// Kept from `channelWritabilityChanged`, as the hub asks it for every message of every listener.
    private(set) var isWritable = true

    func write(_ message: ByteBuffer) {
        context?.write(wrapOutboundOut(message), promise: nil)
    }

    /// Packets go out as their bytes, with ICY blocks between them when asked; titles wait for the next block;
    /// events are the wire protocol's and mean nothing to an HTTP listener.
    func write(_ message: QueuedMessage) -> Int {
        if message.isICYMetadata {
            interleaver?.announce(message.buffer)
            return 0
        }
        guard let audio = message.audio, let bytes = message.buffer.packetPayload(bytes: audio.bytes) else { return 0 }
        guard interleaver != nil else {
            write(bytes)
            return bytes.readableBytes
        }
        var written = 0
        interleaver!.interleave(bytes) { piece in
            written += piece.readableBytes
            write(piece)
        }
        return written
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
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
