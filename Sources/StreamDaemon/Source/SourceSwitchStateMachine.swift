import AudioStreamProtocol

/// The rules by which a stream's sources take the air: its main source, and the fallback that plays while the main
/// one is lost, started only then and stopped once the main one is back.
///
/// One source has the air at a time. A source that connects while another plays, or after nothing did, is probed:
/// its bytes are parsed on the side, and it takes the air at its first whole, confirmed frame. A main source whose
/// connection continues the stream it had (an HTTP station's reconnect, with no fallback to hand back from) feeds
/// the stream at once instead. A push source's clients are each an encoder of their own, so each is probed.
///
/// A main source that sends silence (as the stream's silence rule judges it) counts as lost too: it keeps the air
/// until the fallback's first confirmed frame, then its bytes are watched on the side until it has had sound long
/// enough to take the air back; should the fallback fail meanwhile, it has the air again, silent.
///
/// A pure state machine, in the shape of swift-nio's: each event is a `mutating` call that returns what the caller
/// must do, and the machine calls out to nothing, so every transition is tested without a channel.
struct SourceSwitchStateMachine {
    enum Role: Equatable, Sendable {
        case main, fallback
    }

    /// What the main source is doing while it does not have the air.
    enum MainCondition: Equatable, Sendable {
        /// Not connected: connecting, waiting to connect again, or a push mount waiting for a client.
        case absent
        /// Connected; its bytes are probed.
        case probing
        /// Connected again to the stream it had, with nothing to hand back from: its bytes go to the stream, and
        /// its first confirmed frame puts it back on the air.
        case resuming
        /// It will deliver nothing more.
        case ended
        /// Connected, but silent, while the fallback has the air: its bytes are watched for sound.
        case silent
    }

    /// What the fallback is doing while it does not have the air.
    enum FallbackCondition: Equatable, Sendable {
        /// Not running: there is none, or the main source has not been lost.
        case idle
        /// Running; its bytes, once it connects, are probed.
        case probing
        /// It ended or failed while the main source was lost; it starts again at the main source's next loss.
        case failed
    }

    enum State: Equatable, Sendable {
        /// Not started.
        case idle
        /// The main source has the air, the fallback does not run.
        case main
        /// The main source has the air but is silent: the fallback, if there is one, is started to take it.
        case quiet(fallback: FallbackCondition)
        /// Nothing has the air.
        case away(main: MainCondition, fallback: FallbackCondition)
        /// The fallback has the air.
        case fallback(main: MainCondition)
        /// The stream ended: nothing more will come.
        case ended
        /// Stopped from outside (a reload, the daemon stopping).
        case stopped
        /// On demand, with no one to hear it: the main source is stopped until someone comes. Nothing is off the
        /// air: a listener that comes is taken, and hears the main source once it has connected.
        case asleep
    }

    /// Where a source's bytes go now.
    enum Destination: Equatable, Sendable {
        /// The stream's pipeline: the source has the air, or is the main one resuming.
        case stream
        /// The source's probe.
        case probe
        /// The silent main source's watch, which hears when it has sound again.
        case watch
        /// Nowhere: the source is stopped, or its bytes are not wanted.
        case nowhere
    }

    /// What the caller does after an event, in order.
    enum Action: Equatable, Sendable {
        case startMain
        case stopMain
        case startFallback
        case stopFallback
        /// The source connected: its station goes to the stream at once (the main source, feeding it).
        case announceConnection(Role)
        /// The source connected: its station is kept and its bytes are probed afresh, until it takes the air.
        case beginProbe(Role)
        /// The source takes the air: what it said and sent while probed goes to the stream, as a new file unless
        /// `resumes` (it was the last on the air and its bytes continue what it sent then).
        case putOnAir(Role, resumes: Bool)
        /// Subscribers hear the source's condition.
        case report(SourceState)
        /// Nothing is on the air from now on, until `backOnAir`.
        case offAir
        case backOnAir
        /// The stream ends, with the failure, if any.
        case end(failure: String?)
    }

    private(set) var state = State.idle
    /// Whether each client of the main source is an encoder of its own (a push source), probed before the air.
    let mainTakesClients: Bool
    let hasFallback: Bool
    /// Whether the main source connects only while someone is there to hear it (`wake()`, `sleep()`): a station,
    /// with no fallback.
    let onDemand: Bool
    /// The source that fed the stream last: its bytes continue them.
    private var lastOnAir = Role.main

    init(mainTakesClients: Bool, hasFallback: Bool, onDemand: Bool = false) {
        precondition(!onDemand || !mainTakesClients && !hasFallback, "on demand is for a station without a fallback")
        self.mainTakesClients = mainTakesClients
        self.hasFallback = hasFallback
        self.onDemand = onDemand
    }

    /// Which source has the air, if one does.
    var onAir: Role? {
        switch state {
        case .main, .quiet: .main
        case .fallback: .fallback
        case .idle, .away, .ended, .stopped, .asleep: nil
        }
    }

    /// Whether the fallback runs (probed, or on the air).
    var isFallbackRunning: Bool {
        switch state {
        case .away(_, .probing), .fallback, .quiet(.probing): true
        case .idle, .main, .away, .quiet, .ended, .stopped, .asleep: false
        }
    }

    /// Where `role`'s bytes go now.
    func destination(of role: Role) -> Destination {
        switch (state, role) {
        case (.main, .main), (.quiet, .main), (.fallback, .fallback), (.away(.resuming, _), .main): .stream
        case (.away(.probing, _), .main), (.fallback(.probing), .main), (.away(_, .probing), .fallback),
             (.quiet(.probing), .fallback): .probe
        case (.fallback(.silent), .main): .watch
        default: .nowhere
        }
    }

    // MARK: - Events

    /// The stream starts: a push source waits for its first client, the fallback playing meanwhile.
    /// Starts the sources; on demand, none starts until `wake()`.
    mutating func start() -> [Action] {
        guard state == .idle else { return [] }
        guard !onDemand else {
            state = .asleep
            return [.report(.idle)]
        }
        guard mainTakesClients else {
            state = .main
            return [.startMain]
        }
        state = .away(main: .absent, fallback: hasFallback ? .probing : .idle)
        return hasFallback ? [.startMain, .offAir, .startFallback] : [.startMain]
    }

    /// On demand, someone came to hear the stream: the main source connects, and has the air from its first byte.
    mutating func wake() -> [Action] {
        guard state == .asleep else { return [] }
        state = .main
        return [.startMain]
    }

    /// On demand, no one has been there for a while: the main source is stopped, connected or not, and the
    /// stream is not off the air meanwhile.
    mutating func sleep() -> [Action] {
        guard onDemand else { return [] }
        switch state {
        case .main:
            state = .asleep
            return [.stopMain, .report(.idle)]
        case .away:
            state = .asleep
            return [.stopMain, .backOnAir, .report(.idle)]
        default:
            return []
        }
    }

    /// The stream stops: nothing more reaches it.
    mutating func stop() -> [Action] {
        guard state != .stopped else { return [] }
        let wasRunning = isFallbackRunning
        state = .stopped
        return wasRunning ? [.stopMain, .stopFallback, .backOnAir] : [.stopMain, .backOnAir]
    }

    /// A network source began a response, or a push source took a client.
    mutating func connected(_ role: Role) -> [Action] {
        switch (state, role) {
        case (.main, .main):
            // A station's first response, its bytes the stream's from the start.
            return [.announceConnection(.main)]
        case (.away(.absent, let fallback), .main):
            // Resuming is only for bytes that follow the main source's own: not after a fallback's.
            guard fallback == .probing || mainTakesClients || lastOnAir != .main else {
                state = .away(main: .resuming, fallback: fallback)
                return [.announceConnection(.main)]
            }
            state = .away(main: .probing, fallback: fallback)
            return [.beginProbe(.main)]
        case (.fallback(.absent), .main):
            state = .fallback(main: .probing)
            return [.beginProbe(.main)]
        case (.away(_, .probing), .fallback), (.quiet(.probing), .fallback):
            return [.beginProbe(.fallback)]
        default:
            return []
        }
    }

    /// The source's probe found a whole, confirmed frame: the source takes the air.
    mutating func confirmedByProbe(_ role: Role) -> [Action] {
        guard destination(of: role) == .probe else { return [] }
        switch (state, role) {
        case (.away(.probing, let fallback), .main):
            return mainBack(stoppingFallback: fallback == .probing)
        case (.fallback(.probing), .main):
            return mainBack(stoppingFallback: true)
        case (.away(let main, .probing), .fallback):
            state = .fallback(main: main)
            return [.report(.fallback), putOnAir(.fallback), .backOnAir]
        case (.quiet(.probing), .fallback):
            state = .fallback(main: .silent)
            return [.report(.fallback), putOnAir(.fallback)]
        default:
            return []
        }
    }

    /// The stream confirmed a frame of the main source resuming: it has the air again.
    mutating func confirmedByStream(_ role: Role) -> [Action] {
        guard role == .main, case .away(.resuming, _) = state else { return [] }
        state = .main
        lastOnAir = .main
        return [.backOnAir]
    }

    /// The source says how it is: every main source's condition reaches subscribers unless a fallback runs, which
    /// has the air while the main one tries to come back. A loss (`state.error`) takes it off the air.
    mutating func changed(_ role: Role, to condition: SourceState) -> [Action] {
        guard state != .stopped, state != .ended else { return [] }
        var actions: [Action] = role == .main && !isFallbackRunning ? [.report(condition)] : []
        guard let error = condition.error else { return actions }
        switch (state, role) {
        case (.main, .main):
            actions += mainLeft(.absent)
        case (.quiet(.probing), .main):
            state = .away(main: .absent, fallback: .probing)
            actions.append(.offAir)
        case (.quiet, .main):
            actions += mainLeft(.absent)
        case (.away(.probing, let fallback), .main), (.away(.resuming, let fallback), .main):
            state = .away(main: .absent, fallback: fallback)
        case (.fallback(.probing), .main), (.fallback(.silent), .main):
            state = .fallback(main: .absent)
        case (.fallback(.silent), .fallback):
            // Still running: it may connect again, and is probed then; the silent main has the air meanwhile.
            state = .quiet(fallback: .probing)
            actions += [.report(.lost(error: "fallback: \(error)")), putOnAir(.main)]
        case (.fallback(let main), .fallback):
            // Still running: it may connect again, and is probed then.
            state = .away(main: main, fallback: .probing)
            actions += [.offAir, .report(.lost(error: "fallback: \(error)"))]
        default:
            break
        }
        return actions
    }

    /// The source will deliver nothing more. The main one hands over to the fallback for good, if there is one; a
    /// fallback leaves the stream off the air until the main one is back. With neither, the stream ends.
    mutating func ended(_ role: Role, failure: String?) -> [Action] {
        switch (state, role) {
        case (.main, .main), (.quiet(.idle), .main), (.quiet(.failed), .main):
            guard hasFallback else { return endStream(failure) }
            return mainLeft(.ended)
        case (.quiet(.probing), .main):
            state = .away(main: .ended, fallback: .probing)
            return [.offAir]
        case (.away(_, let fallback), .main):
            guard fallback == .probing else { return endStream(failure) }
            state = .away(main: .ended, fallback: .probing)
            return []
        case (.fallback, .main):
            state = .fallback(main: .ended)
            return []
        case (.away(.ended, _), .fallback), (.fallback(.ended), .fallback):
            return [.stopFallback] + endStream(failure)
        case (.away(let main, .probing), .fallback):
            state = .away(main: main, fallback: .failed)
            return [.stopFallback]
        case (.quiet(.probing), .fallback):
            state = .quiet(fallback: .failed)
            return [.stopFallback]
        case (.fallback(.silent), .fallback):
            state = .quiet(fallback: .failed)
            return [.stopFallback, .report(.lost(error: "fallback: \(failure ?? "ended")")), putOnAir(.main)]
        case (.fallback(let main), .fallback):
            state = .away(main: main, fallback: .failed)
            return [.stopFallback, .offAir, .report(.lost(error: "fallback: \(failure ?? "ended")"))]
        default:
            return []
        }
    }

    /// The source on the air, `role`, has been silent for the silence rule's delay. The main source counts as
    /// lost: it keeps the air until the fallback's first confirmed frame, or for good without a fallback, its
    /// silence told. A silent fallback changes nothing: there is nothing else to play.
    mutating func silenced(_ role: Role) -> [Action] {
        guard role == .main, state == .main else { return [] }
        state = .quiet(fallback: hasFallback ? .probing : .idle)
        return hasFallback ? [.report(.silent), .startFallback] : [.report(.silent)]
    }

    /// The silent main source has had sound for the silence rule's `back` seconds: it plays on, or takes the air
    /// back from the fallback.
    mutating func sounding(_ role: Role) -> [Action] {
        guard role == .main else { return [] }
        switch state {
        case .quiet(let fallback):
            state = .main
            return (fallback == .probing ? [.stopFallback] : []) + [.report(.restored)]
        case .fallback(.silent):
            return mainBack(stoppingFallback: true)
        default:
            return []
        }
    }

    /// Whether the main source is judged silent.
    var isMainSilent: Bool {
        switch state {
        case .quiet, .fallback(.silent): true
        default: false
        }
    }

    // MARK: - Transitions shared by several events

    /// The main source back on the air from its probe.
    private mutating func mainBack(stoppingFallback: Bool) -> [Action] {
        state = .main
        var actions: [Action] = stoppingFallback ? [.stopFallback] : []
        if hasFallback { actions.append(.report(.restored)) }
        return actions + [putOnAir(.main), .backOnAir]
    }

    /// The main source lost the air, as `condition` says: the fallback starts, if there is one.
    private mutating func mainLeft(_ condition: MainCondition) -> [Action] {
        state = .away(main: condition, fallback: hasFallback ? .probing : .idle)
        return hasFallback ? [.offAir, .startFallback] : [.offAir]
    }

    private mutating func putOnAir(_ role: Role) -> Action {
        // A push source's client is a new encoder, never the one that fed the stream before.
        let resumes = role == lastOnAir && !(role == .main && mainTakesClients)
        lastOnAir = role
        return .putOnAir(role, resumes: resumes)
    }

    private mutating func endStream(_ failure: String?) -> [Action] {
        state = .ended
        return [.end(failure: failure)]
    }
}
