import Foundation

/// What `audiostreamd` runs: read from `config.yaml` by `ConfigLoader`.
public struct DaemonConfig: Equatable, Sendable {
    /// The socket `audiostream status` asks, or nil for none.
    public var controlSocket: SocketConfig?
    public var streams: [StreamConfig]
    /// Where Prometheus reads the metrics, or nil for no metrics.
    public var metrics: MetricsAddress?
    /// The HTTP server that serves every stream as an Icecast-style mount, or nil for none.
    public var http: HTTPServerConfig?
    /// The Icecast master whose mounts the daemon relays, beside `streams`, or nil for none.
    public var relay: RelayConfig?

    public init(controlSocket: SocketConfig? = nil, streams: [StreamConfig], metrics: MetricsAddress? = nil,
                http: HTTPServerConfig? = nil, relay: RelayConfig? = nil) {
        self.controlSocket = controlSocket
        self.streams = streams
        self.metrics = metrics
        self.http = http
        self.relay = relay
    }
}

/// Where the metrics endpoint listens.
public enum MetricsAddress: Equatable, Sendable, CustomStringConvertible {
    /// An IP address and TCP port, such as 127.0.0.1:9464.
    case tcp(host: String, port: Int)
    /// A Unix socket.
    case unix(path: String)

    public var description: String {
        switch self {
        case .tcp(let host, let port): TCPAddressText.format(host: host, port: port)
        case .unix(let path): path
        }
    }
}

/// One stream: where its bytes come from, the socket subscribers connect to, and how slow ones are treated.
public struct StreamConfig: Equatable, Sendable {
    public var name: String
    public var source: SourceConfig
    public var socket: SocketConfig
    public var limits: SubscriberLimits
    /// The path the HTTP server serves the stream at: `/NAME` unless configured.
    public var mount: String
    /// Whether the HTTP server serves the stream (when the daemon has one).
    public var http: Bool
    /// Icecast mounts the stream pushes itself to.
    public var outputs: [IcecastOutputConfig]
    /// Where the stream is recorded, if it is.
    public var record: RecordConfig?
    /// What plays while the source is lost, if anything.
    public var fallback: SourceConfig?
    /// How the stream is served as HTTP Live Streaming, if it is.
    public var hls: HLSConfig?
    /// What is measured of the stream's sound: its loudness, its silence.
    public var monitor: MonitorConfig
    /// For a station that is connected to only while someone is there to hear it (a relay's on-demand mount):
    /// the seconds it stays connected once no one is; nil to stay connected all the while.
    public var onDemand: Double?
    /// How many may listen over HTTP, for how long, and where those the mount cannot take are sent.
    public var listeners: ListenerPolicy

    public init(name: String, source: SourceConfig, socket: SocketConfig, limits: SubscriberLimits = .init(),
                mount: String? = nil, http: Bool = true, outputs: [IcecastOutputConfig] = [],
                record: RecordConfig? = nil, fallback: SourceConfig? = nil, hls: HLSConfig? = nil,
                monitor: MonitorConfig = MonitorConfig(), onDemand: Double? = nil,
                listeners: ListenerPolicy = ListenerPolicy()) {
        self.name = name
        self.source = source
        self.socket = socket
        self.limits = limits
        self.mount = mount ?? "/\(name)"
        self.http = http
        self.outputs = outputs
        self.record = record
        self.fallback = fallback
        self.hls = hls
        self.monitor = monitor
        self.onDemand = onDemand
        self.listeners = listeners
    }
}

/// Where a stream's bytes come from.
public enum SourceConfig: Equatable, Sendable {
    /// The daemon's standard input, read until it ends.
    case standardInput
    /// A file, read at `pace` and started again at its end when `loop` is set.
    case file(path: String, pace: Pace, loop: Bool)
    /// An HTTP or HTTPS stream, such as an internet radio station.
    case http(HTTPSourceConfig)
    /// Files, or time ranges of them, one after another.
    case playlist(PlaylistConfig)
    /// Icecast source clients, one at a time, pushing to the stream's mount on the HTTP server.
    case push(PushSourceConfig)
}

/// An HTTP(S) source: where it is and how hard to try.
public struct HTTPSourceConfig: Equatable, Sendable {
    public var url: URL
    /// Seconds a connection (TCP and TLS) may take.
    public var connectTimeout: Double
    /// Seconds without a byte from the server before the connection is given up.
    public var stallTimeout: Double
    /// How to connect again after a failure, or nil to end the stream at the first one.
    public var reconnect: ReconnectPolicy?

    /// `stallTimeout` unless configured; a push source's too.
    public static let defaultStallTimeout: Double = 15

    public init(url: URL, connectTimeout: Double = 10, stallTimeout: Double = defaultStallTimeout,
                reconnect: ReconnectPolicy? = ReconnectPolicy()) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.reconnect = reconnect
    }
}

/// Exponential backoff with jitter between connection attempts.
public struct ReconnectPolicy: Equatable, Sendable {
    /// Seconds before the first new attempt; each failure in a row doubles it.
    public var initialDelay: Double
    /// The longest wait between attempts.
    public var maximumDelay: Double
    /// Failed attempts in a row after which the stream ends, or nil to try for ever.
    public var attempts: Int?

    public init(initialDelay: Double = 1, maximumDelay: Double = 60, attempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.attempts = attempts
    }
}

/// How fast a file is read.
public enum Pace: Equatable, Sendable {
    /// As fast as the stream can take it.
    case unpaced
    /// At this many times real time: 1 plays it as a radio station would.
    case realTime(speed: Double)
}

/// A listening socket the daemon makes: a stream's, or the control socket.
public struct SocketConfig: Equatable, Sendable {
    public var path: String
    /// Permission bits set on the socket file, or nil for `defaultMode`.
    public var mode: UInt32?
    public var owner: String?
    public var group: String?

    /// A socket file's permissions when no `mode` is set, whatever the umask: owner and group only.
    public static let defaultMode: UInt32 = 0o660
    /// The permissions of a folder the daemon makes for a socket, whatever the umask: owner and group only.
    public static let folderMode: UInt32 = 0o770

    public init(path: String, mode: UInt32? = nil, owner: String? = nil, group: String? = nil) {
        self.path = path
        self.mode = mode
        self.owner = owner
        self.group = group
    }
}

/// How far a subscriber may fall behind, all in seconds of audio (queue, history) or of wall-clock time, and how
/// long its messages may wait to go out together.
public struct SubscriberLimits: Equatable, Sendable {
    /// Audio a subscriber's queue holds before the oldest packets are dropped.
    public var queueSeconds: Double
    /// How long a subscriber may stay behind (dropping) before it is disconnected.
    public var disconnectAfter: Double
    /// Recent audio kept for bursts on connect: the most a hello's `burst` can get.
    public var historySeconds: Double
    /// The longest a message waits so that what is due for a subscriber goes out in one write: the latency each
    /// subscriber pays for the fan-out's lower cost (a write per subscriber per interval, not per packet).
    /// 0 writes every chunk of input as it is parsed.
    public var writeInterval: Double

    public init(queueSeconds: Double = 5, disconnectAfter: Double = 10, historySeconds: Double = 10,
                writeInterval: Double = SubscriberLimits.defaultWriteInterval) {
        self.queueSeconds = queueSeconds
        self.disconnectAfter = disconnectAfter
        self.historySeconds = historySeconds
        self.writeInterval = writeInterval
    }

    /// The longest whose latency stays under Icecast's at 5,000 subscribers (docs/benchmarks.md, "Live fan-out").
    public static let defaultWriteInterval = 0.1
    /// A longer wait would be a delay, not a batching of writes.
    public static let maximumWriteInterval = 1.0
}
