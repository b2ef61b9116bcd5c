import NIOCore

/// The answers to HTTP Live Streaming clients: a stream's playlist and files, and a group's multivariant playlist.
extension HTTPConnection {
    /// Answers `hlsRequest` of the player that says `session` (or none) once the stream has what it asks for, or
    /// with its refusal: from the stream's desk on this connection's loop.
    func answer(_ hlsRequest: HLSRequest, of desks: HLSDesks, session: String?, _ request: HTTPRequest,
                context: ChannelHandlerContext) {
        let key = HLSSessions.key(session: session, client: ClientIdentity(context.channel, request))
        guard let auth = server.auth, let door = server.hlsDoor else {
            return answerAdmitted(hlsRequest, of: desks, session: key, request, context: context)
        }
        // One door per server, each stream's sessions apart.
        let doorKey = "\(ObjectIdentifier(desks).hashValue) \(key)"
        guard !door.passes(doorKey) else {
            return answerAdmitted(hlsRequest, of: desks, session: key, request, context: context)
        }
        let folder = String(request.path[..<(request.path.lastIndex(of: "/") ?? request.path.endIndex)])
        authenticate(request, mount: folder, with: auth, context: context) { [self] _, listener in
            // A session's request may be held: it counts as asking until the hold's end. One let in while the
            // backend could not answer passes too, so that its next requests do not wait for the backend again.
            door.admit(doorKey, listener, lifetime: desks.board.sessionLifetime + desks.holdLimit)
            answerAdmitted(hlsRequest, of: desks, session: key, request, context: context)
        }
    }

    /// Answers the request of an admitted session.
    private func answerAdmitted(_ hlsRequest: HLSRequest, of desks: HLSDesks, session key: String,
                                _ request: HTTPRequest, context: ChannelHandlerContext) {
        let form = HLSReplyForm(request)
        desks.desk(on: context.eventLoop).answer(hlsRequest, session: key) { result in
            let (bytes, keepAlive) = result.reply(as: form)
            if keepAlive {
                self.answerKeepingAlive(bytes, context: context)
            } else {
                self.finish(with: bytes, context: context)
            }
        }
    }

    /// `/hls/GROUP/master.m3u8`: the streams of the group as variants.
    func answerGroup(of streams: [StreamService], _ request: HTTPRequest, context: ChannelHandlerContext) {
        let variants = streams.map { $0.hlsVariant() }
        finish(request, after: EventLoopFuture.whenAllSucceed(variants, on: context.eventLoop).map {
            HLSGroupPlaylist.text(variants: $0.compactMap { $0 })
        }, contentType: HLSAnswer.contentType(of: HTTPRoute.hlsGroupPlaylist), context: context)
    }
}

/// What of a request shapes its HLS answer: its version, whether it is a HEAD, whether the client keeps the
/// connection open; read once, when the request comes, and kept while it is held.
struct HLSReplyForm {
    let http11: Bool
    let headOnly: Bool
    let keepAlive: Bool

    init(_ request: HTTPRequest) {
        http11 = request.isHTTP11
        headOnly = request.isHead
        keepAlive = request.head.isKeepAlive
    }
}

extension Result<HLSAnswer, HLSRefusal> {
    /// The bytes that answer a request of `form`, and whether the connection stays open after them: as the client
    /// asks for a file or playlist, closed after a refusal.
    func reply(as form: HLSReplyForm) -> (bytes: ByteBuffer, keepAlive: Bool) {
        switch self {
        case .success(let answer):
            (answer.response(http11: form.http11, headOnly: form.headOnly, keepAlive: form.keepAlive), form.keepAlive)
        case .failure(let refusal):
            (refusal.refusal(http11: form.http11).answer, false)
        }
    }
}
