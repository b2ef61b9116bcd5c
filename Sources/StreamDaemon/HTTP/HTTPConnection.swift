import AudioStreamProtocol
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// One HTTP client: NIOHTTP1 reads its request head, which is answered by its `HTTPRoute`. A listener of a mount
/// then leaves NIO's HTTP handlers for its `SubscriberSocket`, which joins the stream's hub on this loop and writes
/// the stream's packets (with ICY metadata blocks if asked) until either side closes.
///
/// Answers are written as bytes (`HTTPResponse`), with no HTTP encoder in the pipeline: a listener's audio goes
/// straight to its socket after the head. Confined to its event loop.
final class HTTPConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    let server: HTTPServer
    /// The server's log: refusals and failed authentications.
    let logger: Logger
    private let socket: SubscriberSocket
    /// The handler that reads requests, which leaves with this one once a listener or a source is served.
    let decoder: ByteToMessageHandler<HTTPRequestDecoder>
    /// Cuts what the client sends at the end of its request head, for a source client's body.
    let gate: RequestHeadGate
    /// The client's time to send its request head.
    private let requestDeadline: RequestDeadline
    /// Set once the request head is read, or refused: anything the client sends later is ignored, but for the
    /// next request of a connection kept alive (`answerKeepingAlive`).
    private var answered = false
    /// A request head that came before the answer to the last one (pipelining): taken once that is answered, if
    /// the connection is kept alive.
    private var nextHead: HTTPRequestHead?
    /// Whether the connection was kept alive after an answer: a source client's body must not follow another
    /// request's, as the gate no longer cuts it from the head.
    private var isReused = false
    /// While waiting for the stream's format (`HTTPServer.formatWait`, so that a player tuning in as a station
    /// starts gets the audio, not an error): the hub's id of the wait, and its deadline.
    private var mountWait: (hub: Hub, id: Int, deadline: Scheduled<Void>)?
    /// The request being answered, and when it came, for the access log.
    private var current: (head: HTTPRequestHead, since: Date)?

    /// Adds what reads and answers a request to a new connection's pipeline, behind its `socket`: a gate at the end
    /// of the head, NIOHTTP1's decoder, its head bounded by `HTTPRequest.maximumHeadSize`, then a connection.
    static func configure(_ pipeline: ChannelPipeline.SynchronousOperations, server: HTTPServer,
                          socket: SubscriberSocket, logger: Logger) throws {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = HTTPRequest.maximumHeadSize
        limits.maxHeaderListSize = HTTPRequest.maximumHeadSize
        server.count(\.connections)
        let decoder = ByteToMessageHandler(HTTPRequestDecoder(limitConfiguration: limits))
        let gate = RequestHeadGate()
        try pipeline.addHandlers(gate, decoder)
        try pipeline.addHandler(HTTPConnection(server: server, logger: logger, socket: socket, decoder: decoder,
                                               gate: gate))
    }

    private init(server: HTTPServer, logger: Logger, socket: SubscriberSocket,
                 decoder: ByteToMessageHandler<HTTPRequestDecoder>, gate: RequestHeadGate) {
        self.server = server
        self.logger = logger
        self.socket = socket
        self.decoder = decoder
        self.gate = gate
        requestDeadline = RequestDeadline(timeout: server.headerTimeout)
    }

    func channelActive(context: ChannelHandlerContext) {
        requestDeadline.start(for: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        guard !answered else { return nextHead = head }
        take(head, context: context)
    }

    private func take(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        answered = true
        current = (head, Date())
        requestDeadline.met()
        do throws(HTTPRefusal) {
            let request = try HTTPRequest(head)
            if isReused, head.method == .PUT || head.method == .SOURCE {
                throw HTTPRefusal(.badRequest, "a source client opens a connection of its own", http11: request.isHTTP11)
            }
            answerAfterBackoff(request, try HTTPRoute(request, mounts: server.mounts), context: context)
        } catch {
            if head.method == .PUT || head.method == .SOURCE { logRefusedSource(error, path: head.uri, context: context) }
            finish(with: error.answer, context: context)
        }
    }

    /// A request NIOHTTP1 could not read: a malformed head, or one over the size limit.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !answered else { return }
        answered = true
        requestDeadline.met()
        let reason = error as? HTTPParserError == .headerOverflow ? "request head too large" : "malformed request"
        logger.notice("refused a request from \(clientAddress(context)): \(reason) (\(error))")
        finish(with: HTTPRefusal(.badRequest, reason).answer, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline.stop()
        stopWaiting()
        context.fireChannelInactive()
    }

    /// Answers `request` as its `route` says, or with the refusal it meets.
    func answer(_ request: HTTPRequest, _ route: HTTPRoute, context: ChannelHandlerContext) {
        do throws(HTTPRefusal) {
            try answerOrRefuse(request, route, context: context)
        } catch {
            finish(with: error.answer, context: context)
        }
    }

    private func answerOrRefuse(_ request: HTTPRequest, _ route: HTTPRoute,
                                context: ChannelHandlerContext) throws(HTTPRefusal) {
        switch route {
        case .status:
            answerStatus(request, context: context)
        case .streamList:
            let credentials = request.credentials
            let accepted = server.acceptsRelay(credentials)
            noteAuthentication(accepted, credentials, for: request.path, as: "relay", context: context)
            guard accepted else {
                throw .unauthorized("relay password needed", http11: request.isHTTP11)
            }
            let list = server.mounts.paths.map { $0 + "\n" }.joined()
            finish(with: complete(request, contentType: "text/plain; charset=utf-8", body: list), context: context)
        case .mount(let stream):
            listen(to: stream, request, context: context)
        case .statusPage:
            answerStatusPage(request, context: context)
        case .icecastStatus:
            answerIcecastStatus(request, context: context)
        case .adminMetadata:
            try setTitle(request, context: context)
        case .admin(let command):
            try answerAdmin(command, request, context: context)
        case .playlist(let stream, let mount, let kind):
            answerPlaylist(kind, of: stream, at: mount, request, context: context)
        case .source(let stream):
            takeSource(for: stream, request, context: context)
        case .hls(let desks, let hlsRequest, let session):
            answer(hlsRequest, of: desks, session: session, request, context: context)
        case .hlsGroup(let streams):
            answerGroup(of: streams, request, context: context)
        }
    }

    /// Answers once the stream can be served, or with a 503 when it is off the air, or ends first, or is not
    /// servable after the server's `formatWait`.
    private func listen(to stream: StreamService, _ request: HTTPRequest, context: ChannelHandlerContext) {
        guard !stream.deadAir.isOffAir else {
            let reason = "the stream is off the air: its source is lost; try again later"
            let refusal = HTTPRefusal(.serviceUnavailable, reason, http11: request.isHTTP11)
            return finish(with: refusal.answer, context: context)
        }
        let policy = stream.listenerPolicy.over(server.config.listeners)
        guard admits(request, to: stream, policy: policy, context: context) else { return }
        guard let auth = server.auth else { return enter(stream, request, policy: policy, .open, context: context) }
        authenticate(request, with: auth, context: context) { [self] admission, listener in
            if let listener { postRemoval(of: listener, to: auth, context: context) }
            enter(stream, request, policy: policy, admission, context: context)
        }
    }

    /// Serves an admitted listener once the stream can be served, or refuses it as `listen(to:_:context:)` says.
    private func enter(_ stream: StreamService, _ request: HTTPRequest, policy: ListenerPolicy, _ admission: Admission,
                       context: ChannelHandlerContext) {
        let hub = stream.hubs.hub(on: context.eventLoop)
        guard hub.mountInfo == nil else { return serve(stream, request, policy: policy, admission, context: context) }
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
                serve(stream, request, policy: policy, admission, context: context)
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

    private func refuseUnservable(_ request: HTTPRequest, ended: Bool, context: ChannelHandlerContext) {
        let reason = ended ? "the stream ended without audio that can be served over HTTP"
            : "the stream has no audio yet, or its format cannot be served over HTTP"
        finish(with: HTTPRefusal(.serviceUnavailable, reason, http11: request.isHTTP11).answer, context: context)
    }

    /// The listener's response head, then the stream from its socket: the hub's burst from a packet boundary and
    /// the live packets. The request is read, so its handlers leave the pipeline.
    private func serve(_ stream: StreamService, _ request: HTTPRequest, policy: ListenerPolicy, _ admission: Admission,
                       context: ChannelHandlerContext) {
        guard let info = stream.hubs.hub(on: context.eventLoop).mountInfo else { return }
        let metaint = request.wantsICYMetadata && info.carriesICYMetadata ? server.metaint : nil
        let head = HTTPResponse.audioHead(info, http11: request.isHTTP11, metaint: metaint)
        guard !request.isHead else { return finish(with: head, context: context) }
        // Through the socket, which counts it until NIO has sent it, so no audio overtakes it.
        context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        context.pipeline.syncOperations.removeHandler(decoder, promise: nil)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        server.count(\.listenerConnections)
        logListener(request.head, user: admission.user, on: socket, context: context)
        let limits = [policy.maxListenerDuration, admission.timeLimit].compactMap { $0 }
        limitStay(to: limits.min(), context: context)
        socket.join(stream, hello: Hello(kinds: [.packets], burstSeconds: server.burstSeconds), welcome: nil,
                    transport: .http, client: ClientIdentity(context.channel, request),
                    sink: HTTPListenerSink(socket: socket, metaint: metaint))
    }

    private func answerStatus(_ request: HTTPRequest, context: ChannelHandlerContext) {
        finish(request, after: server.status().map { $0.text }, contentType: "application/json", context: context)
    }

    /// A complete answer to `request`: a HEAD gets the head alone.
    func complete(_ request: HTTPRequest, contentType: String, body: String) -> ByteBuffer {
        HTTPResponse.complete(.ok, http11: request.isHTTP11, contentType: contentType, body: body,
                              headOnly: request.isHead)
    }

    /// Writes a whole answer that says `Connection: keep-alive`, then reads the client's next request: HLS players
    /// ask every part or segment, and a connection each would cost them a handshake and us a descriptor's churn.
    func answerKeepingAlive(_ answer: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(answer), promise: nil)
        answered = false
        if !isReused { gate.leave() }
        isReused = true
        requestDeadline.start(for: context.channel)
        guard let head = nextHead else { return }
        nextHead = nil
        take(head, context: context)
    }

    /// Writes a whole answer, then closes.
    func finish(with answer: ByteBuffer, context: ChannelHandlerContext) {
        if let current { logAccess(of: answer, to: current.head, since: current.since, context: context) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
