import Foundation

/// `relay:`: the daemon as a relay (slave) of an Icecast master, which relays every mount the master lists as a
/// stream of its own, as icecast2's `<master-server>` does.
public struct RelayConfig: Equatable, Sendable {
    /// The master's address: `http(s)://HOST:PORT`, with no path, user or password.
    public var master: URL
    /// The user of the master's relay account (Icecast's `<relay-user>`).
    public var user: String
    public var password: String
    /// Seconds between two readings of the master's mount list.
    public var interval: Double
    /// Whether a mount is connected to only while someone listens to it.
    public var onDemand: Bool
    /// Seconds an on-demand mount stays connected with no one listening.
    public var idle: Double
    /// The folder of the relayed streams' sockets, one per mount.
    public var sockets: String

    /// `user` unless configured: Icecast's default relay user.
    public static let defaultUser = "relay"
    /// `interval` unless configured: Icecast's default `<master-update-interval>`.
    public static let defaultInterval: Double = 120
    /// `idle` unless configured.
    public static let defaultIdle: Double = 30

    public init(master: URL, user: String = defaultUser, password: String, interval: Double = defaultInterval,
                onDemand: Bool = false, idle: Double = defaultIdle, sockets: String) {
        self.master = master
        self.user = user
        self.password = password
        self.interval = interval
        self.onDemand = onDemand
        self.idle = idle
        self.sockets = sockets
    }

    /// The master's mount list, `/admin/streamlist.txt`.
    var mountListURL: URL { master.appendingPathComponent("admin/streamlist.txt") }
}
