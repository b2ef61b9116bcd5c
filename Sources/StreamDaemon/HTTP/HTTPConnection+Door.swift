import Logging
import NIOCore

/// The door of the requests that need a password (the relay's stream list, the admin call, source clients): each
/// waits out its client's back-off (`AuthBackoff`) before it is read, each failed authentication is logged at
/// notice with the client's address, user and mount, for fail2ban, and every source client refused is logged with
/// why.
extension HTTPConnection {
    /// Answers `request` as its `route` says: at once, or, for a route that needs a password, once the back-off of
    /// the client's address has passed. The wait is a task scheduled on the loop, which goes on serving others;
    /// meanwhile nothing more is read from the client.
    func answerAfterBackoff(_ request: HTTPRequest, _ route: HTTPRoute, context: ChannelHandlerContext) {
        let delay = route.needsPassword ? context.channel.remoteAddress?.backoffKey.map(server.authDelay) : nil
        guard let delay, delay > .zero else { return answer(request, route, context: context) }
        gate.hold()
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: delay) {
            let (connection, context) = loopBound.value
            guard context.channel.isActive else { return }
            connection.answer(request, route, context: context)
        }
    }

    /// Counts whether the client authenticated with `credentials` for `mount` (as a `role`: admin call, relay,
    /// source client) toward its back-off, and logs a failure.
    func noteAuthentication(_ succeeded: Bool, _ credentials: BasicCredentials?, for mount: String, as role: String,
                            context: ChannelHandlerContext) {
        guard let key = context.channel.remoteAddress?.backoffKey else { return }
        let wait = server.noteAuthentication(from: key, succeeded: succeeded)
        guard !succeeded else { return }
        // The address comes before anything the client chose, so that no user name can pose as another address
        // to a log reader; the user is cut short, as it is the client's own text.
        let user = credentials.map { "user '\($0.user.prefix(64))'" } ?? "no credentials"
        let seconds = (Double(wait.nanoseconds) / 1e9).secondsText
        let backoff = wait > .zero ? "; its requests now wait \(seconds) s" : ""
        logger.notice("authentication failed from \(clientAddress(context)) for \(mount) (\(role), \(user))\(backoff)")
    }

    /// Logs a source client refused for another reason than its password (which `noteAuthentication` logs).
    func logRefusedSource(_ refusal: HTTPRefusal, path: String, context: ChannelHandlerContext) {
        let address = clientAddress(context)
        logger.notice("refused a source client from \(address) for \(path): \(refusal.status.code) \(refusal.reason)")
    }

    /// The client's address as logs show it.
    func clientAddress(_ context: ChannelHandlerContext) -> String {
        context.channel.remoteAddress?.ipAddress ?? "an unknown address"
    }
}

extension SocketAddress {
    /// Whom a back-off counts this client as: its IPv4 address, or its IPv6 address's /64 network, which one host
    /// commonly holds whole (an IPv4 address mapped into IPv6 counts as the IPv4 one). Nil for a Unix socket.
    var backoffKey: String? {
        switch self {
        case .v4:
            return ipAddress
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            if bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] {
                return bytes.suffix(4).map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        case .unixDomainSocket:
            return nil
        }
    }
}
