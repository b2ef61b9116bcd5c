import AudioFileStream
import AudioLoudness
import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// One source of a stream, main or fallback, as its `SourceSwitch` sees it: what the source reports comes here and
/// goes on to the switch naming this input, so that the switch knows whose it is (and ignores a source it has
/// stopped). The input holds what belongs to its source: what it said of itself, its probe while it is off the
/// air (or its watch, while it is off the air for its silence), and where its audio started on the air.
final class SourceInput {
    let role: SourceSwitchStateMachine.Role
    /// The switch its source reports to, on the stream's loop.
    weak var owner: SourceSwitch?
    /// The source's station and title.
    private(set) var announcements = SourceAnnouncements()
    /// Parses the source's bytes on the side while it is probed.
    private var probe: SourceProbe?
    /// Judges the source's bytes on the side while it is off the air for its silence.
    private var watch: SourceWatch?
    /// The first bytes of the source's connection (or of its file), kept while silence is watched: where a watch
    /// finds a container's header.
    private var connectionStart: [UInt8] = []
    /// The most bytes of a connection's start kept: room for an Ogg stream's header pages with a picture.
    static let connectionStartBytes = 256 << 10
    /// The stream's seconds of audio when the source took the air; nil while it has not: a reader is paced by its
    /// own audio on the air.
    private var audioSecondsAtStart: Double?
    /// Why the source last lost its connection.
    private(set) var lastError: String?

    private init(role: SourceSwitchStateMachine.Role) {
        self.role = role
    }

    /// The source `config` names, in `role`, not started yet; its reports reach the input's `owner` on
    /// `eventLoop`.
    static func make(_ config: SourceConfig, role: SourceSwitchStateMachine.Role, eventLoop: EventLoop,
                     logger: Logger, reconnects: Counter?) -> (input: SourceInput, source: any StreamSource) {
        let input = SourceInput(role: role)
        var logger = logger
        if role == .fallback { logger[metadataKey: "source"] = "fallback" }
        switch config {
        case .http(let http):
            return (input, HTTPSource(config: http, eventLoop: eventLoop, logger: logger, reconnects: reconnects,
                                      delegate: input))
        case .push(let push):
            return (input, PushSource(config: push, eventLoop: eventLoop, logger: logger, reconnects: reconnects,
                                      delegate: input))
        case .standardInput, .file, .playlist:
            return (input, ReaderSource(SourceReader(config: config)!, eventLoop: eventLoop) { input.deliver($0) })
        }
    }

    // MARK: - What the switch does with the source

    /// The source connected with `station`; a new encoder (a source client) names nothing yet.
    func connected(_ station: HTTPStreamInfo, isNewEncoder: Bool) {
        announcements.station = station
        if isNewEncoder { announcements.nowPlaying = nil }
        connectionStart = []
    }

    /// Keeps the start of the source's connection, from its next bytes (with `restartsFile`, a file's start
    /// again): called for every byte of a source whose silence is watched.
    func noteStart(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) {
        if restartsFile { connectionStart = [] }
        let room = Self.connectionStartBytes - connectionStart.count
        if room > 0 { connectionStart.append(contentsOf: bytes.prefix(room)) }
    }

    /// The source named what it plays.
    func note(_ nowPlaying: ICYMetadata) {
        announcements.nowPlaying = nowPlaying
    }

    /// Its bytes are probed afresh from now on: a new connection's.
    func beginProbe() {
        probe = nil
        watch = nil
    }

    /// Probes the source's next bytes, the first since `beginProbe()` starting a probe, with the type its station
    /// names (with `restartsFile` they start its file again).
    /// - Returns: whether the bytes probed so far hold a whole, confirmed frame.
    func probe(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) -> Bool {
        let probe = self.probe
            ?? SourceProbe(typeHint: announcements.station?.contentType.flatMap(AudioFileType.init(hint:)))
        self.probe = probe
        return probe.take(bytes, restartsFile: restartsFile)
    }

    /// Judges the source's next bytes, silent so far, by `rule`, the first since it took the air or was probed
    /// starting a watch; `silence` is told the seconds of its audio that were silence.
    /// - Returns: whether it has had sound long enough to take the air again.
    func watch(_ bytes: UnsafeRawBufferPointer, rule: SilenceRule, silence: @escaping (Double) -> Void) -> Bool {
        let watch = self.watch ?? SourceWatch(
            rule: rule, typeHint: announcements.station?.contentType.flatMap(AudioFileType.init(hint:)),
            start: connectionStart, silence: silence)
        self.watch = watch
        return watch.take(bytes)
    }

    /// The format its probe found, while it is probed.
    var probedFormat: AudioStreamBasicDescription? { probe?.format }

    /// The source takes the air when the stream holds `audioSeconds`: the probe or watch ends.
    /// - Returns: the bytes it kept, which the stream reads next.
    func takeAir(atAudioSeconds audioSeconds: Double) -> [UInt8] {
        defer { (probe, watch) = (nil, nil) }
        audioSecondsAtStart = audioSeconds
        return watch?.kept ?? probe?.kept ?? []
    }

    /// A reader's seconds of audio on the air, given the stream's: none before it took the air.
    private func secondsOnAir(streamSeconds: Double) -> Double {
        streamSeconds - (audioSecondsAtStart ?? streamSeconds)
    }

    /// Takes a reader's output on the loop.
    /// - Returns: the source's seconds of audio on the air so far, or nil to stop reading.
    private func deliver(_ output: SourceReader.Output) -> Double? {
        guard let owner else { return nil }
        let wanted: Bool
        switch output {
        case .bytes(let bytes, let restartsFile):
            wanted = bytes.withUnsafeBytes { owner.take($0, restartsFile: restartsFile, from: self) } != .refused
        case .segment(let item):
            wanted = owner.began(item, from: self)
        case .warning(let message):
            wanted = owner.skipped(message, from: self)
        case .end(let failure):
            owner.ended(failure: failure, from: self)
            return nil
        }
        return wanted ? secondsOnAir(streamSeconds: owner.audioSeconds) : nil
    }
}

extension SourceInput: NetworkSourceDelegate {
    func sourceConnected(_ info: HTTPStreamInfo) {
        owner?.connected(info, from: self)
    }

    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool {
        owner?.take(audio, restartsFile: false, from: self) == .taken(confirmed: true)
    }

    func sourceReceived(_ metadata: ICYMetadata) {
        owner?.received(metadata, from: self)
    }

    func sourceChanged(_ state: SourceState) {
        if let error = state.error { lastError = error }
        owner?.changed(state, from: self)
    }

    func sourceEnded(failure: String?) {
        owner?.ended(failure: failure, from: self)
    }
}
