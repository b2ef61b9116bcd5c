/// The HTTP server for players and Icecast relays (`http:` in `config.yaml`).
public struct HTTPServerConfig: Equatable, Sendable {
    /// The IP address to listen on: loopback unless the operator chooses to be reachable.
    public var host: String
    public var port: Int
    /// The password Icecast's master/slave relaying sends for `/admin/streamlist.txt`, or nil to refuse that
    /// request.
    public var relayPassword: String?
    /// The password of user `admin` for Icecast's `/admin/metadata`, or nil to refuse that request.
    public var adminPassword: String?
    /// The password of Icecast source clients pushing to `source: push` streams that set none of their own.
    public var sourcePassword: String?
    /// Seconds a client may take to send its request head before its connection is closed.
    public var headerTimeout: Double
    /// Seconds a listener that comes before its stream's format is known waits for it before a 503.
    public var formatWait: Double
    /// Seconds a stream's source may be lost, with no fallback playing, before its HTTP listeners are closed:
    /// players then show the failure, or retry (and get a 503 until it is back), rather than hang in silence.
    public var deadAirTimeout: Double
    /// HTTP connections open at once, at most (fewer if the descriptor limit needs it): more get a 503.
    public var maxListeners: Int
    /// The station's name, heading the status page at `/`.
    public var name = "audiostreamd"
    /// Every mount's listener policy where its stream sets none: `maxListenerDuration` and `overflow`.
    public var listeners = ListenerPolicy()
    /// Who may listen, as a station panel's backend says, if it is asked.
    public var auth: ListenerAuthConfig?
    /// The file each request is logged to, in Icecast's access log format, if any; reopened on SIGHUP.
    public var accessLog: String?

    /// `maxListeners` unless configured.
    public static let defaultMaxListeners = 10_000
    /// `deadAirTimeout` unless configured: longer than a station's usual reconnect (a second or two, and the
    /// few seconds of audio a player holds), short enough that a listener is not left with silence for long.
    public static let defaultDeadAirTimeout: Double = 30
    /// `headerTimeout` unless configured; the metrics endpoint's too.
    public static let defaultHeaderTimeout: Double = 10

    public init(host: String, port: Int, relayPassword: String? = nil, adminPassword: String? = nil,
                headerTimeout: Double = defaultHeaderTimeout, formatWait: Double = 10,
                maxListeners: Int = defaultMaxListeners, deadAirTimeout: Double = defaultDeadAirTimeout) {
        self.host = host
        self.port = port
        self.relayPassword = relayPassword
        self.adminPassword = adminPassword
        self.headerTimeout = headerTimeout
        self.formatWait = formatWait
        self.maxListeners = maxListeners
        self.deadAirTimeout = deadAirTimeout
    }

    /// `HOST:PORT`, as configured.
    public var address: String { TCPAddressText.format(host: host, port: port) }
}

/// A TCP address as `config.yaml` writes it.
enum TCPAddressText {
    /// `HOST:PORT`, with an IPv6 host in brackets.
    static func format(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
