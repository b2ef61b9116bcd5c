import AudioStreamProtocol
import Logging
import NIOCore
import NIOPosix

/// Pushes a stream to an Icecast mount as its source: `PUT` with `Expect: 100-continue`, then the stream's packets
/// at real-time pace, its titles through Icecast's admin interface; after any failure, connects again with
/// backoff and jitter.
///
/// Once connected it is a subscriber of the stream's hub on the stream's loop, so a server that cannot keep up
/// loses packets and is dropped by the same policy as any subscriber, and never delays the source, the
/// subscribers or the other outputs. Confined to the stream's event loop: its callbacks carry it there in a
/// `NIOLoopBound`, and `start` and `stop` check it.
final class IcecastOutput: SubscriberSink {
    let config: IcecastOutputConfig
    private let eventLoop: EventLoop
    private let hubs: HubGroup
    private let logger: Logger
    private let metrics: OutputMetrics
    private var backoff: ReconnectBackoff
    private var state = State.idle
    private var retry: Scheduled<Void>?
    /// Numbers connections, so that late events of an abandoned one are ignored.
    private var attempt = 0
    private(set) var reconnects = 0
    private(set) var lastError: String?
    /// The real-time clock of the current connection.
    private var pacer = RealTimePacer()
    private var wake: Scheduled<Void>?

    /// How long to wait for the stream's format before the first connection.
    static let formatWait = TimeAmount.seconds(1)
    static let connectTimeout = TimeAmount.seconds(10)
    /// A connection that streamed this long was healthy: the next failure waits the initial delay again.
    static let healthyAfter = TimeAmount.seconds(30)

    private enum State {
        case idle
        /// Connecting, or waiting for Icecast's `100 Continue`.
        case opening(Channel)
        case streaming(Channel, Subscriber, since: NIODeadline)
        case stopped
    }

    init(config: IcecastOutputConfig, hubs: HubGroup, eventLoop: EventLoop, logger: Logger, stream: String) {
        self.config = config
        metrics = OutputMetrics(stream: stream, output: config.url.withoutCredentials.absoluteString)
        self.hubs = hubs
        self.eventLoop = eventLoop
        var logger = logger
        logger[metadataKey: "output"] = "\(config.url.withoutCredentials.absoluteString)"
        self.logger = logger
        backoff = ReconnectBackoff(policy: config.reconnect)
    }

    /// The stream's hub, reached on the stream's loop only.
    private var hub: Hub { hubs.hub(on: eventLoop) }

    /// Whether audio is being sent now.
    var isConnected: Bool {
        if case .streaming = state { return true }
        return false
    }

    func start() {
        eventLoop.preconditionInEventLoop()
        connect()
    }

    /// Closes the connection and cancels any attempt to come.
    func stop() {
        eventLoop.preconditionInEventLoop()
        retry?.cancel()
        wake?.cancel()
        let previous = state
        state = .stopped
        switch previous {
        case .opening(let channel): channel.close(promise: nil)
        case .streaming(let channel, let subscriber, _):
            hub.remove(subscriber)
            channel.close(promise: nil)
        case .idle, .stopped: break
        }
        metrics.destroy()
    }

    private func connect() {
        guard case .idle = state else { return }
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        guard let info = hub.mountInfo, let host = config.url.host else {
            // The stream's format is not known yet: nothing has failed, so look again soon.
            retry = eventLoop.scheduleTask(in: Self.formatWait) { loopBound.value.connect() }
            return
        }
        attempt += 1
        let attempt = attempt
        ClientBootstrap(group: eventLoop)
            .connectTimeout(Self.connectTimeout)
            .channelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let output = loopBound.value
                    try channel.pipeline.syncOperations.addHandlers(
                        IcecastResponseReader(onStatus: { output.answered($0, attempt: attempt) },
                                              onClose: { output.failed("connection closed", attempt: attempt) }),
                        WritabilityRelay { if output.attempt == attempt { output.drainWhenWritable() } })
                }
            }
            .connect(host: host, port: config.url.port ?? 80)
            .whenComplete { result in
                let output = loopBound.value
                switch result {
                case .success(let channel):
                    guard output.attempt == attempt, case .idle = output.state else {
                        return channel.close(promise: nil)
                    }
                    output.state = .opening(channel)
                    channel.writeAndFlush(IcecastSourceRequest.put(output.config, info: info), promise: nil)
                case .failure(let error):
                    output.failed(NetworkErrorText.describe(error), attempt: attempt)
                }
            }
    }

    /// Icecast answered the `PUT`: `100 Continue` (or `200 OK` from a server that skips it) opens the mount.
    private func answered(_ status: Int?, attempt: Int) {
        guard self.attempt == attempt, case .opening(let channel) = state else { return }
        guard status == 100 || status == 200 else {
            return failed(status.map { "Icecast answered \($0)" } ?? "not an HTTP answer", attempt: attempt)
        }
        pacer = RealTimePacer()
        let subscriber = hub.add(self, hello: Hello(kinds: [.packets]), welcome: nil, transport: .output)
        state = .streaming(channel, subscriber, since: .now())
        metrics.noteConnected()
        if reconnects > 0 || lastError != nil { logger.info("source connected again") }
        subscriber.drain()
    }

    /// Logs the failure and connects again after the backoff's wait.
    private func failed(_ reason: String, attempt: Int) {
        guard self.attempt == attempt else { return }
        let since: NIODeadline?
        switch state {
        case .opening(let channel):
            channel.close(promise: nil)
            since = nil
        case .streaming(let channel, let subscriber, let connectedAt):
            hub.remove(subscriber)
            channel.close(promise: nil)
            since = connectedAt
        case .idle:
            since = nil
        case .stopped:
            return
        }
        if let since, NIODeadline.now() - since >= Self.healthyAfter { backoff.reset() }
        wake?.cancel()
        wake = nil
        state = .idle
        lastError = reason
        self.attempt += 1
        let delay = backoff.nextDelay()
        metrics.noteLost(willRetry: delay != nil)
        guard let delay else { return }
        reconnects += 1
        logger.warning("Icecast output lost: \(reason); connecting again in \(Double(delay.nanoseconds) / 1e9) s")
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        retry = eventLoop.scheduleTask(in: delay) { loopBound.value.connect() }
    }

    private var channel: Channel? {
        switch state {
        case .opening(let channel), .streaming(let channel, _, _): channel
        case .idle, .stopped: nil
        }
    }

    private func drainWhenWritable() {
        guard case .streaming(_, let subscriber, _) = state, isWritable else { return }
        subscriber.drain()
    }

    // MARK: - SubscriberSink

    /// Writable while the socket takes more and the audio sent is not ahead of real time.
    var isWritable: Bool {
        guard let channel, channel.isWritable else { return false }
        return !pacer.isAhead(now: .now())
    }

    func write(_ message: ByteBuffer) {
        channel?.write(message, promise: nil)
    }

    /// Packets go out as their bytes, paced by their durations; a title goes to Icecast's admin interface.
    func write(_ message: QueuedMessage) -> Int {
        if message.role == .icyMetadata {
            updateTitle(from: message.buffer)
            return 0
        }
        guard let bytes = message.listenerPayload else { return 0 }
        write(bytes)
        metrics.noteSent(bytes: bytes.readableBytes)
        if let audio = message.audio, let resume = pacer.sent(seconds: audio.seconds, now: .now()), wake == nil {
            let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
            wake = eventLoop.scheduleTask(deadline: resume) {
                let output = loopBound.value
                output.wake = nil
                output.drainWhenWritable()
            }
        }
        return bytes.readableBytes
    }

    func flush() {
        channel?.flush()
    }

    /// The hub dropped the output for staying behind, or the stream ended: a server too slow is tried again.
    func close(afterPendingWrites: Bool) {
        guard case .streaming = state else { return }
        failed(afterPendingWrites ? "the stream ended" : "Icecast fell behind the stream", attempt: attempt)
    }

    /// Sends the block's title to Icecast, for mounts whose format carries no titles of its own.
    private func updateTitle(from block: ByteBuffer) {
        guard hub.mountInfo?.carriesICYMetadata == true, let host = config.url.host,
              let title = block.withUnsafeReadableBytes({ ICYMetadata(block: UnsafeRawBufferPointer(rebasing: $0.dropFirst())) })?.streamTitle
        else { return }
        let request = IcecastSourceRequest.titleUpdate(config, title: title)
        let logger = logger
        ClientBootstrap(group: eventLoop)
            .connectTimeout(Self.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IcecastResponseReader(onStatus: { status in
                        if status != 200 { logger.warning("Icecast refused the title: \(status.map(String.init) ?? "no answer")") }
                        channel.close(promise: nil)
                    }, onClose: {}))
                }
            }
            .connect(host: host, port: config.url.port ?? 80)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    channel.writeAndFlush(request, promise: nil)
                    // An admin answer is immediate; a server that never answers does not keep the socket.
                    channel.eventLoop.scheduleTask(in: Self.connectTimeout) { channel.close(promise: nil) }
                case .failure(let error):
                    logger.warning("title not sent to Icecast: \(NetworkErrorText.describe(error))")
                }
            }
    }

    /// The output's part of `audiostream status`.
    var status: JSON {
        .object([
            ("icecast", .string(config.url.withoutCredentials.absoluteString)), ("connected", .bool(isConnected)),
            ("reconnects", .number(reconnects)), ("lastError", .optional(lastError, JSON.string)),
        ])
    }
}
