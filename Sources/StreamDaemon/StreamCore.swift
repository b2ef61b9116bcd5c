import AudioRecording
import AudioStreamProtocol
import Logging
import NIOCore

/// A stream's state and work on its event loop, behind its `StreamService`: the configuration, the listening
/// socket, the source, the pipeline and the outputs.
///
/// Confined to the stream's loop: `StreamService` reaches it there only, through a loop-bound box, and its network
/// source calls it there.
final class StreamCore {
    /// The stream's configuration; `adjust(to:)` changes it.
    private(set) var config: StreamConfig
    private let logger: Logger
    private let eventLoop: EventLoop
    private let group: EventLoopGroup
    private let hubs: HubGroup
    let pipeline: StreamPipeline
    /// The source, and its fallback.
    private let sources: SourceSwitch
    /// Connects the source while someone listens, for a stream on demand.
    private let demandWatch: DemandWatch?
    /// The Icecast mounts the stream pushes itself to, on the stream's loop.
    private let outputs: [IcecastOutput]
    /// Writes the stream's pieces when it is recorded.
    private var recording: RecordingWorker?
    private let startedAt = NIODeadline.now()
    private var listener: ListeningSocket?
    /// Sockets passed by systemd, one of which may be this stream's.
    private let inherited: InheritedSockets
    private let metrics: StreamMetrics
    private var state = State.starting
    /// The service in front, once started: what subscribers join and `onEnd` is told about.
    private weak var service: StreamService?
    /// Called once the source has ended and the subscribers have been served, with the failure if any.
    private let onEnd: @Sendable (StreamService, _ failure: String?) -> Void

    init(config: StreamConfig, group: EventLoopGroup, eventLoop: EventLoop, hubs: HubGroup, deadAir: DeadAir,
         hlsDesks: HLSDesks?, inherited: InheritedSockets, metrics: StreamMetrics, logger: Logger,
         onEnd: @escaping @Sendable (StreamService, _ failure: String?) -> Void) {
        self.config = config
        self.group = group
        self.eventLoop = eventLoop
        self.hubs = hubs
        self.inherited = inherited
        self.metrics = metrics
        self.logger = logger
        self.onEnd = onEnd
        let recording = config.record.map { RecordingWorker(config: $0, stream: config.name, logger: logger) }
        self.recording = recording
        let hls = config.hls.flatMap { hls in
            hlsDesks.map { HLSOrigin(config: hls, stream: config.name, desks: $0, eventLoop: eventLoop, logger: logger) }
        }
        let levels = config.monitor.isActive
            ? StreamLevels(config: config.monitor, stream: config.name, logger: logger) : nil
        pipeline = StreamPipeline(streamName: config.name, hubs: hubs, eventLoop: eventLoop, logger: logger,
                                  metrics: metrics, recording: recording, hls: hls, levels: levels)
        outputs = config.outputs.map {
            IcecastOutput(config: $0, hubs: hubs, eventLoop: eventLoop, logger: logger, stream: config.name)
        }
        sources = SourceSwitch(main: config.source, fallback: config.fallback, onDemand: config.onDemand != nil,
                               pipeline: pipeline, deadAir: deadAir, eventLoop: eventLoop, logger: logger,
                               reconnects: metrics.reconnects)
        demandWatch = config.onDemand.map { [sources] in
            DemandWatch(idle: $0, attendance: hubs.attendance, sources: sources, eventLoop: eventLoop, logger: logger)
        }
        sources.delegate = self
    }

    /// Listens on the stream's socket, subscribers joining `service`, then starts reading the source.
    func start(for service: StreamService) -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        self.service = service
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        return ListeningSocket.listen(
            subscribersOn: config.socket, name: config.name, inherited: inherited, group: group, eventLoop: eventLoop,
            logger: logger
        ) { pipeline, socket in try pipeline.addHandler(SubscriberConnection(stream: service, socket: socket)) }
            .flatMapThrowing { listener in
                let core = loopBound.value
                // Stopped while binding: the socket is no one's.
                guard core.state == .starting else {
                    _ = listener.close()
                    throw StreamStoppedError()
                }
                core.listener = listener
                core.state = .running
                core.logger.info(
                    "listening on \(core.config.socket.path)\(listener.createdFile == nil ? " (from systemd)" : "")")
                core.sources.start()
                core.demandWatch?.start()
                for output in core.outputs { output.start() }
            }
            .flatMapErrorThrowing { error in
                loopBound.value.destroyMetrics()
                throw error
            }
    }

    /// Stops the sources, sends the end event with `reason`, gives subscribers up
    /// to `grace` to take what is queued, then closes everything and removes the socket.
    func stop(grace: TimeAmount, reason: EndReason) -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        demandWatch?.stop()
        sources.stop()
        for output in outputs { output.stop() }
        // Stop listening before subscribers hear `end`: one that connects again at once (as after
        // `restartedByReload`) must find no socket, or the new stream's, never this listener's backlog,
        // whose connections its closing resets.
        let closed = stopListening()
        if state != .ended { pipeline.finish(reason) }
        state = .stopped
        return finish(afterClosing: closed, grace: grace)
    }

    /// See `StreamService.adjust(to:)`.
    func adjust(to newConfig: StreamConfig) -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        let socketChanged = newConfig.socket != config.socket
        config = newConfig
        if socketChanged, listener?.createdFile != nil {
            do {
                try SocketFile.applyOwnership(newConfig.socket)
            } catch {
                logger.error("socket mode and owner not changed: \(error)")
            }
        }
        changeRecording(to: newConfig.record)
        logger.info("new limits, socket and recording settings applied without a restart")
        return hubs.update(limits: newConfig.limits)
    }

    /// The stream's own part of `audiostream status`, before its subscribers'.
    func status(hasHTTPServer: Bool) -> [(String, JSON)] {
        eventLoop.preconditionInEventLoop()
        return [
            ("name", .string(config.name)), ("source", .string(config.source.description)),
            ("state", .string(state.rawValue)), ("socket", .string(config.socket.path)),
            ("mount", hasHTTPServer && config.http ? .string(config.mount) : .null),
            ("limits", config.limits.json),
            ("uptimeSeconds", .number((NIODeadline.now() - startedAt).nanoseconds / 1_000_000_000)),
        ] + sources.status + pipeline.statistics.json + [("recording", .optional(recording?.status, \.json))]
            + [("hlsListeners", .optional(pipeline.hls?.listeners(), JSON.number))] + (pipeline.levels?.status ?? [])
    }

    /// The outputs' part of `audiostream status`.
    var outputsStatus: [JSON] { outputs.map(\.status) }

    /// The stream's entry in the HTTP server's `/status.json`, given its listeners and its content type if known.
    func mountStatus(listeners: Int, contentType: String?) -> JSON {
        eventLoop.preconditionInEventLoop()
        return .object([
            ("name", .string(config.name)), ("mount", .string(config.mount)), ("listeners", .number(listeners)),
            ("contentType", .optional(contentType, JSON.string)),
            ("bitRate", .number(pipeline.statistics.measuredBitRate)),
            ("audioSeconds", .double((pipeline.statistics.audioSeconds * 1000).rounded() / 1000)),
        ])
    }

    func updateMetrics(lags: [(id: Int, seconds: Double, transport: Subscriber.Transport)]) {
        metrics.update(lags: lags, hlsListeners: pipeline.hls?.listeners())
    }

    /// What has the air, and since when.
    var air: MountAir { sources.air }

    /// The source client on the air, if one is.
    var sourceClient: ClientIdentity? { sources.sourceClient }

    /// Whether the main source is silent, for a stream that watches silence.
    var isMainSilent: Bool? { sources.isMainSilent }

    /// Whether the stream waits for its source: a network source away, and no fallback playing.
    var isWaitingForSource: Bool { sources.isWaiting }

    /// Offers the stream a source client: see `StreamSource.admit(_:codec:)`.
    func admitSource(_ request: SourceClientRequest) -> Result<PushSession, PushRefusal> {
        sources.admit(request)
    }

    /// Drops the main source's connection: see `SourceSwitch.dropSource()`.
    func dropSource() -> Bool {
        sources.dropSource()
    }

    /// Names what plays, for the source on the air: see `SourceSwitch.setTitle(_:)`.
    func setTitle(_ metadata: ICYMetadata) {
        sources.setTitle(metadata)
    }

    /// The source ran out, or its bytes cannot be read: nothing will come, so the stream ends for good.
    private func end(_ reason: EndReason) {
        guard state == .running else { return }
        demandWatch?.stop()
        sources.stop()
        for output in outputs { output.stop() }
        switch reason {
        case .unsupportedFormat(let error): logger.error("cannot parse the stream: \(error)")
        case .sourceEnded(let failure?): logger.error("source failed: \(failure)")
        default: logger.info("source ended")
        }
        pipeline.finish(reason)
        state = .ended
        let (service, onEnd) = (service, onEnd)
        finish(afterClosing: stopListening(), grace: .nanoseconds(Int64(config.limits.disconnectAfter * 1e9)))
            .whenComplete { _ in
                if let service { onEnd(service, reason.failure) }
            }
    }

    /// Forgets the stream's metrics: it stopped, or never started.
    private func destroyMetrics() {
        metrics.destroy()
        pipeline.levels?.destroy()
    }

    /// Stops listening: the socket file the daemon made goes at once, the listening channel when the future says.
    private func stopListening() -> EventLoopFuture<Void> {
        defer { listener = nil }
        return listener?.close() ?? eventLoop.makeSucceededVoidFuture()
    }

    /// Once the listener has `closed` and the recording is finished, waits up to `grace` for subscribers to take
    /// their queues, then closes what is left.
    private func finish(afterClosing closed: EventLoopFuture<Void>, grace: TimeAmount) -> EventLoopFuture<Void> {
        destroyMetrics()
        let deadline = NIODeadline.now() + grace
        let (hubs, eventLoop) = (hubs, eventLoop)
        let recorded = finishRecording()
        return closed.recover { _ in }.and(recorded).flatMap { _ in
            Self.waitForSubscribers(of: hubs, on: eventLoop, until: deadline)
        }.flatMap {
            hubs.map { $0.closeAll() }.map { _ in }
        }
    }

    private static func waitForSubscribers(of hubs: HubGroup, on eventLoop: EventLoop, until deadline: NIODeadline)
        -> EventLoopFuture<Void> {
        hubs.map { $0.subscribers.count }.flatMap { counts in
            guard counts.contains(where: { $0 > 0 }), NIODeadline.now() < deadline else {
                return eventLoop.makeSucceededVoidFuture()
            }
            return eventLoop.scheduleTask(in: .milliseconds(20)) {}.futureResult.flatMap {
                waitForSubscribers(of: hubs, on: eventLoop, until: deadline)
            }
        }
    }
}

extension StreamCore {
    /// Applies a reload's `record:`: the piece under way is finished, and recording goes on, starts or stops.
    private func changeRecording(to new: RecordConfig?) {
        switch (recording, new) {
        case (let worker?, let new?): worker.change(to: new, stream: config.name)
        case (nil, let new?):
            recording = RecordingWorker(config: new, stream: config.name, logger: logger)
            pipeline.record(with: recording)
        case (_?, nil):
            pipeline.record(with: nil)
            _ = finishRecording()
        case (nil, nil): break
        }
    }

    /// Finishes the piece under way; the future says when it is on disk.
    private func finishRecording() -> EventLoopFuture<Void> {
        defer { recording = nil }
        return recording?.finish(on: eventLoop) ?? eventLoop.makeSucceededVoidFuture()
    }
}

extension StreamCore {
    /// Where a stream is in its life, as `audiostream status` shows it.
    enum State: String {
        case starting, running
        /// The source ran out for good: stdin closed, a file without loop at its end, an unreadable stream.
        case ended
        /// Stopped by a reload or shutdown.
        case stopped
    }
}

extension StreamCore: SourceSwitchDelegate {
    func sourcesEnded(_ reason: EndReason) {
        end(reason)
    }
}
