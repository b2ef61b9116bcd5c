import AudioFileStream
import AudioStreamProtocol
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One connection of an `HTTPSource`: sends the request, then turns the response into the source's audio and
/// metadata, or into the one reason it ended.
final class HTTPSourceHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let source: HTTPSource
    private let attempt: Int
    private let target: HTTPSourceTarget
    private var demuxer: ICYDemuxer?
    /// Set once the connection's fate has been told to the source: later events of the channel are noise.
    private var reported = false
    /// Audio bytes of the response before its first confirmed frame, those of them in a leading ID3v2 tag
    /// (which the bound leaves out), and the deadline for that frame; nil once it came.
    private var awaitingFrame: (bytes: Int, tagBytes: Int, deadline: Scheduled<Void>)?

    init(source: HTTPSource, attempt: Int, target: HTTPSourceTarget) {
        self.source = source
        self.attempt = attempt
        self.target = target
    }

    func channelActive(context: ChannelHandlerContext) {
        let url = target.url
        var headers = HTTPHeaders()
        // An IPv6 literal keeps its brackets in the Host header.
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        headers.add(name: "User-Agent", value: "audiostream/\(WireProtocol.version)")
        headers.add(name: "Accept", value: "*/*")
        headers.add(name: "Icy-MetaData", value: "1")
        if let credentials = target.credentials { headers.add(name: "Authorization", value: credentials.authorization) }
        // The path as written: decoding it would lose escapes and a trailing slash.
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components.map(\.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let target = components?.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !reported else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            received(head, context: context)
        case .body(let body):
            body.withUnsafeReadableBytes { bytes in
                guard var demuxer else { return received(audio: bytes) }
                demuxer.split(bytes) { received(audio: $0) } metadata: { block in
                    if let metadata = ICYMetadata(block: block) { source.received(metadata, attempt: attempt) }
                }
                self.demuxer = demuxer
            }
            if let awaitingFrame, awaitingFrame.bytes - awaitingFrame.tagBytes >= FirstFrameBound.bytes {
                finish(context: context, .failed(FirstFrameBound.tooManyBytes))
            }
        case .end:
            finish(context: context, .ended)
        }
    }

    private func received(_ head: HTTPResponseHead, context: ChannelHandlerContext) {
        switch head.status.code {
        case 200:
            let info = HTTPStreamInfo(headers: head.headers)
            if let failure = FirstFrameBound.failure(contentType: info.contentType) {
                return finish(context: context, .failed(failure))
            }
            demuxer = info.metaint.map(ICYDemuxer.init(metaint:))
            let deadline = context.eventLoop.scheduleTask(in: FirstFrameBound.time) { [channel = context.channel] in
                channel.pipeline.fireUserInboundEventTriggered(FirstFrameDeadline())
            }
            awaitingFrame = (0, 0, deadline)
            source.connected(info, attempt: attempt)
        case 301, 302, 303, 307, 308:
            guard let location = head.headers.first(name: "location"), let next = target.redirected(to: location)
            else { return finish(context: context, .failed("HTTP \(head.status.code) without a usable Location")) }
            finish(context: context, .redirected(next))
        default:
            finish(context: context, .failed("HTTP \(head.status.code) \(head.status.reasonPhrase)"))
        }
    }

    /// Hands audio to the source; the bytes count towards the first frame's bound until it came, but for a
    /// leading ID3v2 tag, which stations send with cover art of any size.
    private func received(audio: UnsafeRawBufferPointer) {
        guard source.received(audio: audio, attempt: attempt) else {
            if awaitingFrame?.bytes == 0, let tag = Metadata.id3v2Length(audio) { awaitingFrame?.tagBytes = tag }
            awaitingFrame?.bytes += audio.count
            return
        }
        awaitingFrame?.deadline.cancel()
        awaitingFrame = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case IdleStateHandler.IdleStateEvent.read = event {
            finish(context: context, .stalled)
        } else if event is FirstFrameDeadline, awaitingFrame != nil {
            finish(context: context, .failed(FirstFrameBound.tooLong))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        let certificate = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
        finish(context: context, .failed(NetworkErrorText.describe(error, peerCertificate: certificate)))
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context, .failed("the server closed the connection"))
        context.fireChannelInactive()
    }

    private func finish(context: ChannelHandlerContext, _ outcome: HTTPSource.Outcome) {
        guard !reported else { return }
        reported = true
        awaitingFrame?.deadline.cancel()
        context.close(promise: nil)
        source.finished(outcome, attempt: attempt)
    }
}

/// The time for a response's first frame is up.
private struct FirstFrameDeadline: Sendable {}

extension Double {
    /// Seconds as an operator writes them: 15, not 15.0.
    var secondsText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
