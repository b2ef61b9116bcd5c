import AudioStreamProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs the configured streams: starts them, applies a changed configuration, stops them.
///
/// What changes is in `state`, bound to `eventLoop`, so reloads, stops and stream endings happen one at a time;
/// every entry point hops there.
final class Supervisor: Sendable {
    private let configFile: String
    let group: MultiThreadedEventLoopGroup
    let eventLoop: EventLoop
    let logger = Logger(label: "audiostreamd")
    private let startedAt = NIODeadline.now()
    let systemd: SystemdContext
    /// Event loops that have answered the last health check, counted on any loop.
    let answers = NIOLockedValueBox(0)
    /// Succeeds when the daemon has stopped, with its exit status.
    let finished: EventLoopPromise<Int32>
    /// Serves the streams over HTTP, when configured; its mounts follow the running streams.
    let httpServer: HTTPServer?
    /// The supervisor's changing state, reached on `eventLoop` only.
    let state: NIOLoopBoundBox<State>
    /// Where the HTTP listeners of every stream on each loop are sent to.
    private let sendRings: SendRings
    /// The daemon's own requests to other servers: a master's mount list, overflow peers' statistics.
    let outbound: OutboundHTTP
    /// The overflow peers of the HTTP server and of its mounts, polled while configured.
    let peers: OverflowPeers

    /// How long subscribers get to take their queues on shutdown.
    static let shutdownGrace = TimeAmount.seconds(2)

    init(configFile: String, config: DaemonConfig, group: MultiThreadedEventLoopGroup, systemd: SystemdContext) {
        self.configFile = configFile
        self.systemd = systemd
        self.group = group
        let eventLoop = group.next()
        self.eventLoop = eventLoop
        finished = eventLoop.makePromise()
        let state = NIOLoopBoundBox.makeBoxSendingValue(State(config: config), eventLoop: eventLoop)
        self.state = state
        sendRings = SendRings(loops: Array(group.makeIterator()), logger: logger)
        outbound = OutboundHTTP(group: group)
        let peers = OverflowPeers(client: outbound, eventLoop: eventLoop, logger: logger)
        self.peers = peers
        httpServer = config.http.map { [outbound, logger] http in
            let auth = http.auth.map { ListenerAuth(config: $0, client: outbound, logger: logger) }
            return HTTPServer(config: http, peers: peers, auth: auth) { Self.mountStatus(of: state) }
        }
    }

    /// Starts the control socket and every stream; fails if any of them cannot start.
    func start() -> EventLoopFuture<Void> {
        eventLoop.flatSubmit { [self] in
            let config = state.value.config
            let starts = state.value.streamConfigs.map(startStream) + [startControl(config.controlSocket)]
            startRelay(config.relay)
            return EventLoopFuture.andAllSucceed(starts, on: eventLoop)
        }
    }

    /// Re-reads the configuration and applies it as `StreamReload` says: new streams start, removed ones stop,
    /// changed ones restart, and those whose limits or socket mode and owner alone changed get them while their
    /// subscribers stay; unchanged streams and their subscribers are left alone. A bad file changes nothing. A
    /// reload asked for while one is under way runs once that one is done, with the file as it is then. The access
    /// log is reopened at once, as log rotation expects.
    func reload() {
        eventLoop.execute { [self] in
            let state = self.state.value
            guard !state.stopping else { return }
            reopenAccessLog()
            if state.reloadPhase == .idle {
                readForReload()
            } else {
                state.reloadRequested = true
            }
        }
    }

    /// Reads and checks the file on the blocking-I/O thread pool, so that a slow one (a network mount, a FIFO
    /// nobody writes yet) holds up no loop and no stream, then applies it here.
    private func readForReload() {
        systemd.notifier?.reloading()
        state.value.reloadPhase = .reading
        let file = configFile
        NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) { try ConfigLoader(file: file).load() }
            .whenComplete { [self] result in
                guard !state.value.stopping else { return reloadFinished() }
                switch result {
                case .success(let newConfig):
                    logger.info("reloading \(configFile)")
                    apply(newConfig)
                case .failure(let error):
                    logger.error("reload refused, keeping the running configuration: \(error)")
                    reloadFinished()
                }
            }
    }

    /// Runs `newConfig`'s streams and those relaying the master's mounts listed last, starting, stopping and
    /// changing the running ones as `StreamReload` says.
    func apply(_ newConfig: DaemonConfig) {
        let state = self.state.value
        if newConfig.metrics != state.config.metrics {
            logger.warning("metrics stay \(state.config.metrics.map { "at \($0)" } ?? "off") until the next start")
        }
        if newConfig.http != state.config.http {
            logger.warning(
                "the HTTP server stays \(state.config.http.map { "at \($0.address)" } ?? "off") until the next start")
        }
        state.reloadPhase = .applying
        state.relayChanged = false
        if newConfig.relay != state.config.relay {
            if newConfig.relay?.master != state.config.relay?.master { state.relayMounts = [] }
            startRelay(newConfig.relay)
        }
        let oldStreams = state.streamConfigs
        state.streamConfigs = streamConfigs(of: newConfig, relaying: state.relayMounts)
        let wanted = Dictionary(uniqueKeysWithValues: state.streamConfigs.map { ($0.name, $0) })
        var changes: [EventLoopFuture<Void>] = []
        for old in oldStreams {
            guard let service = state.streams[old.name] else { continue }
            switch StreamReload(from: old, to: wanted[old.name]) {
            case .keep:
                break
            case .adjust(let new):
                changes.append(service.adjust(to: new))
            case .restart:
                changes.append(stopForReload(service, reason: .restartedByReload, "changed; restarting"))
            case .remove:
                changes.append(stopForReload(service, reason: .removedByReload, "removed"))
            }
        }
        state.config = newConfig
        // A stream that left the configuration (or the master's list) starts afresh when it comes back.
        state.endedStreams = state.endedStreams.filter { wanted[$0.key] != nil }
        // An ended stream's HLS stays served while the configuration that ended it does.
        state.endedHLS = state.endedHLS.filter { wanted[$0.key] != nil && wanted[$0.key] == state.endedStreams[$0.key] }
        EventLoopFuture.andAllComplete(changes, on: eventLoop).flatMap { [self] () -> EventLoopFuture<Void> in
            let state = self.state.value
            guard !state.stopping else { return eventLoop.makeSucceededVoidFuture() }
            // The control socket moves first: a stream may be given its old path.
            var starts: [EventLoopFuture<Void>] = []
            if state.control?.socket != newConfig.controlSocket {
                stopControl()
                starts.append(startControl(newConfig.controlSocket).recover { [self] in
                    logger.error("control socket not started: \($0)")
                })
            }
            for stream in state.streamConfigs
            where state.streams[stream.name] == nil && state.endedStreams[stream.name] != stream {
                starts.append(startStream(stream).recover { [self] in
                    logger.error("stream \(stream.name) not started: \($0)")
                })
            }
            return EventLoopFuture.andAllComplete(starts, on: eventLoop)
        }.whenComplete { [self] _ in
            updateMounts()
            reloadFinished()
        }
    }

    /// A reload was applied or refused: systemd hears that the daemon is ready again, and one asked for meanwhile
    /// runs now.
    private func reloadFinished() {
        let state = self.state.value
        state.reloadPhase = .idle
        guard !state.stopping else { return }
        // Before the daemon has started (a master's list came first), systemd hears it once it has.
        if state.started { announceReady() }
        if state.reloadRequested {
            state.reloadRequested = false
            readForReload()
        } else if state.relayChanged {
            state.reloadPhase = .applying
            apply(state.config)
        }
    }

    /// Starts a new access log file at its path: the old one was moved away by log rotation.
    private func reopenAccessLog() {
        guard let log = httpServer?.accessLog else { return }
        do {
            try log.reopen()
        } catch {
            logger.error("\(error); logging to the file opened before")
        }
    }

    /// Takes a stream out of the running ones and ends it at once, its subscribers told `reason`.
    private func stopForReload(_ service: StreamService, reason: EndReason, _ logLine: String)
        -> EventLoopFuture<Void> {
        state.value.streams[service.name] = nil
        updateMounts()
        service.logger.info("\(logLine)")
        return service.stop(grace: .zero, reason: reason)
    }

    /// Ends every stream, giving subscribers a moment to take what is queued, then reports `status`.
    func stop(status: Int32 = 0) {
        eventLoop.execute { [self] in
            let state = self.state.value
            guard !state.stopping else { return }
            state.stopping = true
            systemd.notifier?.stopping()
            logger.info("stopping")
            state.relay?.stop()
            state.relay = nil
            peers.stop()
            let stops = state.streams.values.map { $0.stop(grace: Self.shutdownGrace, reason: .daemonStopping) }
            state.streams.removeAll()
            updateMounts()
            EventLoopFuture.andAllComplete(stops, on: eventLoop).flatMap { [self] in
                httpServer?.sayGoodbye(on: eventLoop) ?? eventLoop.makeSucceededVoidFuture()
            }.flatMap { [outbound] in
                outbound.shutdown()
            }.whenComplete { [self] _ in
                stopControl()
                finished.succeed(status)
            }
        }
    }

    /// Serves each running stream that HTTP should serve at its mount, as the configuration has it now.
    private func updateMounts() {
        let state = self.state.value
        let served = state.streamConfigs.compactMap { stream -> (mount: String, service: StreamService)? in
            guard stream.http, let service = state.streams[stream.name] else { return nil }
            return (stream.mount, service)
        }
        let hls = served.map(\.service).filter { $0.hls != nil } + state.endedHLS.values
        httpServer?.mounts.replace(with: served, hls: hls)
        guard let httpServer, !state.stopping else { return }
        let overflow = ([httpServer.config.listeners] + state.streamConfigs.filter(\.http).map(\.listeners))
            .flatMap { $0.overflow ?? [] }
        peers.watch(Set(overflow))
    }

    /// The HTTP server's `/status.json`: the served streams and their listeners.
    private static func mountStatus(of state: NIOLoopBoundBox<State>) -> EventLoopFuture<JSON> {
        state.eventLoop.flatSubmit {
            let services = state.value.streamConfigs.filter(\.http).compactMap { state.value.streams[$0.name] }
            return EventLoopFuture.whenAllSucceed(services.map { $0.mountStatus() }, on: state.eventLoop).map {
                .object([("server", .string("audiostreamd")), ("streams", .array($0))])
            }
        }
    }

    /// The daemon's answer to `audiostream status`.
    func status() -> EventLoopFuture<JSON> {
        eventLoop.flatSubmit { [self] in
            let state = self.state.value
            let services = state.streamConfigs.compactMap { state.streams[$0.name] }
            let statuses = services.map { $0.status(hasHTTPServer: httpServer != nil) }
            return EventLoopFuture.whenAllSucceed(statuses, on: eventLoop).map { [self] streams in
                .object([
                    ("uptimeSeconds", .number((NIODeadline.now() - startedAt).nanoseconds / 1_000_000_000)),
                    ("streams", .array(streams)),
                ])
            }
        }
    }

    private func startStream(_ stream: StreamConfig) -> EventLoopFuture<Void> {
        let ended: @Sendable (StreamService, String?) -> Void = { [self] service, failure in
            eventLoop.execute { self.streamEnded(service, failure: failure) }
        }
        let service = StreamService(config: stream, group: group, sendRings: sendRings, inherited: systemd.sockets,
                                    deadAirTimeout: httpServer?.config.deadAirTimeout, onEnd: ended)
        state.value.streams[stream.name] = service
        state.value.endedHLS[stream.name] = nil
        return service.start().hop(to: eventLoop).map { [self] in
            updateMounts()
        }.flatMapErrorThrowing { [self] error in
            if state.value.streams[stream.name] === service { state.value.streams[stream.name] = nil }
            throw error
        }
    }

    /// A stream whose source ended for good is forgotten; when none is left, the daemon is done.
    private func streamEnded(_ service: StreamService, failure: String?) {
        let state = self.state.value
        guard state.streams[service.name] === service else { return }
        state.streams[service.name] = nil
        if service.hls != nil, state.streamConfigs.first(where: { $0.name == service.name })?.http == true {
            state.endedHLS[service.name] = service
        }
        updateMounts()
        state.endedStreams[service.name] = state.streamConfigs.first { $0.name == service.name }
        if failure != nil { state.streamsFailed += 1 }
        // A relay waits for the master's mounts, however few there are now.
        if state.streams.isEmpty && !state.stopping && state.reloadPhase != .applying && state.config.relay == nil {
            // Exit 1 when a source failed, so that a supervisor such as systemd restarts the daemon.
            logger.info("every stream has ended")
            stop(status: state.streamsFailed > 0 ? 1 : 0)
        }
    }

    private func startControl(_ socket: SocketConfig?) -> EventLoopFuture<Void> {
        guard let socket else { return eventLoop.makeSucceededVoidFuture() }
        let bootstrap = ServerBootstrap(group: eventLoop)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(WireFrameDecoder()),
                        ControlConnection { [self] command in command == "status" ? status() : nil })
                }
            }
        return ListeningSocket.listen(bootstrap, on: socket, name: "control",
                                      inherited: systemd.sockets, eventLoop: eventLoop)
            .hop(to: eventLoop)
            .map { [self] listener in
                state.value.control = (socket, listener)
                logger.info("control socket on \(socket.path)")
            }
    }

    private func stopControl() {
        let state = self.state.value
        guard let control = state.control else { return }
        _ = control.listener.close()
        state.control = nil
    }
}

extension Supervisor {
    /// What the supervisor changes as it goes, on its loop.
    final class State {
        /// The configuration file's settings.
        var config: DaemonConfig
        /// The streams to run: the configured ones, then those relaying the master's mounts.
        var streamConfigs: [StreamConfig]
        var streams: [String: StreamService] = [:]
        /// Reads the master's mount list, when the daemon is a relay.
        var relay: RelayListPoller?
        /// The mounts the master listed last.
        var relayMounts: [String] = []
        /// Whether the master listed other mounts while a reload was under way: they are applied after it.
        var relayChanged = false
        /// Whether the daemon has started: its streams, HTTP server and metrics (`started()`).
        var started = false
        /// Streams whose source ended for good: a reload starts them again only if their configuration changed.
        var endedStreams: [String: StreamConfig] = [:]
        /// Those of them with HLS: their playlist, ended, and its files stay served until a reload starts or
        /// removes them.
        var endedHLS: [String: StreamService] = [:]
        var control: (socket: SocketConfig, listener: ListeningSocket)?
        /// Event loops asked by the last health check, or nil before the first.
        var asked: Int?
        var stopping = false
        var reloadPhase = ReloadPhase.idle
        var reloadRequested = false
        /// Streams that ended because their source failed.
        var streamsFailed = 0

        init(config: DaemonConfig) {
            self.config = config
            streamConfigs = config.streams
        }
    }

    /// Where a reload is: its file being read off the loop, or its changes being applied.
    enum ReloadPhase {
        case idle, reading, applying
    }
}
