import AudioStreamProtocol
import NIOCore
import NIOHTTP1

/// One HTTP client: reads its request head, then answers it, or joins the stream's hub on its event loop as a
/// listener and writes the stream's packets (with ICY metadata blocks if asked) until either side closes.
///
/// As the only handler of its channel, it writes audio straight to the socket (`writeNow`). Confined to its event
/// loop.
final class HTTPListenerConnection: SubscriberChannelHandler {
    private let server: HTTPServer
    /// The request head received so far, until it is complete.
    private var received: ByteBuffer?
    /// Bytes of `received` already searched for the head's end.
    private var searched = 0
    /// Set once the request is read: anything the client sends later is dropped.
    private var answered = false
    /// Metadata blocks for a listener that asked for them.
    private var interleaver: ICYInterleaver?
    /// While waiting for the stream's format (`HTTPServer.formatWait`, so that a player tuning in as a station
    /// starts gets the audio, not an error): the hub's id of the wait, and its deadline.
    private var mountWait: (hub: Hub, id: Int, deadline: Scheduled<Void>)?

    /// A handler for the connection on `descriptor`, when the daemon accepted it itself.
    init(server: HTTPServer, descriptor: CInt?) {
        self.server = server
        super.init(requestTimeout: server.headerTimeout, role: "HTTP listener", descriptor: descriptor)
    }

    override func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var bytes = unwrapInboundIn(data)
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
        switch HTTPListenerRequest.parse(received!.readableBytesView, searched: searched) {
        case .incomplete:
            searched = received!.readableBytes
            return
        case .refused(let status, let reason):
            let allow = status == .methodNotAllowed ? [("Allow", "GET, HEAD")] : []
            finish(with: HTTPResponse.refusal(status, http11: false, reason: reason, fields: allow), context: context)
        case .request(let request):
            answer(request, context: context)
        }
        received = nil
        answered = true
        requestArrived()
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

    /// Answers once the stream can be served, or with a 503 when it ends first or after the server's `formatWait`.
    private func listen(to stream: StreamService, _ request: HTTPListenerRequest, context: ChannelHandlerContext) {
        let hub = stream.hubs.hub(on: context.eventLoop)
        guard hub.mountInfo == nil else { return serve(stream, request, context: context) }
        guard !hub.hasEnded else { return refuseUnservable(request, ended: true, context: context) }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let deadline = context.eventLoop.scheduleTask(in: server.formatWait) {
            let (handler, context) = loopBound.value
            handler.stopWaiting()
            handler.refuseUnservable(request, ended: false, context: context)
        }
        let id = hub.waitForMount { [self] servable in
            stopWaiting()
            if servable {
                serve(stream, request, context: context)
            } else {
                refuseUnservable(request, ended: true, context: context)
            }
        }
        mountWait = (hub, id, deadline)
    }

    private func stopWaiting() {
        guard let wait = mountWait else { return }
        wait.deadline.cancel()
        wait.hub.cancelMountWait(wait.id)
        mountWait = nil
    }

    private func refuseUnservable(_ request: HTTPListenerRequest, ended: Bool, context: ChannelHandlerContext) {
        let reason = ended ? "the stream ended without audio that can be served over HTTP"
            : "the stream has no audio yet, or its format cannot be served over HTTP"
        finish(with: HTTPResponse.refusal(.serviceUnavailable, http11: request.isHTTP11, reason: reason),
               context: context)
    }

    override func channelInactive(context: ChannelHandlerContext) {
        stopWaiting()
        super.channelInactive(context: context)
    }

    /// The listener's response head, then the stream: the hub's burst from a packet boundary and the live packets.
    private func serve(_ stream: StreamService, _ request: HTTPListenerRequest, context: ChannelHandlerContext) {
        guard let info = stream.hubs.hub(on: context.eventLoop).mountInfo else { return }
        let metaint = request.wantsICYMetadata && info.carriesICYMetadata ? server.metaint : nil
        let head = HTTPResponse.audioHead(info, http11: request.isHTTP11, metaint: metaint)
        guard request.method == .get else { return finish(with: head, context: context) }
        // Out at once, and counted as NIO's if it stays there, so no direct write of audio overtakes it.
        writeNow(head)
        interleaver = metaint.map(ICYInterleaver.init)
        join(stream, hello: Hello(kinds: [.packets], burstSeconds: server.burstSeconds), welcome: nil,
             transport: .http, context: context)
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

    // MARK: - SubscriberSink

    /// Headers and packets go out as the mount frames them, with ICY blocks between them when asked; titles wait
    /// for the next block; events are the wire protocol's and mean nothing to an HTTP listener.
    override func write(_ message: QueuedMessage) -> Int {
        if message.role == .icyMetadata {
            interleaver?.announce(message.buffer)
            return 0
        }
        guard let bytes = message.listenerPayload else { return 0 }
        return writeAudio(bytes, with: write)
    }

    /// Listener bytes joined by the hub, with ICY blocks between them when asked.
    override func writeAndFlush(joined bytes: ByteBuffer) -> Int {
        writeAudio(bytes, with: writeNow)
    }

    /// Writes `bytes` with `write`, in pieces between ICY metadata blocks for a listener that asked for them.
    private func writeAudio(_ bytes: ByteBuffer, with write: (ByteBuffer) -> Void) -> Int {
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
}
