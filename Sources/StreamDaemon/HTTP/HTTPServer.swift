import AudioStreamProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The daemon's HTTP server: every served stream at its mount for players and Icecast relays, `/status.json`,
/// and `/admin/streamlist.txt` for Icecast's master/slave relaying.
///
/// Connections are spread over every event loop and each listener joins the hub of its own loop, exactly as a
/// socket subscriber does.
final class HTTPServer: Sendable {
    let mounts = HTTPMounts()
    let config: HTTPServerConfig
    /// The daemon's streams and their listeners, for `/status.json`.
    let status: @Sendable () -> EventLoopFuture<JSON>
    /// Audio bytes between ICY metadata blocks: Icecast's default, which players and relays expect.
    let metaint = 16000
    /// Recent audio a listener gets at once (within its stream's `historySeconds` and `queueSeconds`), so that
    /// playback starts without waiting for the buffer to fill in real time.
    let burstSeconds = 2.0

    /// When the server started, for Icecast's statistics.
    let started = Date()
    /// What the server counted since it started, for Icecast's `stats`.
    private let counted = NIOLockedValueBox(IcecastAdminXML.ServerCounts())

    /// What the server counted so far.
    var counts: IcecastAdminXML.ServerCounts { counted.withLockedValue { $0 } }

    /// Counts one more of what `count` names: a connection, a listener or a source client.
    func count(_ count: WritableKeyPath<IcecastAdminXML.ServerCounts, Int>) {
        counted.withLockedValue { $0[keyPath: count] += 1 }
    }
    /// Failed authentications by address, which slow the requests that need a password.
    private let authBackoff = NIOLockedValueBox(AuthBackoff())
    private let accessLogFile = NIOLockedValueBox<AccessLog?>(nil)

    /// Where each request is logged as Icecast logs it, once the server has started, when configured.
    var accessLog: AccessLog? { accessLogFile.withLockedValue { $0 } }

    /// The servers listeners go to when a mount or the server is full, if the daemon polls any.
    let peers: OverflowPeers?
    /// The backend that says who may listen, if there is one.
    let auth: ListenerAuth?
    /// The HLS sessions it admitted, once the server has started with a backend.
    private let hlsDoorBox = NIOLockedValueBox<HLSDoor?>(nil)
    var hlsDoor: HLSDoor? { hlsDoorBox.withLockedValue { $0 } }

    /// Lets the backend hear every listener leave: the HLS sessions, and the removals under way, waited for up
    /// to a second. Called as the daemon stops, before its HTTP client shuts down.
    func sayGoodbye(on eventLoop: EventLoop) -> EventLoopFuture<Void> {
        guard let auth else { return eventLoop.makeSucceededVoidFuture() }
        hlsDoor?.stop(on: eventLoop)
        return auth.drain(within: .seconds(1), on: eventLoop)
    }
    private let lastClientID = NIOLockedValueBox(0)

    init(config: HTTPServerConfig, peers: OverflowPeers? = nil, auth: ListenerAuth? = nil,
         status: @escaping @Sendable () -> EventLoopFuture<JSON>) {
        self.config = config
        self.peers = peers
        self.auth = auth
        self.status = status
    }

    /// A number no other listener of the server was given, as Icecast numbers its clients for its backends.
    func newClientID() -> Int {
        lastClientID.withLockedValue { $0 += 1; return $0 }
    }

    /// The listeners of every mount now.
    var listeners: Int { mounts.served.reduce(0) { $0 + $1.hubs.listenerCount.current } }

    /// Connections beyond `maxListeners` the server still reads when it has overflow peers, so that listeners it
    /// cannot take are sent there rather than refused before their request is read.
    var overflowHeadroom: Int {
        config.listeners.overflow?.isEmpty == false ? max(16, config.maxListeners / 10) : 0
    }

    /// How long a client may take to send its request head.
    var headerTimeout: TimeAmount { .nanoseconds(Int64(config.headerTimeout * 1e9)) }
    /// How long a listener that comes before its stream's format is known waits for it.
    var formatWait: TimeAmount { .nanoseconds(Int64(config.formatWait * 1e9)) }

    /// Listens on the configured address until the listener is closed; each connection is served on the next loop
    /// of `group`. Connections beyond `maxListeners`, or beyond what `descriptorLimit` leaves once the
    /// descriptors of sockets and subscribers are reserved, get a 503 at once.
    /// - Throws: `IOError` when the address cannot be resolved or bound.
    func start(group: EventLoopGroup, logger: Logger, descriptorLimit: Int) throws -> SubscriberSocket.Listener {
        if let auth {
            let door = HLSDoor(auth: auth, eventLoop: group.next())
            hlsDoorBox.withLockedValue { $0 = door }
        }
        if let path = config.accessLog {
            let log = try AccessLog(path: path)
            accessLogFile.withLockedValue { $0 = log }
        }
        let address = try SocketAddress.makeAddressResolvingHost(config.host, port: config.port)
        let descriptor = try ListeningDescriptor.open(address, reuseAddress: true)
        let refusal = HTTPResponse.refusal(.serviceUnavailable, http11: false, reason: "too many listeners; try again later")
        let limit = ConnectionLimit(
            maximum: DescriptorLimit.httpConnections(under: descriptorLimit, maximum: config.maxListeners + overflowHeadroom),
            refusal: Array(refusal.readableBytesView))
        // A backend asked about each session answers through NIO's path (`HTTPConnection+Auth`).
        let lanes = auth == nil && IOUring.isAllowed
            ? HLSLaneDiverter.open(server: self, limit: limit, logger: logger)
            : nil
        return SubscriberSocket.Listener(descriptor: descriptor, group: group, logger: logger, limit: limit,
                                         diverter: lanes) { [self] pipeline, socket in
            try HTTPConnection.configure(pipeline, server: self, socket: socket, logger: logger)
        }
    }

    /// Whether `credentials` are Basic authentication with the relay password; any user name is accepted, as
    /// Icecast's `<master-username>` may be set to anything.
    func acceptsRelay(_ credentials: BasicCredentials?) -> Bool {
        guard let password = config.relayPassword, let credentials else { return false }
        return credentials.hasPassword(password)
    }

    /// Whether `credentials` are user `admin` with the admin password, as Icecast's admin interface takes them.
    func acceptsAdmin(_ credentials: BasicCredentials?) -> Bool {
        Self.accepts(credentials, user: "admin", password: config.adminPassword)
    }

    /// Whether `credentials` may set the title of `stream`: the admin's, or, as Icecast 2.4 takes them for a
    /// mount's own admin calls, user `source` with the password of the stream's source clients.
    func acceptsTitle(from credentials: BasicCredentials?, for stream: StreamService?) -> Bool {
        acceptsAdmin(credentials) || Self.accepts(credentials, user: "source", password: stream?.sourcePassword)
    }

    /// Whether `credentials` are `user` with `password`; both compared, so the time taken tells nothing of which
    /// was wrong.
    private static func accepts(_ credentials: BasicCredentials?, user: String, password: String?) -> Bool {
        guard let password, let credentials else { return false }
        let isUser = credentials.user == user
        return credentials.hasPassword(password) && isUser
    }

    /// How long a request that needs a password, from `address` (an `AuthBackoff` key), waits before it is
    /// answered.
    func authDelay(for address: String) -> TimeAmount {
        authBackoff.withLockedValue { $0.delay(for: address, at: .now()) }
    }

    /// Notes whether a request from `address` authenticated.
    /// - Returns: how long its next requests wait now.
    func noteAuthentication(from address: String, succeeded: Bool) -> TimeAmount {
        authBackoff.withLockedValue { backoff in
            let now = NIODeadline.now()
            if succeeded {
                backoff.recordSuccess(of: address)
            } else {
                backoff.recordFailure(of: address, at: now)
            }
            return backoff.delay(for: address, at: now)
        }
    }
}
