import NIOCore

/// The answers to HTTP Live Streaming clients: a stream's playlist and files, and a group's multivariant playlist.
extension HTTPConnection {
    /// Answers `hlsRequest` once the stream has what it asks for, or with its refusal.
    func answer(_ hlsRequest: HLSRequest, of stream: StreamService, _ request: HTTPRequest,
                context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        // The session is made only for what the stream's loop answers, not for a file taken from the shelf.
        let channel = context.channel
        stream.answer(hlsRequest, session: HLSSessions.key(session: FormQuery(request.query).text("session"),
                                                           client: ClientIdentity(channel, request)),
                      on: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            switch result {
            case .success(let answer):
                let keepAlive = request.head.isKeepAlive
                let bytes = answer.response(http11: request.isHTTP11, headOnly: request.isHead, keepAlive: keepAlive)
                if keepAlive {
                    handler.answerKeepingAlive(bytes, context: context)
                } else {
                    handler.finish(with: bytes, context: context)
                }
            case .failure(let refusal as HLSRefusal):
                handler.finish(with: refusal.refusal(http11: request.isHTTP11).answer, context: context)
            case .failure(let error):
                let refusal = HTTPRefusal(.internalServerError, "\(error)", http11: request.isHTTP11)
                handler.finish(with: refusal.answer, context: context)
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
