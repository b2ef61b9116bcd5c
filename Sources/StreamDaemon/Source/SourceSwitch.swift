import Foundation
import AudioFileStream
import AudioLoudness
import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// What a stream's `SourceSwitch` tells the stream.
protocol SourceSwitchDelegate: AnyObject {
    /// Nothing more will come, or what came cannot be parsed: the stream ends for `reason`.
    func sourcesEnded(_ reason: EndReason)
}

/// A stream's sources, its main one and the fallback that plays while the main one is lost, switched as
/// `SourceSwitchStateMachine` rules: this class carries out what the machine decides, starting and stopping the
/// sources, handing their bytes to the pipeline or to their probes, and telling the pipeline and the dead-air
/// clock when a source takes or leaves the air.
///
/// A source takes the air between packets: the pipeline's parser reads the bytes its probe kept as a new file,
/// with the source's own type hint, station and title. Confined to the stream's loop.
final class SourceSwitch {
    /// What a source's bytes came to.
    enum Uptake: Equatable {
        /// Not wanted: the source was stopped, or the stream ended.
        case refused
        /// Taken; `confirmed` once the source's bytes (of its connection, or since its probe began) held a whole,
        /// confirmed frame.
        case taken(confirmed: Bool)
    }

    private var machine: SourceSwitchStateMachine
    private let pipeline: StreamPipeline
    private let eventLoop: EventLoop
    private let logger: Logger
    private let fallbackConfig: SourceConfig?
    private let deadAir: DeadAir
    /// The stream, told when it ends.
    weak var delegate: SourceSwitchDelegate?
    private let main: (input: SourceInput, source: any StreamSource)
    /// The fallback, while it runs.
    private var fallback: (input: SourceInput, source: any StreamSource)?
    /// The codec source clients must send: the configured one, else the first the stream played.
    private var mountCodec: MountCodec?
    /// When the source on the air took it, once its audio came: nil while nothing plays.
    private var airSince: Date?

    /// Sources of a stream whose main source is `main`; `onDemand`, it connects only between `wake()` and
    /// `sleep()`.
    init(main: SourceConfig, fallback: SourceConfig?, onDemand: Bool = false, pipeline: StreamPipeline,
         deadAir: DeadAir, eventLoop: EventLoop, logger: Logger, reconnects: Counter?) {
        self.pipeline = pipeline
        self.eventLoop = eventLoop
        self.logger = logger
        fallbackConfig = fallback
        self.deadAir = deadAir
        self.main = SourceInput.make(main, role: .main, eventLoop: eventLoop, logger: logger, reconnects: reconnects)
        machine = SourceSwitchStateMachine(mainTakesClients: self.main.source.takesClients,
                                           hasFallback: fallback != nil, onDemand: onDemand)
        self.main.input.owner = self
        if case .push(let push) = main { mountCodec = push.codec }
        // Judged after the chunk under way: the judgement comes from inside the pipeline's parsing, on the loop.
        pipeline.levels?.onSilence = { [weak self] change in
            guard let self else { return }
            let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.execute { loopBound.value.judged(change) }
        }
    }

    /// Starts the main source, and the fallback if the main one has nothing to play until a client comes.
    func start() {
        eventLoop.preconditionInEventLoop()
        run(machine.start())
    }

    /// On demand, someone is there to hear the stream: the main source connects.
    func wake() {
        eventLoop.preconditionInEventLoop()
        run(machine.wake())
    }

    /// On demand, no one has been there for a while: the main source disconnects until `wake()`.
    func sleep() {
        eventLoop.preconditionInEventLoop()
        run(machine.sleep())
    }

    /// Whether the stream is on demand and no one is there: its main source is not connected.
    var isAsleep: Bool { machine.state == .asleep }

    /// Stops every source: nothing more reaches the pipeline.
    func stop() {
        eventLoop.preconditionInEventLoop()
        run(machine.stop())
    }

    /// Whether the stream waits for a source: none is on the air, or the one on the air has lost its connection.
    var isWaiting: Bool {
        switch machine.onAir {
        case .main: !main.source.isConnected
        case .fallback: !(fallback?.source.isConnected ?? false)
        case nil: true
        }
    }

    /// What has the air, and since when.
    var air: MountAir {
        guard let airSince, let role = machine.onAir else { return .off }
        return role == .main ? .main(since: airSince) : .fallback(since: airSince)
    }

    /// The stream's seconds of audio so far.
    var audioSeconds: Double { pipeline.audioSeconds }

    /// Offers the main source a source client: see `StreamSource.admit(_:codec:)`.
    func admit(_ request: SourceClientRequest) -> Result<PushSession, PushRefusal> {
        eventLoop.preconditionInEventLoop()
        return main.source.admit(request, codec: mountCodec)
    }

    /// The address and user agent of the source client on the air, if one is.
    var sourceClient: ClientIdentity? {
        machine.onAir == .main ? main.source.clientIdentity : nil
    }

    /// Drops the main source's connection, as Icecast's `killsource` drops a mount's source: a source client (a
    /// stuck DJ) leaves the mount to the next, a station is connected to again.
    /// - Returns: whether it had one.
    func dropSource() -> Bool {
        eventLoop.preconditionInEventLoop()
        return main.source.dropConnection(reason: "removed by an admin (killsource)")
    }

    /// Names what plays, as an ICY block from the source on the air would: it becomes that source's title.
    func setTitle(_ metadata: ICYMetadata) {
        eventLoop.preconditionInEventLoop()
        if let onAir = machine.onAir { input(for: onAir)?.note(metadata) }
        pipeline.received(.icy(metadata))
    }

    /// The main source's part of `audiostream status`, and with a fallback, what plays.
    var status: [(String, JSON)] {
        var status = main.source.status
        if !status.isEmpty { status.append(("lastSourceError", .optional(main.input.lastError, JSON.string))) }
        if let fallbackConfig {
            let onAir = machine.onAir.map { "\($0)" } ?? "away"
            status += [("fallback", .string(fallbackConfig.description)), ("onAir", .string(onAir))]
        }
        if let silent = isMainSilent { status.append(("silent", .bool(silent))) }
        if machine.onDemand { status.append(("asleep", .bool(isAsleep))) }
        return status
    }

    /// Whether the main source is silent, for a stream that watches silence.
    var isMainSilent: Bool? {
        pipeline.levels?.config.silence == nil ? nil : machine.isMainSilent
    }

    // MARK: - From the inputs

    func connected(_ info: HTTPStreamInfo, from input: SourceInput) {
        guard let role = role(of: input) else { return }
        input.connected(info, isNewEncoder: role == .main && machine.mainTakesClients)
        run(machine.connected(role))
    }

    /// Takes a source's bytes: to the pipeline while it has the air (or resumes it), else to its probe.
    func take(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool, from input: SourceInput) -> Uptake {
        guard let role = role(of: input) else { return .refused }
        if role == .main, pipeline.levels?.config.silence != nil { input.noteStart(bytes, restartsFile: restartsFile) }
        switch machine.destination(of: role) {
        case .nowhere:
            return .refused
        case .probe:
            guard input.probe(bytes, restartsFile: restartsFile) else { return .taken(confirmed: false) }
            if let refusal = codecRefusal(of: input) {
                _ = main.source.dropConnection(reason: refusal)
                return .refused
            }
            run(machine.confirmedByProbe(role))
            return self.role(of: input) == nil ? .refused : .taken(confirmed: true)
        case .watch:
            guard let rule = pipeline.levels?.config.silence else { return .refused }
            let levels = pipeline.levels
            if input.watch(bytes, rule: rule, silence: { levels?.noteSilence(seconds: $0) }) {
                logger.info("main source has sound again: \(rule.back.secondsText) s above \(rule.below) LUFS")
                run(machine.sounding(role))
            }
            // Known audio, whose frames came before: no bound on its first frame.
            return self.role(of: input) == nil ? .refused : .taken(confirmed: true)
        case .stream:
            let packets = pipeline.statistics.packets
            guard feed(bytes, restartsFile: restartsFile) else { return .refused }
            let confirmed = pipeline.statistics.packets > packets
            if confirmed {
                run(machine.confirmedByStream(role))
                if airSince == nil { airSince = Date() }
            }
            return .taken(confirmed: confirmed)
        }
    }

    /// A playlist's next item: cut to its range by the pipeline while the playlist has the air. (Probed, a
    /// fallback playlist takes the air with its item uncut, from the probe's start.)
    /// - Returns: whether the source is still wanted.
    func began(_ item: PlaylistItem, from input: SourceInput) -> Bool {
        guard let role = role(of: input) else { return false }
        guard machine.destination(of: role) == .stream else { return true }
        do {
            try pipeline.beginSegment(item)
            return true
        } catch {
            delegate?.sourcesEnded(.unsupportedFormat(error: "\(error)"))
            return false
        }
    }

    /// A playlist left an item out: subscribers hear why while it has the air, the log in any case.
    /// - Returns: whether the source is still wanted.
    func skipped(_ message: String, from input: SourceInput) -> Bool {
        guard let role = role(of: input) else { return false }
        if machine.destination(of: role) == .stream { pipeline.skipped(message) } else { logger.warning("\(message)") }
        return true
    }

    /// A network source's ICY block: its title, told to the stream while it has the air.
    func received(_ metadata: ICYMetadata, from input: SourceInput) {
        guard let role = role(of: input) else { return }
        input.note(metadata)
        if machine.destination(of: role) == .stream { pipeline.received(.icy(metadata)) }
    }

    /// A network source's condition.
    func changed(_ state: SourceState, from input: SourceInput) {
        guard let role = role(of: input) else { return }
        run(machine.changed(role, to: state))
    }

    /// A source will deliver nothing more.
    func ended(failure: String?, from input: SourceInput) {
        guard let role = role(of: input) else { return }
        if role == .fallback { logger.warning("fallback \(failure.map { "failed: \($0)" } ?? "ended")") }
        run(machine.ended(role, failure: failure))
    }

    /// The source on the air fell silent, or has sound again, as the stream's levels judge it; a judgement that
    /// another source's taking the air made stale (the levels no longer say it) is dropped.
    private func judged(_ change: SilenceWatch.Change) {
        guard let role = machine.onAir, let levels = pipeline.levels, let rule = levels.config.silence,
              levels.isSilent == (change == .silent) else { return }
        let name = role == .main ? "main source" : "fallback"
        switch change {
        case .silent:
            logger.warning("\(name) silent: below \(rule.below) LUFS for \(rule.after.secondsText) s")
            run(machine.silenced(role))
        case .sounding:
            logger.info("\(name) has sound again: \(rule.back.secondsText) s above \(rule.below) LUFS")
            run(machine.sounding(role))
        }
    }

    // MARK: - Carrying out the machine's actions

    private func run(_ actions: [SourceSwitchStateMachine.Action]) {
        for action in actions {
            switch action {
            case .startMain:
                main.source.start()
                // A source that feeds the stream from the start has the air from its first byte.
                if machine.onAir == .main { _ = main.input.takeAir(atAudioSeconds: pipeline.audioSeconds) }
            case .stopMain:
                main.source.stop()
            case .startFallback:
                startFallback()
            case .stopFallback:
                fallback?.source.stop()
                fallback = nil
            case .announceConnection(let role):
                if let station = input(for: role)?.announcements.station { pipeline.connected(station) }
            case .beginProbe(let role):
                input(for: role)?.beginProbe()
            case .putOnAir(let role, let resumes):
                if let input = input(for: role) { putOnAir(input, resumes: resumes) }
                judgeAfresh()
            case .report(let state):
                pipeline.sourceChanged(state)
            case .offAir:
                airSince = nil
                deadAir.began()
            case .backOnAir:
                deadAir.ended()
                judgeAfresh()
            case .end(let failure):
                delegate?.sourcesEnded(.sourceEnded(failure: failure))
            }
        }
    }

    /// A source took the air: its silence is judged from where the machine stands, silent only for a main that
    /// counts as such (on the air again for a fallback that failed), whatever was judged of the last one.
    private func judgeAfresh() {
        pipeline.levels?.assume(silent: machine.onAir == .main && machine.isMainSilent)
    }

    /// The input's source takes the air: the pipeline gets what it said and sent while it was probed.
    private func putOnAir(_ input: SourceInput, resumes: Bool) {
        switch input.role {
        case .main: logger.info(machine.mainTakesClients ? "source client on the air" : "main source back on the air")
        case .fallback: logger.info("fallback on the air")
        }
        airSince = Date()
        let kept = input.takeAir(atAudioSeconds: pipeline.audioSeconds)
        let announcements = input.announcements
        if resumes {
            if let station = announcements.station { pipeline.connected(station) }
        } else {
            do {
                try pipeline.handOver(to: announcements)
            } catch {
                delegate?.sourcesEnded(.unsupportedFormat(error: "\(error)"))
                return
            }
        }
        _ = kept.withUnsafeBytes { feed($0, restartsFile: false) }
    }

    private func startFallback() {
        guard let fallbackConfig else { return }
        logger.info("main source away: starting the fallback, \(fallbackConfig.description)")
        let fallback = SourceInput.make(fallbackConfig, role: .fallback, eventLoop: eventLoop, logger: logger,
                                        reconnects: nil)
        fallback.input.owner = self
        self.fallback = fallback
        fallback.source.start()
    }

    /// Why a source client whose probe confirmed a frame may not take the air: it sends another codec than the
    /// mount's.
    private func codecRefusal(of input: SourceInput) -> String? {
        guard input.role == .main, machine.mainTakesClients, let mountCodec, let format = input.probedFormat,
              MountCodec(format) != mountCodec
        else { return nil }
        return "it sends \(MountCodec(format)), and the mount plays \(mountCodec)"
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) -> Bool {
        do {
            try pipeline.ingest(bytes, restartsFile: restartsFile)
            // The first codec heard is the mount's, unless configured.
            if mountCodec == nil, let format = pipeline.statistics.format { mountCodec = MountCodec(format) }
            return true
        } catch {
            delegate?.sourcesEnded(.unsupportedFormat(error: "\(error)"))
            return false
        }
    }

    /// The role of `input`'s source, while it is one the switch runs and the stream goes on.
    private func role(of input: SourceInput) -> SourceSwitchStateMachine.Role? {
        switch machine.state {
        case .ended, .stopped: return nil
        default: return input === main.input ? .main : input === fallback?.input ? .fallback : nil
        }
    }

    /// The input of `role`'s source; nil for a fallback that does not run.
    private func input(for role: SourceSwitchStateMachine.Role) -> SourceInput? {
        role == .main ? main.input : fallback?.input
    }
}
