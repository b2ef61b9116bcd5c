import Foundation
import NIOCore

/// A listener's way through the station's backend (`http.auth`), before it is served.
extension HTTPConnection {
    /// What the door knows of an admitted listener: its name, if it gave one, and how long it may stay.
    struct Admission {
        var user: String?
        var timeLimit: Double?

        static let open = Admission(user: nil, timeLimit: nil)
    }

    /// Asks `auth`'s backend whether the listener of `request` may listen to `mount` (the request's target, query
    /// and all, as Icecast sends it, unless given), then calls `admitted` with what the backend was told of it (nil when it could not be asked), or
    /// refuses it: 401 with the backend's message, as Icecast refuses; or, when the backend cannot answer, as
    /// `onFailure` says (403, or admitted).
    func authenticate(_ request: HTTPRequest, mount: String? = nil, with auth: ListenerAuth,
                      context: ChannelHandlerContext,
                      then admitted: @escaping (Admission, ListenerAuth.Listener?) -> Void) {
        let credentials = request.credentials
        let host = request.head.headers.first(name: "host").map { String($0.prefix { $0 != ":" }) }
        let listener = ListenerAuth.Listener(
            client: server.newClientID(), mount: mount ?? request.head.uri, user: credentials?.user ?? "",
            password: credentials?.password ?? "", address: context.channel.remoteAddress?.ipAddress ?? "",
            userAgent: request.head.headers.first(name: "user-agent") ?? "",
            server: host.flatMap { $0.isEmpty ? nil : $0 } ?? server.config.host, port: server.config.port)
        let loopBound = NIOLoopBound((self, context, admitted), eventLoop: context.eventLoop)
        auth.add(listener, on: context.eventLoop).whenSuccess { verdict in
            let (handler, context, admitted) = loopBound.value
            switch verdict {
            case .admitted(let timeLimit):
                admitted(Admission(user: listener.user.isEmpty ? nil : listener.user, timeLimit: timeLimit), listener)
            case .refused(let message):
                handler.logger.info("listener of \(request.path) from \(listener.address) refused by the backend")
                let reason = message ?? "You need to authenticate"
                let refusal = HTTPRefusal(.unauthorized, reason, http11: request.isHTTP11,
                                          fields: [("WWW-Authenticate", "Basic realm=\"Icecast2 Server\"")])
                handler.finish(with: refusal.answer, context: context)
            case .failed(let reason):
                handler.logger.warning("listener authentication failed: \(reason); \(auth.config.onFailure == .allow ? "admitting" : "refusing") the listener")
                guard auth.config.onFailure == .allow else {
                    let refusal = HTTPRefusal(.forbidden, "listener authentication is unavailable", http11: request.isHTTP11)
                    return handler.finish(with: refusal.answer, context: context)
                }
                admitted(.open, nil)
            }
        }
    }

    /// Posts `listener`'s leaving, with its seconds, once its connection closes.
    func postRemoval(of listener: ListenerAuth.Listener, to auth: ListenerAuth, context: ChannelHandlerContext) {
        let (since, eventLoop) = (Date(), context.eventLoop)
        context.channel.closeFuture.whenComplete { _ in
            auth.remove(listener, after: Int(Date().timeIntervalSince(since)), on: eventLoop)
        }
    }
}
