import Logging
import NIOCore
import NIOPosix

/// One configured stream at run time: its listening socket, source, pipeline and hubs.
///
/// The stream's state lives on its own event loop, with its pipeline; subscriber connections are spread over
/// every loop of the group, each joining the hub of its loop, so no part needs a lock.
final class StreamService: @unchecked Sendable {
    let name: String
    /// The stream's configuration; once started, touched on `eventLoop` only, where `adjust(to:)` changes it.
    private var config: StreamConfig
    let logger: Logger
    let eventLoop: EventLoop
    let hubs: HubGroup
    private let group: EventLoopGroup
    private let pipeline: StreamPipeline
    /// Reads standard input or a file on a thread of its own.
    private let reader: SourceReader?
    /// Receives an HTTP source on the stream's loop.
    private var httpSource: HTTPSource?
    /// The Icecast mounts the stream pushes itself to, on the stream's loop.
    private let outputs: [IcecastOutput]
    /// Why the network source last lost its connection.
    private var lastSourceError: String?
    private let startedAt = NIODeadline.now()
    private var listener: ListeningSocket?
    /// Sockets passed by systemd, one of which may be this stream's.
    private let inherited: InheritedSockets
    private let metrics: StreamMetrics
    private var state = State.starting
    /// Why the source ended, if it failed; read once the stream has ended.
    private(set) var failure: String?
    /// Called on the event loop once the source has ended and the subscribers have been served.
    private let onEnd: @Sendable (StreamService) -> Void

    init(config: StreamConfig, group: EventLoopGroup, inherited: InheritedSockets,
         onEnd: @escaping @Sendable (StreamService) -> Void) {
        name = config.name
        self.config = config
        self.inherited = inherited
        self.group = group
        eventLoop = group.next()
        self.onEnd = onEnd
        var logger = Logger(label: "audiostreamd")
        logger[metadataKey: "stream"] = "\(config.name)"
        self.logger = logger
        let metrics = StreamMetrics(stream: config.name)
        self.metrics = metrics
        hubs = HubGroup(loops: Array(group.makeIterator()), home: eventLoop, limits: config.limits, logger: logger,
                        metrics: metrics)
        pipeline = StreamPipeline(streamName: config.name, hubs: hubs, eventLoop: eventLoop, logger: logger,
                                  metrics: metrics)
        reader = SourceReader(config: config.source)
        outputs = config.outputs.map { [eventLoop, logger, hubs] in
            IcecastOutput(config: $0, hubs: hubs, eventLoop: eventLoop, logger: logger, stream: config.name)
        }
        if case .http(let http) = config.source {
            httpSource = HTTPSource(config: http, eventLoop: eventLoop, logger: logger, reconnects: metrics.reconnects,
                                    delegate: self)
        }
    }

    /// Listens on the stream's socket, then starts reading the source.
    func start() -> EventLoopFuture<Void> {
        return ListeningSocket.listen(
            subscribersOn: config.socket, name: config.name, inherited: inherited, group: group, eventLoop: eventLoop,
            logger: logger
        ) { [self] descriptor in SubscriberConnection(stream: self, descriptor: descriptor) }
            .flatMapThrowing { [self] listener in
                // Stopped while binding: the socket is no one's.
                guard state == .starting else {
                    _ = listener.close()
                    throw StreamStoppedError()
                }
                self.listener = listener
                state = .running
                logger.info("listening on \(config.socket.path)\(listener.createdFile == nil ? " (from systemd)" : "")")
                reader?.start { [self] output in deliver(output) }
                httpSource?.start()
                for output in outputs { output.start() }
            }
            .flatMapErrorThrowing { [self] error in
                metrics.destroy()
                throw error
            }
    }

    /// Stops the source, sends the end event with `reason`, gives subscribers up to `grace` to take what is
    /// queued, then closes everything and removes the socket.
    func stop(grace: TimeAmount, reason: EndReason) -> EventLoopFuture<Void> {
        reader?.stop()
        return eventLoop.flatSubmit { [self] in
            httpSource?.stop()
            for output in outputs { output.stop() }
            // Stop listening before subscribers hear `end`: one that connects again at once (as after
            // `restartedByReload`) must find no socket, or the new stream's, never this listener's backlog,
            // whose connections its closing resets.
            let closed = stopListening()
            if state != .ended { pipeline.finish(reason) }
            state = .stopped
            return finish(afterClosing: closed, grace: grace)
        }
    }

    /// Applies a reload that changed only the subscriber limits or the socket's mode and owner (see
    /// `StreamReload.adjust(to:)`): subscribers stay connected and get the new limits from their next message; a
    /// socket file the daemon made gets the new mode and owner, one systemd passed is left as its unit says.
    /// Succeeds once every hub has the new limits; a failed chmod or chown is logged and changes nothing else.
    func adjust(to newConfig: StreamConfig) -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [self] in
            let socketChanged = newConfig.socket != config.socket
            config = newConfig
            if socketChanged, listener?.createdFile != nil {
                do {
                    try SocketFile.applyOwnership(newConfig.socket)
                } catch {
                    logger.error("socket mode and owner not changed: \(error)")
                }
            }
            logger.info("new limits and socket settings applied without a restart")
            return hubs.update(limits: newConfig.limits)
        }
    }

    /// The first message of every subscriber.
    func welcome(allocator: ByteBufferAllocator) -> ByteBuffer {
        WireEncoding.message(.welcome, json: .object([
            ("protocol", .number(WireProtocol.version)), ("stream", .string(name)),
        ]), allocator: allocator)
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
        return shards.map { [self] shards in
            .object([
                ("name", .string(name)), ("source", .string(config.source.description)),
                ("state", .string(state.rawValue)), ("socket", .string(config.socket.path)),
                ("mount", hasHTTPServer && config.http ? .string(config.mount) : .null),
                ("limits", config.limits.json),
                ("uptimeSeconds", .number((NIODeadline.now() - startedAt).nanoseconds / 1_000_000_000)),
            ] + sourceStatus + pipeline.statistics.json + [
                ("bytesOut", .number(shards.reduce(0) { $0 + $1.sentBytes })),
                ("slowDisconnects", .number(shards.reduce(0) { $0 + $1.slowDisconnects })),
                ("subscribers", .array(shards.flatMap(\.subscribers))),
                ("listeners", .array(shards.flatMap(\.listeners))),
                ("waitingListeners", .number(shards.reduce(0) { $0 + $1.waiting })),
                ("outputs", .array(outputs.map(\.status))),
            ])
        }
    }

    /// The stream's entry in the HTTP server's `/status.json`.
    func mountStatus() -> EventLoopFuture<JSON> {
        let shards = hubs.map { hub in
            (listeners: hub.subscribers.count { $0.transport == .http }, info: hub.mountInfo)
        }
        return shards.map { [self] shards in
            let info = shards.first?.info
            return .object([
                ("name", .string(name)), ("mount", .string(config.mount)),
                ("listeners", .number(shards.reduce(0) { $0 + $1.listeners })),
                ("contentType", .optional(info?.contentType, JSON.string)),
                ("bitRate", .number(pipeline.statistics.measuredBitRate)),
                ("audioSeconds", .double((pipeline.statistics.audioSeconds * 1000).rounded() / 1000)),
            ])
        }
    }

    /// Sets the stream's gauges (subscribers, listeners, their lag) for a metrics reader.
    func updateMetrics() -> EventLoopFuture<Void> {
        hubs.map { $0.subscribers.map { (id: $0.id, seconds: $0.queuedSeconds, transport: $0.transport) } }
            .map { [self] lags in metrics.update(lags: lags.flatMap { $0 }) }
    }

    /// Subscribers, and whether a network source is away, for the service's status line.
    func summary() -> EventLoopFuture<(subscribers: Int, waitingForSource: Bool)> {
        hubs.map { $0.subscribers.count { $0.transport == .socket } }.map { [self] counts in
            (counts.reduce(0, +), httpSource.map { !$0.isConnected } ?? false)
        }
    }

    /// A network source's connection, reconnects and last error; nothing for stdin and files.
    private var sourceStatus: [(String, JSON)] {
        guard let httpSource else { return [] }
        return [
            ("connected", .bool(httpSource.isConnected)), ("reconnects", .number(httpSource.reconnects)),
            ("lastSourceError", .optional(lastSourceError, JSON.string)),
        ]
    }

    /// Runs on the reader's thread: parses the output on the event loop and waits for it.
    private func deliver(_ output: SourceReader.Output) -> Double? {
        let parsed = eventLoop.submit { [self] () -> Double? in
            switch output {
            case .bytes(let bytes, let restartsFile):
                let parsed = bytes.withUnsafeBytes { parse($0, restartsFile: restartsFile) }
                return parsed ? pipeline.audioSeconds : nil
            case .end(let failure):
                end(.sourceEnded(failure: failure))
                return nil
            }
        }
        return (try? parsed.wait()) ?? nil
    }

    /// Parses the source's next bytes; a stream the parser refuses ends at once.
    /// - Returns: false when the stream has ended.
    private func parse(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) -> Bool {
        do {
            try pipeline.ingest(bytes, restartsFile: restartsFile)
            return true
        } catch {
            end(.unsupportedFormat(error: "\(error)"))
            return false
        }
    }

    /// The source ran out, or its bytes cannot be read: nothing will come, so the stream ends for good.
    private func end(_ reason: EndReason) {
        guard state == .running else { return }
        reader?.stop()
        httpSource?.stop()
        for output in outputs { output.stop() }
        failure = reason.failure
        switch reason {
        case .unsupportedFormat(let error): logger.error("cannot parse the stream: \(error)")
        case .sourceEnded(let failure?): logger.error("source failed: \(failure)")
        default: logger.info("source ended")
        }
        pipeline.finish(reason)
        state = .ended
        finish(afterClosing: stopListening(), grace: .nanoseconds(Int64(config.limits.disconnectAfter * 1e9)))
            .whenComplete { [self] _ in onEnd(self) }
    }

    /// Stops listening: the socket file the daemon made goes at once, the listening channel when the future says.
    private func stopListening() -> EventLoopFuture<Void> {
        defer { listener = nil }
        return listener?.close() ?? eventLoop.makeSucceededVoidFuture()
    }

    /// Once the listener has `closed`, waits up to `grace` for subscribers to take their queues, then closes what
    /// is left.
    private func finish(afterClosing closed: EventLoopFuture<Void>, grace: TimeAmount) -> EventLoopFuture<Void> {
        metrics.destroy()
        let deadline = NIODeadline.now() + grace
        return closed.recover { _ in }.flatMap { [self] in waitForSubscribers(until: deadline) }.flatMap { [self] in
            hubs.map { $0.closeAll() }.map { _ in }
        }
    }

    private func waitForSubscribers(until deadline: NIODeadline) -> EventLoopFuture<Void> {
        hubs.map { $0.subscribers.count }.flatMap { [self] counts in
            guard counts.contains(where: { $0 > 0 }), NIODeadline.now() < deadline else {
                return eventLoop.makeSucceededVoidFuture()
            }
            return eventLoop.scheduleTask(in: .milliseconds(20)) {}.futureResult.flatMap { [self] in
                waitForSubscribers(until: deadline)
            }
        }
    }
}

/// A stream stopped before it had started.
struct StreamStoppedError: Error, CustomStringConvertible {
    var description: String { "stopped while starting" }
}

extension StreamService {
    /// Where a stream is in its life, as `audiostream status` shows it.
    enum State: String {
        case starting, running
        /// The source ran out for good: stdin closed, a file without loop at its end, an unreadable stream.
        case ended
        /// Stopped by a reload or shutdown.
        case stopped
    }
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
        }
    }
}

extension StreamService: HTTPSourceDelegate {
    func sourceConnected(_ info: HTTPStreamInfo) {
        pipeline.connected(info)
    }

    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool {
        guard state == .running else { return false }
        let packets = pipeline.statistics.packets
        return parse(audio, restartsFile: false) && pipeline.statistics.packets > packets
    }

    func sourceReceived(_ metadata: ICYMetadata) {
        pipeline.received(.icy(metadata))
    }

    func sourceChanged(_ state: SourceState) {
        if let error = state.error { lastSourceError = error }
        pipeline.sourceChanged(state)
    }

    func sourceEnded(failure: String?) {
        end(.sourceEnded(failure: failure))
    }
}
