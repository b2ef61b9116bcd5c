import Foundation
import NIOCore

/// Who a mount takes: as many listeners as it and the server hold, each for as long as its policy lets it stay;
/// those it cannot take go to an overflow peer that has the mount, or are refused as Icecast refuses them.
extension HTTPConnection {
    /// Whether the mount of `stream` and the server can take one more listener. If not, the listener is sent to
    /// the least loaded overflow peer of `policy` that serves the mount, or else refused: a full mount with 403
    /// (Icecast's answer), a full server with 503; and false is returned.
    func admits(_ request: HTTPRequest, to stream: StreamService, policy: ListenerPolicy,
                context: ChannelHandlerContext) -> Bool {
        let mountFull = policy.maxListeners.map { stream.hubs.listenerCount.current >= $0 } ?? false
        let serverFull = server.listeners >= server.config.maxListeners
        guard mountFull || serverFull else { return true }
        if let peer = server.peers?.peer(for: request.path, among: policy.overflow ?? []) {
            var location = peer.absoluteString
            if location.hasSuffix("/") { location.removeLast() }
            location += request.head.uri
            logger.info("sent a listener of \(request.path) to \(peer.absoluteString): the \(mountFull ? "mount" : "server") is full")
            finish(with: HTTPResponse.redirect(to: location, http11: request.isHTTP11), context: context)
        } else if mountFull {
            finish(with: HTTPRefusal(.forbidden, "max listeners reached", http11: request.isHTTP11).answer, context: context)
        } else {
            let refusal = HTTPRefusal(.serviceUnavailable, "too many listeners; try again later", http11: request.isHTTP11)
            finish(with: refusal.answer, context: context)
        }
        return false
    }

    /// Closes the listener's connection after `seconds`, if any (Icecast's `max-listener-duration`).
    func limitStay(to seconds: Double?, context: ChannelHandlerContext) {
        guard let seconds else { return }
        let channel = context.channel
        let closing = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in closing.cancel() }
    }
}
