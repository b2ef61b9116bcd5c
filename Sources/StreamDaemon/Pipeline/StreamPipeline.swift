import AudioFileStream
import AudioHLS
import AudioStreamProtocol
import Logging
import NIOCore

/// One stream's processing: bytes in, parsed once, decoded only while a subscriber wants PCM, into the hubs.
///
/// Confined to its stream's event loop, which its entry points check.
final class StreamPipeline {
    let hubs: HubGroup
    private let eventLoop: EventLoop
    /// The messages of the chunk under way, handed to the hubs together by `flush()`.
    private var outbox: [HubMessage] = []
    private let allocator = ByteBufferAllocator()
    let statistics: StreamStatistics
    private let logger: Logger
    private var parser: AudioFileStream?
    /// Frames of audio in the packets so far: the next packet's timestamp.
    private var timestamp: Int64 = 0
    /// Audio bytes parsed so far: where the next byte sits in the stream.
    private var audioBytes: Int64 = 0
    /// Metadata of a network source, waiting for the packets it precedes.
    private var sourceMetadata = SourceMetadataQueue()
    /// The station as last announced, so a reconnect does not announce it again unchanged.
    private var station: HTTPStreamInfo?
    /// Why the next bytes will not follow the previous ones, when a network source connected again.
    private var pendingDiscontinuity: Discontinuity.Reason?
    /// Whether the next connection's bytes begin a new file already marked (an on-demand source's, after it left).
    private var followsNewFile = false
    /// Bytes the parser dropped as a resync while the pending discontinuity was being marked, if it is.
    private var droppedWhileMarking: Int64?
    /// Each property's value as last announced.
    private var announced: [AudioFileStreamPropertyID: String] = [:]
    /// The parser's type hint, from an HTTP content type.
    private var typeHint: AudioFileType?
    /// The bytes of the picture last sent to subscribers of artwork.
    private var lastPicture: [UInt8] = []
    private var listenerAnnouncements: ListenerAnnouncements
    /// The decoding, while subscribers want PCM; its messages join the chunk's.
    private lazy var pcm = PCMStage(hubs: hubs, statistics: statistics, levels: levels, logger: logger,
                                    allocator: allocator) { [unowned self] in send($0) }
    /// The stream's sound, measured on the air, when it is monitored.
    let levels: StreamLevels?
    /// The stream's recording, if it has one: it gets every event of the parser, a chunk's at a time.
    private var recording: RecordingTap
    /// The stream's HTTP Live Streaming, if it has it: it cuts every event of the parser as it comes.
    let hls: HLSOrigin?
    /// The segments of a playlist, cut from the parser's events.
    private var composition = Composition()
    /// Whether the stream is a playlist, whose segments each state a PacketTableInfo.
    private var isComposition = false

    init(streamName: String, hubs: HubGroup, eventLoop: EventLoop, logger: Logger, metrics: StreamMetrics,
         recording: RecordingWorker? = nil, hls: HLSOrigin? = nil, levels: StreamLevels? = nil) {
        self.recording = RecordingTap(recording)
        self.hls = hls
        self.levels = levels
        listenerAnnouncements = ListenerAnnouncements(streamName: streamName)
        self.hubs = hubs
        self.eventLoop = eventLoop
        self.logger = logger
        statistics = StreamStatistics(metrics: metrics)
    }

    /// What HTTP listeners were last told plays, from any source of metadata.
    var nowPlaying: NowPlaying? { listenerAnnouncements.nowPlaying }

    /// Seconds of audio parsed so far, for pacing a file.
    var audioSeconds: Double { statistics.audioSeconds }

    /// Parses the next chunk of the source and hands the results to the subscribers. A chunk that `restartsFile`
    /// (a looped file's start, read again) is parsed as a new file, headers and all, going on from the stream so
    /// far: a discontinuity at a mid-stream offset would leave a container's reader looking for its packets there.
    /// - Throws: the parser's error when the stream cannot go on (its bytes are not a format we read).
    func ingest(_ bytes: UnsafeRawBufferPointer, restartsFile: Bool) throws {
        // Every chunk of the source: a debug check, free in release builds.
        eventLoop.assertInEventLoop()
        statistics.note(bytesIn: bytes.count)
        defer { flush() }
        let parser = try ensureParser()
        // A new file's own discontinuity says that the bytes do not follow: one event, not a reconnect's too.
        if restartsFile { pendingDiscontinuity = nil }
        if let reason = pendingDiscontinuity {
            pendingDiscontinuity = nil
            droppedWhileMarking = 0
            defer { droppedWhileMarking = nil }
            try parser.markDiscontinuity(reason)
        }
        if restartsFile { try parser.markNewFile() }
        try parser.parse(bytes)
        audioBytes += Int64(bytes.count)
    }

    /// The playlist's next segment, `item`, starts with the next bytes: after earlier ones, as a new file
    /// that a `newSegment` discontinuity marks.
    /// - Throws: the parser's error when the bytes so far cannot be ended as a file.
    func beginSegment(_ item: PlaylistItem) throws {
        eventLoop.preconditionInEventLoop()
        defer { flush() }
        isComposition = true
        let joins = audioBytes > 0
        composition.begin(item, awaitsJoin: joins)
        if joins { try ensureParser().markNewFile(reason: .newSegment) }
    }

    /// An item of the playlist was skipped: subscribers are told why, in a warning event.
    func skipped(_ message: String) {
        eventLoop.preconditionInEventLoop()
        logger.warning("\(message)")
        let json = Composition.skippedItemJSON(message, at: audioBytes)
        send(.event(WireEncoding.message(.event, json: json, allocator: allocator)))
        flush()
    }

    /// A network source began a response: after earlier audio its bytes are a `reconnect` discontinuity. The
    /// station is announced when it is new or changed, and its content type hints the parser.
    func connected(_ info: HTTPStreamInfo) {
        eventLoop.preconditionInEventLoop()
        if audioBytes > 0 && !followsNewFile { pendingDiscontinuity = .reconnect }
        followsNewFile = false
        if parser == nil { typeHint = info.contentType.flatMap(AudioFileType.init(hint:)) }
        announce(info)
    }

    /// Announces the station when it is new or changed.
    private func announce(_ info: HTTPStreamInfo) {
        var station = info
        station.metaint = nil
        guard station != self.station else { return }
        self.station = station
        received(.station(station))
        send(listenerAnnouncements.noteStation(station))
    }

    /// Another source takes the air, saying what `announcements` say: its bytes that follow are a new file, whose
    /// type its station's content type hints. The last source's file ends here, with what it said; then the new
    /// source's station is announced when it differs from the last one (a source without one, a file, clears it),
    /// and its title (one that names none clears the last source's), before anything its bytes hold. Its sound
    /// is measured afresh.
    /// - Throws: the parser's error when the bytes so far cannot be ended as a file.
    func handOver(to announcements: SourceAnnouncements) throws {
        eventLoop.preconditionInEventLoop()
        defer { flush() }
        let hint = announcements.station?.contentType.flatMap(AudioFileType.init(hint:))
        if parser != nil {
            try startNewFile(hint: hint)
        } else {
            typeHint = hint
        }
        // After the last source's file has ended (its last packets and the new file's discontinuity).
        recording.noteNewSource()
        levels?.restart()
        if let station = announcements.station {
            announce(station)
        } else if station != nil {
            station = nil
            received(.station(HTTPStreamInfo(header: { _ in nil })))
            send(listenerAnnouncements.noteStation(nil))
        }
        if let nowPlaying = announcements.nowPlaying {
            received(.icy(nowPlaying))
        } else if listenerAnnouncements.nowPlaying != nil {
            received(.icy(ICYMetadata(fields: [(key: "StreamTitle", value: "")])))
        }
        // Told now, not at the new file's first packet: its own tags come before that packet.
        releaseSourceMetadata(upTo: .max)
    }

    /// The next bytes are a new file, of the type `hint` names if the parser takes it, else of the type they show.
    private func startNewFile(hint: AudioFileType?) throws {
        guard let parser else { return }
        // The new file's own discontinuity says that its bytes do not follow: no reconnect's besides.
        pendingDiscontinuity = nil
        do {
            try parser.markNewFile(fileTypeHint: hint)
        } catch AudioFileStreamError.unsupportedFileType where hint != nil {
            // A content type of a kind the parser does not take leaves the type to the bytes.
            try parser.markNewFile(fileTypeHint: nil)
        }
    }

    /// A network source connected, lost its connection or will try again: subscribers hear it at once.
    func sourceChanged(_ state: SourceState) {
        eventLoop.preconditionInEventLoop()
        send(.source(WireEncoding.message(.event, json: EventJSON.source(state), allocator: allocator)))
        if state == .idle { wentIdle() }
        flush()
    }

    /// An on-demand source left: what it sent ends as a file, its last packet out now, and its next connection,
    /// a response of the station's from its start (Ogg's headers and all), is read as a new file. Newcomers get
    /// no burst of the past: the station's present follows it.
    private func wentIdle() {
        do {
            try startNewFile(hint: station?.contentType.flatMap(AudioFileType.init(hint:)))
            followsNewFile = true
        } catch {
            logger.error("cannot end the stream's file: \(error)")
        }
        send(.pastIsStale)
    }

    /// Metadata of a network source, found after the audio parsed so far.
    func received(_ metadata: SourceMetadata) {
        eventLoop.preconditionInEventLoop()
        sourceMetadata.append(metadata, at: audioBytes) { publish($0, at: $1) }
    }

    /// Ends the stream: the parser's last packets, then the end event saying why.
    func finish(_ reason: EndReason) {
        eventLoop.preconditionInEventLoop()
        do {
            try parser?.finish()
        } catch {
            logger.error("cannot parse the end of the stream: \(error)")
        }
        pcm.finish()
        levels?.finish { send($0) }
        hls?.finish()
        releaseSourceMetadata(upTo: .max)
        send(listenerAnnouncements.finish(allocator: allocator))
        send(.end(WireEncoding.message(.event, json: EventJSON.end(reason), allocator: allocator)))
        flush()
    }

    /// Records the stream from now on with `recording`, or stops recording it; a recording that starts mid-stream
    /// is first told the format so far.
    func record(with recording: RecordingWorker?) {
        eventLoop.preconditionInEventLoop()
        self.recording.attach(recording, parser: parser, station: station)
    }

    private func ensureParser() throws -> AudioFileStream {
        if let parser { return parser }
        // A live stream is never seeked: an index would only grow, by 8 bytes a packet, for hours.
        let parser = try AudioFileStream(fileTypeHint: typeHint, indexedPackets: 0) { [unowned self] event in
            handle(event)
        }
        self.parser = parser
        return parser
    }

    private func releaseSourceMetadata(upTo offset: Int64) {
        sourceMetadata.release(upTo: offset, publish)
    }

    private func publish(_ metadata: SourceMetadata, at offset: Int64) {
        recording.note(metadata, at: offset)
        let buffer = WireEncoding.message(.event, json: metadata.json(offset: offset), allocator: allocator)
        if case .icy(let icy) = metadata {
            send(.metadata(source: "icy", buffer))
            notePlaying(NowPlaying(icy))
        } else {
            send(.metadata(source: "http", buffer))
        }
    }

    /// What plays, from any source of metadata: ICY listeners get it when it changed, and so does HLS, from the
    /// next packet on.
    private func notePlaying(_ playing: NowPlaying?) {
        guard let message = listenerAnnouncements.note(playing), let playing else { return }
        send(message)
        hls?.noteNowPlaying(HLSNowPlaying(streamTitle: playing.title))
    }

    private func send(_ message: HubMessage?) {
        if let message { outbox.append(message) }
    }

    /// Hands the chunk's messages to every hub, and its events to the recording.
    private func flush() {
        hubs.publish(outbox)
        outbox.removeAll(keepingCapacity: true)
        recording.flush()
    }

    /// Passes the parser's event on, as a playlist's segment gives it when the stream is one.
    private func handle(_ event: AudioFileStreamEvent) {
        if case .discontinuity(let discontinuity) = event, discontinuity.reason == .newSegment {
            pcm.restart(parser: parser)
        }
        composition.pass(event) { event, startsSegment in
            if startsSegment, case .property(_, .packetTableInfo(let table)) = event {
                listenerAnnouncements.noteSegment(table, startingAt: timestamp)
            }
            route(event)
        }
    }

    /// Publishes the event, then decodes it if PCM is wanted: a batch's packets go out before its PCM.
    private func route(_ event: AudioFileStreamEvent) {
        defer { pcm.update(with: event, streamTimestamp: timestamp, parser: parser) }
        recording.collect(event)
        hls?.take(event)
        switch event {
        case .packets(let batch):
            publish(batch)
        case .property(let id, let value):
            // A source that starts again (a reconnect, a loop) repeats its header: only news is announced.
            let text = EventJSON.value(value).text
            guard announced[id] != text || (id == .packetTableInfo && isComposition) else { return }
            announced[id] = text
            statistics.note(id, value)
            send(.property(id, message(event)))
            switch value {
            case .format(let format) where id == .dataFormat: listenerAnnouncements.noteFormat(format)
            case .data(let cookie) where id == .magicCookieData: listenerAnnouncements.noteCookie(cookie)
            default: break
            }
        case .metadata(let metadata):
            send(.metadata(source: metadata.metadata.source.rawValue, message(event)))
            notePlaying(NowPlaying(metadata.metadata.tags))
            listenerAnnouncements.note(metadata.metadata)
            publishArtwork(of: metadata)
        case .discontinuity(let discontinuity):
            // Marking a reconnect drops the packet the old connection left unfinished, as a resync at the same
            // offset: one loss, told once, by the reconnect's event.
            var skipped = discontinuity.skippedBytes
            if let dropped = droppedWhileMarking {
                guard discontinuity.reason != .resync else {
                    droppedWhileMarking = dropped + skipped
                    return
                }
                skipped += dropped
                droppedWhileMarking = 0
            }
            statistics.note(discontinuity.reason, skipped: skipped)
            // What was found at the discontinuity's offset (a new connection's station) belongs after it.
            releaseSourceMetadata(upTo: discontinuity.offset - 1)
            let json = EventJSON.discontinuity(discontinuity, skippedBytes: skipped)
            send(.event(WireEncoding.message(.event, json: json, allocator: allocator)))
        case .warning(let warning):
            logger.warning("\(warning.message)", metadata: ["offset": "\(warning.offset)", "kind": "\(warning.kind)"])
            send(.event(message(event)))
        }
    }

    private func message(_ event: AudioFileStreamEvent) -> ByteBuffer {
        WireEncoding.message(.event, json: EventJSON.objects(for: event)[0], allocator: allocator)
    }

    private func publish(_ batch: PacketBatch) {
        let sampleRate = Int(batch.format.sampleRate)
        for packet in MessagePackets(batch) {
            releaseSourceMetadata(upTo: packet.offset)
            let bytes = packet.bytes
            let frames = Int(packet.frames)
            let buffer = WireEncoding.packet(
                bytes, offset: packet.offset, timestamp: timestamp, frames: frames, allocator: allocator)
            let audio = AudioSpan(offset: packet.offset, bytes: bytes.count, frames: frames, sampleRate: sampleRate)
            let (announcements, listenerBytes) = listenerAnnouncements.frame(
                bytes, endFrame: timestamp + Int64(frames), allocator: allocator)
            for announcement in announcements { send(announcement) }
            send(.packet(QueuedMessage(buffer: buffer, audio: audio, listenerBytes: listenerBytes)))
            timestamp += Int64(frames)
            statistics.note(packetOf: bytes.count, frames: frames, sampleRate: sampleRate)
        }
    }

    /// Sends the tag's picture to the subscribers of artwork when it is a new one: once per change, however often
    /// a source repeats its tags. A picture kept by its size alone (over the limits) is not sent.
    private func publishArtwork(of event: MetadataEvent) {
        guard let artwork = event.metadata.tags.artwork, !artwork.data.isEmpty, artwork.data != lastPicture else {
            return
        }
        lastPicture = artwork.data
        let description = EventJSON.artwork(artwork, of: event)
        send(.artwork(WireEncoding.artwork(description, picture: artwork.data, allocator: allocator)))
    }
}
