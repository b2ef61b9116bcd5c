import NIOCore

/// The answers to Icecast's conventions: the status page, `/status-json.xsl`, `/admin/metadata` and a mount's
/// playlists.
extension HTTPConnection {
    /// `/`: the status page.
    func answerStatusPage(_ request: HTTPRequest, context: ChannelHandlerContext) {
        let name = server.config.name
        answer(request, context: context, contentType: "text/html; charset=utf-8") {
            StatusPage.html(name: name, mounts: $0)
        }
    }

    /// `/status-json.xsl`: Icecast's statistics.
    func answerIcecastStatus(_ request: HTTPRequest, context: ChannelHandlerContext) {
        let (serverURL, started) = (request.serverURL(fallback: server.config.address), server.started)
        answer(request, context: context, contentType: "application/json; charset=utf-8") {
            IcecastStatus.json(mounts: $0, serverURL: serverURL, started: started).text
        }
    }

    /// `/MOUNT.m3u`, `/MOUNT.pls`: the mount's playlist.
    func answerPlaylist(_ kind: MountPlaylist.Kind, of stream: StreamService, at mount: String, _ request: HTTPRequest,
                        context: ChannelHandlerContext) {
        let text = MountPlaylist.text(kind, url: request.serverURL(fallback: server.config.address) + mount,
                                 title: stream.name)
        finish(with: complete(request, contentType: kind.contentType, body: text), context: context)
    }

    /// Answers with `body` of every mount's facts, once the streams have told them, or with the refusal it throws.
    func answer(_ request: HTTPRequest, context: ChannelHandlerContext, contentType: String,
                body: @escaping @Sendable ([MountFacts]) throws -> String) {
        let facts = server.mounts.served.map { $0.mountFacts() }
        finish(request, after: EventLoopFuture.whenAllSucceed(facts, on: context.eventLoop).flatMapThrowing(body),
               contentType: contentType, context: context)
    }

    /// Sets a stream's title for Icecast's admin call, with the admin password or, on a push stream's mount, its
    /// source clients' user and password, as Icecast 2.4 takes them from encoders (Liquidsoap, butt, Mixxx).
    func setTitle(_ request: HTTPRequest, context: ChannelHandlerContext) throws(HTTPRefusal) {
        let call = try AdminMetadata(query: request.query, http11: request.isHTTP11)
        let stream = server.mounts.stream(at: call.mount)
        guard server.config.adminPassword != nil || stream?.sourcePassword != nil else {
            throw HTTPRefusal(.forbidden, "no admin password is configured (http.adminPassword)",
                              http11: request.isHTTP11)
        }
        let credentials = request.credentials
        let accepted = server.acceptsTitle(from: credentials, for: stream)
        noteAuthentication(accepted, credentials, for: call.mount, as: "admin call", context: context)
        guard accepted else {
            throw .unauthorized("user admin and the admin password needed, or the mount's source user and password",
                                http11: request.isHTTP11)
        }
        guard let stream else { throw HTTPRefusal(.notFound, "no stream at \(call.mount)", http11: request.isHTTP11) }
        finish(request, after: stream.setTitle(call.song).map { AdminMetadata.success },
               contentType: "text/xml; charset=utf-8", context: context)
    }

    /// Answers with what `body` gives, on any loop; if it fails, with the refusal it gives, or a 500.
    func finish(_ request: HTTPRequest, after body: EventLoopFuture<String>, contentType: String,
                context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        body.hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            switch result {
            case .success(let text):
                handler.finish(with: handler.complete(request, contentType: contentType, body: text), context: context)
            case .failure(let refusal as HTTPRefusal):
                handler.finish(with: refusal.answer, context: context)
            case .failure(let error):
                let refusal = HTTPRefusal(.internalServerError, "\(error)", http11: request.isHTTP11)
                handler.finish(with: refusal.answer, context: context)
            }
        }
    }
}
