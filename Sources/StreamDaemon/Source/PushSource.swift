import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// The source of a `source: push` stream: the Icecast source client pushing to its mount, one at a time. What a
/// client sends reaches its delegate as an HTTP source's response does, so the stream treats both alike: each client
/// after the first is a reconnect, and one that leaves or stalls is `lost` or `stalled` and frees the mount. Each
/// client is an encoder of its own, whose stream starts with its own headers, perhaps in another format than the
/// last one's: its bytes are read as a new file, and go on the air only from its first confirmed frame, so that a
/// client pushing what the parser cannot read never ends the stream for the next.
///
/// Confined to the stream's event loop; a client's connection reaches it through its `PushSession`.
final class PushSource {
    /// How a client's connection ended.
    enum Outcome: Sendable {
        /// The client closed it.
        case closed
        case failed(String)
        /// No byte came for the stall timeout.
        case stalled
    }

    let config: PushSourceConfig
    private let eventLoop: EventLoop
    private let logger: Logger
    private unowned let delegate: NetworkSourceDelegate
    /// Counts reconnects for the metrics.
    private let reconnectCounter: Counter?
    /// The client pushing now: its session's number and its connection, which `stop()` closes.
    private var client: (session: Int, channel: Channel, identity: ClientIdentity)?
    /// Sessions admitted so far, which numbers them.
    private var sessions = 0
    /// Whether clients are taken: from `start()` to `stop()`.
    private var taking = false
    /// Clients admitted after the first.
    private(set) var reconnects = 0
    /// Whether a client is pushing now.
    var isConnected: Bool { client != nil }
    /// The address and user agent of the client pushing now.
    var clientIdentity: ClientIdentity? { client?.identity }

    init(config: PushSourceConfig, eventLoop: EventLoop, logger: Logger, reconnects: Counter? = nil,
         delegate: NetworkSourceDelegate) {
        self.config = config
        self.eventLoop = eventLoop
        self.logger = logger
        reconnectCounter = reconnects
        self.delegate = delegate
    }

    /// Takes clients from now on.
    func start() {
        eventLoop.preconditionInEventLoop()
        taking = true
    }

    /// Closes the client's connection, if any, and takes no more; the delegate hears nothing more.
    func stop() {
        eventLoop.preconditionInEventLoop()
        taking = false
        client?.channel.close(promise: nil)
        client = nil
    }

    /// Takes the client of `request` if its credentials are `source` and the password, its content type may carry
    /// the mount's `codec` (if known) and no other client is pushing: announced as `connected`, with its station.
    func admit(_ request: SourceClientRequest, codec: MountCodec?) -> Result<PushSession, PushRefusal> {
        eventLoop.preconditionInEventLoop()
        let (info, channel) = (request.info, request.channel)
        guard let credentials = request.credentials, let password = config.password, credentials.user == "source",
              credentials.hasPassword(password)
        else { return .failure(.unauthorized) }
        if let codec, !codec.mayArrive(as: info.contentType) {
            return .failure(.otherCodec(mount: codec, contentType: info.contentType ?? "-"))
        }
        guard taking else { return .failure(.notRunning) }
        guard client == nil else { return .failure(.busy) }
        sessions += 1
        client = (sessions, channel, request.identity)
        if sessions > 1 {
            reconnects += 1
            reconnectCounter?.increment()
        }
        delegate.sourceChanged(.connected(attempt: 0))
        logger.info("source client connected", metadata: [
            "client": "\(channel.remoteAddress?.description ?? "-")", "contentType": "\(info.contentType ?? "-")",
            "station": "\(info.name ?? "-")",
        ])
        delegate.sourceConnected(info)
        return .success(PushSession(number: sessions, stallTimeout: config.stallTimeout,
                                    source: NIOLoopBound(self, eventLoop: eventLoop)))
    }

    /// Closes the connection of the client pushing now, if any, which is `lost` for `reason`.
    /// - Returns: whether a client was pushing.
    func dropConnection(reason: String) -> Bool {
        eventLoop.preconditionInEventLoop()
        guard let client else { return false }
        logger.warning("source client dropped: \(reason)",
                       metadata: ["client": "\(client.channel.remoteAddress?.description ?? "-")"])
        client.channel.close(promise: nil)
        self.client = nil
        delegate.sourceChanged(.lost(error: reason))
        return true
    }

    /// Hands a client's bytes on.
    /// - Returns: whether the client is still the one pushing, so that its connection should be read on.
    func received(_ bytes: ByteBuffer, session: Int) -> Bool {
        // Every read of the client: a debug check, free in release builds.
        eventLoop.assertInEventLoop()
        guard client?.session == session else { return false }
        _ = bytes.withUnsafeReadableBytes { delegate.sourceReceived(audio: $0) }
        // The stream may have ended on these bytes.
        return client?.session == session
    }

    /// The client's connection is over: the mount is free for the next one.
    func ended(session: Int, _ outcome: Outcome) {
        eventLoop.preconditionInEventLoop()
        guard client?.session == session else { return }
        client = nil
        let state: SourceState
        switch outcome {
        case .closed: state = .lost(error: "the source client closed the connection")
        case .failed(let problem): state = .lost(error: problem)
        case .stalled: state = .stalled(error: "stalled: no data for \(config.stallTimeout.secondsText) s")
        }
        logger.warning("source client gone: \(state.error ?? "")")
        delegate.sourceChanged(state)
    }
}

/// A source client at a push stream's door: what it sent, who it is, and its connection.
struct SourceClientRequest: Sendable {
    let credentials: BasicCredentials?
    /// Its station, from its `ice-*` headers, and its content type.
    let info: HTTPStreamInfo
    let identity: ClientIdentity
    let channel: Channel
}

/// Why a source client is not taken.
enum PushRefusal: Error, Equatable, Sendable {
    /// The mount's stream has no push source.
    case notPush
    /// Not `source` and the password.
    case unauthorized
    /// Another client is pushing.
    case busy
    /// The client's content type cannot carry the codec the mount plays.
    case otherCodec(mount: MountCodec, contentType: String)
    /// The stream is starting or stopping.
    case notRunning
}

/// A source client's hold on its stream's `PushSource`, for its connection's loop: hands its bytes and its end to
/// the stream's loop.
struct PushSession: Sendable {
    let number: Int
    /// Seconds without a byte before the client is dropped.
    let stallTimeout: Double
    let source: NIOLoopBound<PushSource>

    /// Hands `bytes` to the stream; the future says whether the client is still the one pushing.
    func deliver(_ bytes: ByteBuffer) -> EventLoopFuture<Bool> {
        source.eventLoop.submit { [source, number] in source.value.received(bytes, session: number) }
    }

    /// Tells the stream that the client's connection is over.
    func end(_ outcome: PushSource.Outcome) {
        source.eventLoop.execute { [source, number] in source.value.ended(session: number, outcome) }
    }
}
