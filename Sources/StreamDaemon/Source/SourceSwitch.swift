import AudioFileStream
import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// What a stream's `SourceSwitch` tells the stream.
protocol SourceSwitchDelegate: AnyObject {
    /// Nothing more will come, or what came cannot be parsed: the stream ends for `reason`.
    func sourcesEnded(_ reason: EndReason)
}

/// A stream's sources: its main one, and the fallback that plays while the main one is lost, started only then
/// and stopped once the main one is back.
///
/// One source is on the air at a time, feeding the pipeline. Another goes on the air at its first whole, confirmed
/// frame, which a `SourceProbe` finds while the one on the air plays on; the pipeline's parser then reads its
/// bytes as a new file, from where the probe started: a switch falls between packets, with a discontinuity. A
/// main source that ends hands over to the fallback for good. Confined to the stream's loop.
final class SourceSwitch {
    /// What plays.
    enum OnAir: String {
        case main, fallback
        /// Nothing: the main source is lost, and no fallback plays (none, not yet, or failed).
        case away
    }

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
    private(set) var onAir = OnAir.main
    /// The input the pipeline parsed last: another's bytes start a new file.
    private var lastFed: SourceInput?
    /// The main source will deliver nothing more: the fallback plays for good.
    private var mainEnded = false
    private var stopped = false

    init(main: SourceConfig, fallback: SourceConfig?, pipeline: StreamPipeline, deadAir: DeadAir,
         eventLoop: EventLoop, logger: Logger, reconnects: Counter?) {
        self.pipeline = pipeline
        self.eventLoop = eventLoop
        self.logger = logger
        fallbackConfig = fallback
        self.deadAir = deadAir
        self.main = SourceInput.make(main, role: .main, eventLoop: eventLoop, logger: logger, reconnects: reconnects)
        lastFed = self.main.input
        self.main.input.owner = self
    }

    /// Starts the main source, and the fallback if the main one has nothing to play until a client comes.
    func start() {
        eventLoop.preconditionInEventLoop()
        main.source.start()
        if main.source.isAwayAtStart && fallbackConfig != nil { mainLost() }
    }

    /// Stops every source: nothing more reaches the pipeline.
    func stop() {
        eventLoop.preconditionInEventLoop()
        stopped = true
        main.source.stop()
        stopFallback()
        deadAir.ended()
    }

    /// Whether the stream waits for a source: none is on the air, or the one on the air has lost its connection.
    var isWaiting: Bool {
        switch onAir {
        case .main: !main.source.isConnected
        case .fallback: !(fallback?.source.isConnected ?? false)
        case .away: true
        }
    }

    /// The push source that source clients connect to, if the main source is one.
    var pushSource: PushSource? { main.source as? PushSource }

    /// The main source's part of `audiostream status`, and with a fallback, what plays.
    var status: [(String, JSON)] {
        var status = main.source.status
        if !status.isEmpty { status.append(("lastSourceError", .optional(main.input.lastError, JSON.string))) }
        if let fallbackConfig {
            status += [("fallback", .string(fallbackConfig.description)), ("onAir", .string(onAir.rawValue))]
        }
        return status
    }

    // MARK: - From the inputs

    func connected(_ info: HTTPStreamInfo, from input: SourceInput) {
        guard isCurrent(input) else { return }
        // A source client's stream is a new file, on the air from its first confirmed frame (see `PushSource`).
        let isClient = input === main.input && pushSource != nil
        if isClient, pipeline.statistics.bytesIn > 0 { lastFed = nil }
        guard feedsPipeline(input), !isClient else {
            input.station = info
            input.probe = SourceProbe(typeHint: info.contentType.flatMap(AudioFileType.init(hint:)))
            return
        }
        pipeline.connected(info)
    }

    /// A network source's audio.
    /// - Returns: whether it completed a whole, confirmed frame.
    func received(_ audio: UnsafeRawBufferPointer, from input: SourceInput) -> Bool {
        take(audio, restartsFile: false, from: input) ?? false
    }

    /// A reader's chunk.
    /// - Returns: the reader's seconds of audio on the air so far, or nil to stop reading.
    func received(_ chunk: UnsafeRawBufferPointer, restartsFile: Bool, from input: SourceInput) -> Double? {
        guard take(chunk, restartsFile: restartsFile, from: input) != nil else { return nil }
        return secondsOnAir(input)
    }

    /// A playlist's next item: cut to its range by the pipeline while the playlist is on the air. (Probed off the
    /// air, a fallback playlist goes on the air with its item uncut, from the probe's start.)
    /// - Returns: as `received(_:restartsFile:from:)`.
    func began(_ item: PlaylistItem, from input: SourceInput) -> Double? {
        guard isCurrent(input) else { return nil }
        if feedsPipeline(input) {
            do {
                try pipeline.beginSegment(item)
            } catch {
                delegate?.sourcesEnded(.unsupportedFormat(error: "\(error)"))
                return nil
            }
            // The segment's file is marked as new already.
            lastFed = input
        }
        return secondsOnAir(input)
    }

    /// A playlist left an item out: subscribers hear why while it is on the air, the log in any case.
    func skipped(_ message: String, from input: SourceInput) -> Double? {
        guard isCurrent(input) else { return nil }
        if feedsPipeline(input) { pipeline.skipped(message) } else { logger.warning("\(message)") }
        return secondsOnAir(input)
    }

    /// A reader's seconds of audio on the air so far, which pace it: none while it is probed off the air.
    private func secondsOnAir(_ input: SourceInput) -> Double {
        input.probe == nil ? pipeline.audioSeconds - input.audioSecondsAtStart : 0
    }

    func received(_ metadata: ICYMetadata, from input: SourceInput) {
        guard isCurrent(input) else { return }
        if feedsPipeline(input) { pipeline.received(.icy(metadata)) } else { input.metadata = metadata }
    }

    /// A network source's condition. The main one's is told to subscribers unless a fallback runs, which has the
    /// air while the main one tries to come back; the loss of the one on the air takes it off the air.
    func changed(_ state: SourceState, from input: SourceInput) {
        guard isCurrent(input) else { return }
        if input === main.input && fallback == nil { pipeline.sourceChanged(state) }
        guard let error = state.error else { return }
        switch (input.role, onAir) {
        case (.main, .main): mainLost()
        case (.fallback, .fallback): fallbackLost(error)
        default: break
        }
    }

    /// A source will deliver nothing more: the main one hands over to the fallback for good, if there is one; a
    /// fallback leaves the stream off the air until the main one is back. With neither, the stream ends.
    func ended(failure: String?, from input: SourceInput) {
        guard isCurrent(input) else { return }
        if input === main.input {
            mainEnded = true
            if onAir == .main { mainLost() }
            if fallback == nil { delegate?.sourcesEnded(.sourceEnded(failure: failure)) }
            return
        }
        stopFallback()
        guard !mainEnded else {
            delegate?.sourcesEnded(.sourceEnded(failure: failure))
            return
        }
        logger.warning("fallback \(failure.map { "failed: \($0)" } ?? "ended")")
        if onAir == .fallback { fallbackLost(failure ?? "ended") }
        // The main source's bytes since it connected go to the pipeline, and its next ones too: it has the air
        // to itself.
        if let probe = main.input.probe { release(main.input, kept: probe.kept) }
    }

    // MARK: - Switching

    private func isCurrent(_ input: SourceInput) -> Bool {
        !stopped && (input === main.input || input === fallback?.input)
    }

    /// Whether the input's bytes go to the pipeline: it is on the air, or it is the main source and no fallback
    /// runs to keep the air for it.
    private func feedsPipeline(_ input: SourceInput) -> Bool {
        switch onAir {
        case .main: input === main.input
        case .fallback: input === fallback?.input
        case .away: input === main.input && fallback == nil
        }
    }

    /// Parses the bytes, or probes them while their source is not on the air.
    /// - Returns: whether they completed a confirmed frame; nil when they are not wanted (a stopped source, a
    ///   stream that has ended).
    private func take(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool, from input: SourceInput) -> Bool? {
        guard isCurrent(input) else { return nil }
        guard feedsPipeline(input), input.probe == nil else {
            // A reader says nothing before its bytes: its probe starts with them.
            let probe = input.probe ?? SourceProbe(typeHint: nil)
            input.probe = probe
            guard probe.take(bytes, restartsFile: restartsFile) else { return false }
            putOnAir(input)
            return isCurrent(input) ? true : nil
        }
        let packets = pipeline.statistics.packets
        guard feed(bytes, from: input, restartsFile: restartsFile) else { return nil }
        let confirmed = pipeline.statistics.packets > packets
        // The main source back with no fallback to hand back from.
        if confirmed && onAir == .away {
            onAir = .main
            deadAir.ended()
        }
        return confirmed
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, from input: SourceInput, restartsFile: Bool) -> Bool {
        let startsFile = restartsFile || lastFed !== input
        lastFed = input
        do {
            try pipeline.ingest(bytes, restartsFile: startsFile)
            return true
        } catch {
            delegate?.sourcesEnded(.unsupportedFormat(error: "\(error)"))
            return false
        }
    }

    /// The input's first confirmed frame came: it takes the air, subscribers hear so, and its bytes since its probe
    /// started go to the pipeline.
    private func putOnAir(_ input: SourceInput) {
        guard let probe = input.probe else { return }
        if input === main.input {
            stopFallback()
            onAir = .main
            logger.info("main source back on the air")
            if fallbackConfig != nil { pipeline.sourceChanged(.restored) }
        } else {
            onAir = .fallback
            logger.info("fallback on the air")
            pipeline.sourceChanged(.fallback)
        }
        deadAir.ended()
        input.audioSecondsAtStart = pipeline.audioSeconds
        release(input, kept: probe.kept)
    }

    /// Hands the pipeline what the input said and sent while it was not on the air.
    private func release(_ input: SourceInput, kept: [UInt8]) {
        input.probe = nil
        if let station = input.station { pipeline.connected(station) }
        if let metadata = input.metadata { pipeline.received(.icy(metadata)) }
        (input.station, input.metadata) = (nil, nil)
        _ = kept.withUnsafeBytes { feed($0, from: input, restartsFile: false) }
    }

    /// The main source lost what it had on the air: the fallback starts, unless there is none or the stream has
    /// just ended.
    private func mainLost() {
        onAir = .away
        deadAir.began()
        guard let fallbackConfig, fallback == nil, !stopped else { return }
        logger.info("main source away: starting the fallback, \(fallbackConfig.description)")
        let fallback = SourceInput.make(fallbackConfig, role: .fallback, eventLoop: eventLoop, logger: logger,
                                        reconnects: nil)
        fallback.input.owner = self
        self.fallback = fallback
        fallback.source.start()
    }

    /// The fallback lost what it had on the air: the stream is off the air, until it or the main source is back.
    private func fallbackLost(_ error: String) {
        onAir = .away
        deadAir.began()
        pipeline.sourceChanged(.lost(error: "fallback: \(error)"))
    }

    private func stopFallback() {
        fallback?.source.stop()
        fallback = nil
    }
}
