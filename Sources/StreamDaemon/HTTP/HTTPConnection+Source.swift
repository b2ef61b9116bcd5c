import AudioStreamProtocol
import NIOCore
import NIOHTTP1

/// An Icecast source client at a push stream's mount: `PUT` with `Expect: 100-continue` (Icecast 2.4, ffmpeg,
/// Liquidsoap), or the legacy `SOURCE /MOUNT ICE/1.0`, with `Authorization: Basic source:PASSWORD`. Its body is the
/// raw stream until it closes, with neither a length nor chunks.
extension HTTPConnection {
    /// Offers the client to the stream; once taken, answered as Icecast answers, NIOHTTP1's handlers leave and its
    /// bytes go to the stream; else refused as Icecast refuses (401, or 403 when the mount is in use). A chunked
    /// body, which no source client sends, gets a 501.
    func takeSource(for stream: StreamService, _ request: HTTPRequest, context: ChannelHandlerContext) {
        guard !request.head.headers.contains(name: "transfer-encoding") else {
            let refusal = HTTPRefusal(.notImplemented, "a source's body is the raw stream, without a transfer encoding",
                                      http11: request.isHTTP11)
            return refuseSource(refusal, request, context: context)
        }
        // Nothing past the head reaches the decoder, and nothing more is read until the stream answers.
        gate.hold()
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        let credentials = request.credentials
        let client = SourceClientRequest(credentials: credentials, info: HTTPStreamInfo(sourceHeaders: request.head.headers),
                                         identity: ClientIdentity(context.channel, request), channel: context.channel)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        stream.admitSource(client).hop(to: context.eventLoop)
            .whenComplete { result in
                let (connection, context) = loopBound.value
                let refusal: PushRefusal
                switch result {
                case .success(.success(let session)):
                    connection.noteAuthentication(true, credentials, for: request.path, as: "source client",
                                                  context: context)
                    connection.server.count(\.sourceConnections)
                    return connection.receive(from: session, request, context: context)
                case .success(.failure(let pushRefusal)): refusal = pushRefusal
                case .failure: refusal = .notRunning
                }
                if refusal == .unauthorized {
                    connection.noteAuthentication(false, credentials, for: request.path, as: "source client",
                                                  context: context)
                    connection.finish(with: Self.answer(to: refusal, request).answer, context: context)
                } else {
                    connection.refuseSource(Self.answer(to: refusal, request), request, context: context)
                }
            }
    }

    /// Answers as Icecast 2.4 does (`100 Continue` when asked, then `200 OK` in HTTP/1.0, which every source client
    /// reads), then leaves the client's bytes to a `PushSourceHandler`, which reads on demand.
    private func receive(from session: PushSession, _ request: HTTPRequest, context: ChannelHandlerContext) {
        var answer = ByteBuffer()
        if request.head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            answer.writeString("HTTP/1.1 100 Continue\r\n\r\n")
        }
        answer.writeString("HTTP/1.0 200 OK\r\n\r\n")
        context.writeAndFlush(wrapOutboundOut(answer), promise: nil)
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandlers(
                IdleStateHandler(readTimeout: .nanoseconds(Int64(session.stallTimeout * 1e9))),
                PushSourceHandler(session: session))
        } catch {
            session.end(.failed("cannot read the source client: \(error)"))
            return context.close(promise: nil)
        }
        // The decoder leaves on a later tick: what the gate holds goes on once it is gone.
        let decoderLeft = context.eventLoop.makePromise(of: Void.self)
        pipeline.removeHandler(decoder, promise: decoderLeft)
        pipeline.removeHandler(context: context, promise: nil)
        let gate = NIOLoopBound(gate, eventLoop: context.eventLoop)
        decoderLeft.futureResult.whenComplete { _ in gate.value.release() }
    }

    /// Answers a source client with `refusal`, and logs it.
    private func refuseSource(_ refusal: HTTPRefusal, _ request: HTTPRequest, context: ChannelHandlerContext) {
        logRefusedSource(refusal, path: request.path, context: context)
        finish(with: refusal.answer, context: context)
    }

    /// The answer to a client the stream does not take.
    private static func answer(to refusal: PushRefusal, _ request: HTTPRequest) -> HTTPRefusal {
        let http11 = request.isHTTP11
        return switch refusal {
        case .notPush:
            HTTPRefusal(.forbidden, "\(request.path) takes no source client: its stream's source is not push",
                        http11: http11)
        case .unauthorized:
            .unauthorized("source user name and password needed", http11: http11)
        case .busy:
            // Icecast's words, which source clients show their users.
            HTTPRefusal(.forbidden, "Mountpoint in use", http11: http11)
        case .otherCodec(let codec, let contentType):
            HTTPRefusal(.forbidden, "Content-type mismatch: \(request.path) plays \(codec), not \(contentType)",
                        http11: http11)
        case .notRunning:
            HTTPRefusal(.serviceUnavailable, "the stream is starting or stopping; try again", http11: http11)
        }
    }
}
