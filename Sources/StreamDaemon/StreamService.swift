import Logging
import NIOCore
import NIOPosix

/// One configured stream at run time: its listening socket, source reader, pipeline and hub.
///
/// Everything but `start` and `stop`'s callers runs on the stream's own event loop, which the hub, the pipeline
/// and every subscriber connection share, so none of them needs a lock.
final class StreamService: @unchecked Sendable {
    let config: StreamConfig
    let logger: Logger
    let eventLoop: EventLoop
    private let hub: Hub
    private let pipeline: StreamPipeline
    private let reader: SourceReader
    private let startedAt = NIODeadline.now()
    private var listener: Channel?
    private var state = State.starting
    /// Bytes sent to subscribers that have left.
    private var departedSentBytes = 0
    /// Called on the event loop once the source has ended and the subscribers have been served.
    private let onEnd: @Sendable (StreamService) -> Void

    init(config: StreamConfig, eventLoop: EventLoop, onEnd: @escaping @Sendable (StreamService) -> Void) {
        self.config = config
        self.eventLoop = eventLoop
        self.onEnd = onEnd
        var logger = Logger(label: "audiostreamd")
        logger[metadataKey: "stream"] = "\(config.name)"
        self.logger = logger
        hub = Hub(limits: config.limits)
        pipeline = StreamPipeline(hub: hub, logger: logger)
        reader = SourceReader(config: config.source)
    }

    /// Listens on the stream's socket, then starts reading the source.
    func start() -> EventLoopFuture<Void> {
        let path = config.socket.path
        do {
            try SocketFile.prepare(path)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return ServerBootstrap(group: eventLoop)
            .serverChannelOption(.backlog, value: 4096)
            // Small kernel and NIO buffers: what a slow subscriber lags is then in its own queue, where it is
            // counted in seconds and bounded, not in buffers nobody sees.
            .childChannelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(WireFrameDecoder()), SubscriberConnection(stream: self))
                }
            }
            .bind(unixDomainSocketPath: path)
            .flatMapThrowing { [self] channel in
                listener = channel
                try SocketFile.applyOwnership(config.socket)
                state = .running
                logger.info("listening on \(path)")
                reader.start { [self] output in deliver(output) }
            }
    }

    /// Stops the source, sends the end event, gives subscribers up to `grace` to take what is queued, then
    /// closes everything and removes the socket.
    func stop(grace: TimeAmount) -> EventLoopFuture<Void> {
        reader.stop()
        return eventLoop.flatSubmit { [self] in
            if state != .ended { pipeline.finish() }
            state = .stopped
            return finish(grace: grace)
        }
    }

    /// Adds a subscriber that said hello.
    func subscribe(_ connection: SubscriberConnection, hello: Hello) -> Subscriber {
        let welcome = WireEncoding.message(.welcome, json: .object([
            ("protocol", .number(WireProtocol.version)), ("stream", .string(config.name)),
        ]), allocator: hub.allocator)
        let subscriber = hub.add(connection, hello: hello, welcome: welcome)
        logger.debug("subscriber \(subscriber.id) joined", metadata: ["kinds": "\(hello.kinds.map(\.rawValue).sorted())"])
        return subscriber
    }

    func unsubscribe(_ subscriber: Subscriber) {
        departedSentBytes += subscriber.sentBytes
        hub.remove(subscriber)
        logger.debug("subscriber \(subscriber.id) left")
    }

    /// The stream's part of `audiostream status`.
    func status() -> EventLoopFuture<JSON> {
        eventLoop.submit { [self] in
            let now = NIODeadline.now()
            let subscribers = hub.subscribers.map { subscriber in
                JSON.object([
                    ("id", .number(subscriber.id)),
                    ("kinds", .array(Hello.Kind.allCases.filter(subscriber.hello.kinds.contains).map { .string($0.rawValue) })),
                    ("lagSeconds", .double((subscriber.queuedSeconds * 1000).rounded() / 1000)),
                    ("droppedPackets", .number(subscriber.droppedPackets)), ("bytesOut", .number(subscriber.sentBytes)),
                    ("connectedSeconds", .number((now - subscriber.connectedAt).nanoseconds / 1_000_000_000)),
                ])
            }
            let bytesOut = departedSentBytes + hub.subscribers.reduce(0) { $0 + $1.sentBytes }
            return .object([
                ("name", .string(config.name)), ("source", .string(config.source.description)),
                ("state", .string(state.rawValue)), ("socket", .string(config.socket.path)),
                ("uptimeSeconds", .number((now - startedAt).nanoseconds / 1_000_000_000)),
            ] + pipeline.statistics.json + [
                ("bytesOut", .number(bytesOut)), ("slowDisconnects", .number(hub.disconnectedSlow)),
                ("subscribers", .array(subscribers)),
            ])
        }
    }

    /// Runs on the reader's thread: parses the output on the event loop and waits for it.
    private func deliver(_ output: SourceReader.Output) -> Double? {
        let parsed = eventLoop.submit { [self] () -> Double? in
            switch output {
            case .bytes(let bytes, let discontinuity):
                if pipeline.ingest(bytes, discontinuity: discontinuity) { return pipeline.audioSeconds }
                sourceEnded(failure: "unreadable stream")
                return nil
            case .end(let failure):
                sourceEnded(failure: failure)
                return nil
            }
        }
        return (try? parsed.wait()) ?? nil
    }

    /// The source ran out: stdin and files without loop cannot start again, so the stream ends for good.
    private func sourceEnded(failure: String?) {
        guard state == .running else { return }
        reader.stop()
        if let failure {
            logger.error("source failed: \(failure)")
        } else {
            logger.info("source ended")
        }
        pipeline.finish()
        state = .ended
        finish(grace: .nanoseconds(Int64(config.limits.disconnectAfter * 1e9))).whenComplete { [self] _ in onEnd(self) }
    }

    /// Stops listening, waits up to `grace` for subscribers to take their queues, then closes what is left.
    private func finish(grace: TimeAmount) -> EventLoopFuture<Void> {
        let closed = listener?.close() ?? eventLoop.makeSucceededVoidFuture()
        listener = nil
        SocketFile.remove(config.socket.path)
        let deadline = NIODeadline.now() + grace
        return closed.recover { _ in }.flatMap { [self] in waitForSubscribers(until: deadline) }.map { [self] in
            hub.closeAll()
        }
    }

    private func waitForSubscribers(until deadline: NIODeadline) -> EventLoopFuture<Void> {
        guard !hub.subscribers.isEmpty, NIODeadline.now() < deadline else { return eventLoop.makeSucceededVoidFuture() }
        return eventLoop.scheduleTask(in: .milliseconds(20)) {}.futureResult.flatMap { [self] in
            waitForSubscribers(until: deadline)
        }
    }
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

extension SourceConfig: CustomStringConvertible {
    public var description: String {
        switch self {
        case .standardInput: "stdin"
        case .file(let path, _, _): "file:\(path)"
        }
    }
}
