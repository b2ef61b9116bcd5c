import AudioStreamProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One configured stream at run time: its listening socket, source, pipeline and hubs.
///
/// The stream's state lives on its own event loop, in its `StreamCore`, which this class reaches by hopping there;
/// subscriber connections are spread over every loop of the group, each joining the hub of its loop. What any
/// thread may read is here, immutable: its name, logger, loop and hubs.
final class StreamService: Sendable {
    let name: String
    let logger: Logger
    let eventLoop: EventLoop
    let hubs: HubGroup
    /// Whether the stream is off the air, and how long: its HTTP listeners are refused, then closed.
    let deadAir: DeadAir
    /// The password of a push stream's source clients, which Icecast also takes for the mount's title.
    let sourcePassword: String?
    /// How the stream is served as HTTP Live Streaming, if it is.
    let hls: HLSConfig?
    /// Where connections get the stream's HLS, on their own loops.
    let hlsDesks: HLSDesks?
    private let core: NIOLoopBoundBox<StreamCore>
    private let policy: NIOLockedValueBox<ListenerPolicy>

    /// How many may listen over HTTP, for how long, and where others are sent, as the stream's configuration says.
    var listenerPolicy: ListenerPolicy { policy.withLockedValue { $0 } }

    /// A stream of `config`, on the next loop of `group`, whose hubs send to HTTP listeners through `sendRings`;
    /// `onEnd` is called on that loop, with the failure if any, once the source has ended and the subscribers have
    /// been served. Its HTTP listeners are closed after `deadAirTimeout` seconds off the air, if set.
    init(config: StreamConfig, group: EventLoopGroup, sendRings: SendRings, inherited: InheritedSockets,
         deadAirTimeout: Double? = nil, onEnd: @escaping @Sendable (StreamService, _ failure: String?) -> Void) {
        name = config.name
        sourcePassword = config.source.pushPassword
        policy = NIOLockedValueBox(config.listeners)
        hls = config.hls
        eventLoop = group.next()
        hlsDesks = config.hls.map { [eventLoop] in HLSDesks(config: $0, home: eventLoop) }
        var logger = Logger(label: "audiostreamd")
        logger[metadataKey: "stream"] = "\(config.name)"
        self.logger = logger
        let metrics = StreamMetrics(stream: config.name)
        hubs = HubGroup(loops: Array(group.makeIterator()), home: eventLoop, limits: config.limits, logger: logger,
                        metrics: metrics, sendRings: sendRings)
        deadAir = DeadAir(hubs: hubs, timeout: deadAirTimeout, eventLoop: eventLoop, logger: logger)
        core = .makeBoxSendingValue(
            StreamCore(config: config, group: group, eventLoop: eventLoop, hubs: hubs, deadAir: deadAir,
                       hlsDesks: hlsDesks, inherited: inherited, metrics: metrics, logger: logger, onEnd: onEnd),
            eventLoop: eventLoop)
    }

    /// Listens on the stream's socket, then starts reading the source.
    func start() -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [self] in core.value.start(for: self) }
    }

    /// Stops the source, sends the end event with `reason`, gives subscribers up to `grace` to take what is
    /// queued, then closes everything and removes the socket.
    func stop(grace: TimeAmount, reason: EndReason) -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [core] in core.value.stop(grace: grace, reason: reason) }
    }

    /// Applies a reload that changed only the subscriber limits or the socket's mode and owner (see
    /// `StreamReload.adjust(to:)`): subscribers stay connected and get the new limits from their next message; a
    /// socket file the daemon made gets the new mode and owner, one systemd passed is left as its unit says.
    /// Succeeds once every hub has the new limits; a failed chmod or chown is logged and changes nothing else.
    func adjust(to newConfig: StreamConfig) -> EventLoopFuture<Void> {
        policy.withLockedValue { $0 = newConfig.listeners }
        return eventLoop.flatSubmit { [core] in core.value.adjust(to: newConfig) }
    }

    /// The first message of every subscriber.
    func welcome(allocator: ByteBufferAllocator) -> ByteBuffer {
        WireEncoding.message(.welcome, json: WireProtocol.welcome(stream: name), allocator: allocator)
    }

    /// The stream's part of `audiostream status`: socket subscribers and HTTP listeners listed apart, and its
    /// mount when the daemon has an HTTP server (`hasHTTPServer`) that serves it.
    func status(hasHTTPServer: Bool) -> EventLoopFuture<JSON> {
        let shards = hubs.map { hub in
            let now = NIODeadline.now()
            return (subscribers: hub.subscribers.filter { $0.transport == .socket }.map { $0.status(now: now) },
                    listeners: hub.subscribers.filter { $0.transport == .http }.map { $0.status(now: now) },
                    waiting: hub.waitingListeners, sentBytes: hub.sentBytes, slowDisconnects: hub.disconnectedSlow)
        }
        return shards.map { [core] shards in
            .object(core.value.status(hasHTTPServer: hasHTTPServer) + [
                ("bytesOut", .number(shards.reduce(0) { $0 + $1.sentBytes })),
                ("slowDisconnects", .number(shards.reduce(0) { $0 + $1.slowDisconnects })),
                ("subscribers", .array(shards.flatMap(\.subscribers))),
                ("listeners", .array(shards.flatMap(\.listeners))),
                ("waitingListeners", .number(shards.reduce(0) { $0 + $1.waiting })),
                ("outputs", .array(core.value.outputsStatus)),
            ])
        }
    }

    /// The stream's entry in the HTTP server's `/status.json`.
    func mountStatus() -> EventLoopFuture<JSON> {
        listenerShards().map { [core] shards in
            core.value.mountStatus(listeners: shards.reduce(0) { $0 + $1.listeners },
                                   contentType: shards.first?.info?.contentType)
        }
    }

    /// What Icecast's statistics and the status page tell of the stream.
    func mountFacts() -> EventLoopFuture<MountFacts> {
        listenerShards().map { [core, hubs] shards in
            core.value.mountFacts(listeners: shards.reduce(0) { $0 + $1.listeners },
                                  listenerPeak: hubs.listenerCount.peak, sentBytes: shards.reduce(0) { $0 + $1.sentBytes },
                                  info: shards.first?.info)
        }
    }

    /// Each hub's HTTP listeners, the bytes they were sent, and its mount info.
    private func listenerShards() -> EventLoopFuture<[(listeners: Int, sentBytes: Int, info: MountInfo?)]> {
        hubs.map { hub in
            let listeners = hub.subscribers.filter { $0.transport == .http }
            return (listeners.count, listeners.reduce(0) { $0 + $1.sentBytes }, hub.mountInfo)
        }
    }

    /// Sets what plays, as an ICY `StreamTitle` from the source would: subscribers get it as metadata, ICY
    /// listeners as their title, and a recording that splits on titles splits there, before the next packet.
    /// Succeeds once the stream has taken it.
    func setTitle(_ title: String) -> EventLoopFuture<Void> {
        let metadata = ICYMetadata(fields: [(key: "StreamTitle", value: title)])
        return eventLoop.submit { [core] in core.value.setTitle(metadata) }
    }

    /// What the stream's group's multivariant playlist says of it; nil until it has a segment.
    func hlsVariant() -> EventLoopFuture<HLSGroupPlaylist.Variant?> {
        eventLoop.submit { [core, name] in core.value.pipeline.hls?.variant(name: name) }
    }

    /// Sets the stream's gauges (subscribers, listeners, their lag) for a metrics reader.
    func updateMetrics() -> EventLoopFuture<Void> {
        hubs.map { $0.subscribers.map { (id: $0.id, seconds: $0.queuedSeconds, transport: $0.transport) } }
            .map { [core] lags in core.value.updateMetrics(lags: lags.flatMap { $0 }) }
    }

    /// Subscribers, and whether a network source is away, for the service's status line.
    func summary() -> EventLoopFuture<(subscribers: Int, waitingForSource: Bool)> {
        hubs.map { $0.subscribers.count { $0.transport == .socket } }.map { [core] counts in
            (counts.reduce(0, +), core.value.isWaitingForSource)
        }
    }

    /// Offers the stream an Icecast source client: see `StreamSource.admit(_:codec:)`.
    func admitSource(_ request: SourceClientRequest) -> EventLoopFuture<Result<PushSession, PushRefusal>> {
        eventLoop.submit { [core] in core.value.admitSource(request) }
    }

    // MARK: - For Icecast's admin commands

    /// Drops the main source's connection, as Icecast's `killsource` does: see `SourceSwitch.dropSource()`. The
    /// future says whether it had one.
    func dropSource() -> EventLoopFuture<Bool> {
        eventLoop.submit { [core] in core.value.dropSource() }
    }

    /// The HTTP listeners, by id, with who they are and since when, as Icecast's `listclients` lists them.
    func listeners() -> EventLoopFuture<[ListenerRecord]> {
        hubs.map { hub in
            hub.subscribers.filter { $0.transport == .http }.map {
                ListenerRecord(id: $0.id, client: $0.client, connectedAt: $0.connectedAt)
            }
        }.map { shards in shards.flatMap { $0 }.sorted { $0.id < $1.id } }
    }

    /// Moves every HTTP listener to `destination`, as Icecast's `moveclients` does; the future says how many moved.
    func moveListeners(to destination: StreamService) -> EventLoopFuture<Int> {
        hubs.map { hub in
            hub.subscribers.filter { $0.transport == .http }.count { $0.move(to: destination) }
        }.map { $0.reduce(0, +) }
    }

    /// Disconnects the HTTP listener `id`, as Icecast's `killclient` does; the future says whether it was there.
    func dropListener(id: Int) -> EventLoopFuture<Bool> {
        hubs.map { hub in
            guard let listener = hub.subscribers.first(where: { $0.id == id && $0.transport == .http }) else {
                return false
            }
            hub.remove(listener)
            listener.close()
            return true
        }.map { $0.contains(true) }
    }
}

/// A stream stopped before it had started.
struct StreamStoppedError: Error, CustomStringConvertible {
    var description: String { "stopped while starting" }
}

extension SubscriberLimits {
    /// The limits as `audiostream status` shows them.
    var json: JSON {
        .object([
            ("queueSeconds", .double(queueSeconds)), ("disconnectAfter", .double(disconnectAfter)),
            ("historySeconds", .double(historySeconds)),
        ])
    }
}

extension SourceConfig: CustomStringConvertible {
    public var description: String {
        switch self {
        case .standardInput: "stdin"
        case .file(let path, _, _): "file:\(path)"
        case .http(let http): http.url.withoutCredentials.absoluteString
        case .playlist(let playlist): playlist.description
        case .push: "push"
        }
    }
}
