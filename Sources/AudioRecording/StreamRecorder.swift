#if canImport(Glibc)
import Glibc
#endif
import AudioFileStream
import AudioFileWriting

/// Writes a stream's packets into pieces: complete files of the stream's own codec, split by time and title,
/// each begun with the lead-in its decoder needs and stating its trims, so that the pieces decoded and joined
/// give the stream's own samples.
///
/// Takes the parser's events in stream order (`handle`), and titles a source found beside the audio
/// (`noteTags`). A failure to write is reported and costs only the piece it hit: recording starts again with a
/// new piece after `retryFrames` of audio. Not for sharing between threads.
public final class StreamRecorder {
    public private(set) var settings: RecordingSettings
    /// Called with each piece once it is complete under its name.
    public var finished: (RecordedPiece) -> Void = { _ in }
    /// Called when a piece cannot be written: it is left as `.part` for a repair.
    public var failed: (any Error) -> Void = { _ in }
    /// Called with what a person should know of a piece written otherwise than asked (another container).
    public var noted: (String) -> Void = { _ in }

    private var clock: PieceClock
    private var timeline = StreamTimeline()
    /// Set when the track changed while a piece was open: the next packet starts a new piece.
    private var trackChanged = false
    private var piece: RecordingPiece?
    private var tags = TrackTags()
    private var number = 0
    /// After a failure, the position from which a new piece may be tried.
    private var retryPosition: Int64?
    /// Whether packets went unrecorded since the last piece began.
    private var lostPackets = false
    /// The source whose title change ended the last piece: the next one begins with it.
    private var titleSource: TrackTags.Source?

    /// - Parameter clockOrigin: the wall-clock time of the stream's first frame, in seconds since 1970.
    public init(settings: RecordingSettings, clockOrigin: Double) {
        self.settings = settings
        clock = PieceClock(origin: clockOrigin)
    }

    /// The piece being written and its bytes so far.
    public var current: (path: String, bytes: Int64)? {
        piece.map { ($0.file.path, $0.file.bytes) }
    }

    /// From now on the next frame is at wall-clock `time`: a live source that lost time (a reconnect, a stall)
    /// keeps its pieces on the clock. The piece under way ends at the clock's next split as it now falls (at
    /// once when that has passed), and the next piece is named and dated by the clock.
    public func setClock(nextFrameAt time: Double) {
        clock.origin = time - timeline.seconds(timeline.position)
        guard let piece, let rate = timeline.track?.format.sampleRate else { return }
        self.piece?.clockSplit = clock.split(after: piece.start, every: settings.every, rate: rate)
    }

    /// Packets were lost before they reached the recorder: what follows does not follow what it has.
    public func noteLoss() {
        timeline.noteLoss()
        lostPackets = true
    }

    /// Tags a source said beside its audio (an ICY title), to apply from the packet at stream offset `offset`.
    public func noteTags(_ tags: NormalizedTags, at offset: Int64) {
        self.tags.note(tags, at: offset, from: .beside)
    }

    public func handle(_ event: AudioFileStreamEvent) {
        switch timeline.take(event) {
        case .track: if piece != nil { trackChanged = true }
        case .metadata(let metadata): tags.note(metadata.metadata.tags, at: metadata.offset, from: .inBand)
        case .packets(let batch): record(batch)
        case .discontinuity, .none: break
        }
    }

    /// Another source takes the air (a DJ after the AutoDJ, a fallback), told once the last one's file has ended
    /// (after its last packets): the piece under way ends as that file does, and the next piece has the new
    /// source's own tags, none until it says a title (the station's name as album, once it is told).
    public func beginSource() {
        finish()
        tags.forget()
    }

    /// Finishes the piece under way and records on with `settings`: the next packet starts a piece under them.
    public func change(to settings: RecordingSettings) {
        finishPiece(trailingTrim: 0)
        self.settings = settings
    }

    /// Finishes the piece under way, as at the end of the stream: a file's last piece states its remainder.
    public func finish() {
        guard let piece else { return }
        finishPiece(trailingTrim: piece.file.statesTrims ? timeline.trims.trailingTrim(pieceEnd: piece.end) : 0)
    }

    // MARK: Packets

    private func record(_ batch: PacketBatch) {
        let packets = batch.packets
        guard packets.areConstant else {
            for packet in packets { record(packet) }
            return
        }
        // PCM frames go in runs: a run is cut where a split falls inside it.
        var start = 0
        while start < packets.count {
            let offset = packets[start].offset
            var count = packets.count - start
            if let split = packetsBeforeSplit(at: offset, bytesPerPacket: Int(batch.format.bytesPerPacket),
                                              framesPerPacket: Int64(batch.format.framesPerPacket)), split > 0 {
                count = min(count, split)
            }
            record(packets.span(start..<start + count))
            start += count
        }
    }

    /// Whole packets from `offset` before the next split the clock or a title makes, if one is in view.
    private func packetsBeforeSplit(at offset: Int64, bytesPerPacket: Int, framesPerPacket: Int64) -> Int? {
        var packets: Int?
        if let split = piece?.clockSplit, framesPerPacket > 0 {
            packets = Int((split - timeline.position + framesPerPacket - 1) / framesPerPacket)
        }
        if let tagsOffset = tags.nextOffset, tagsOffset > offset {
            let before = Int((tagsOffset - offset + Int64(bytesPerPacket) - 1) / Int64(bytesPerPacket))
            packets = min(packets ?? before, before)
        }
        return packets
    }

    private func record(_ packet: AudioPacket) {
        if let source = tags.apply(upTo: packet.offset), settings.splitOnTitle { titleChanged(by: source) }
        let position = timeline.position
        // A packet wholly past the source's audio end holds only its encoder's padding: no piece is cut or begun
        // there, and a piece that states trims ends before it, so that its end trim stays within its last packet
        // (a LAME tag holds 12 bits).
        let isPadding = timeline.trims.audioEnd.map { position >= $0 } == true
        // The piece's fields are read in place, never the piece as a whole: a copy of it on every packet (its
        // writer's, tags' and replay's references retained and released) cost more than writing the packet.
        if let split = piece?.clockSplit, position >= split, !isPadding { splitOnClock() }
        if trackChanged, isWriting { finishPiece(trailingTrim: 0) }
        trackChanged = false
        if !isWriting, !isPadding, retryPosition.map({ position >= $0 }) ?? true { startPiece(on: timeline) }
        if let statesTrims = piece?.file.statesTrims {
            do {
                if !(isPadding && statesTrims) { try append(packet) }
            } catch {
                fail(error)
            }
        } else if !isPadding {
            lostPackets = true
        }
        timeline.pass(packet)
    }

    /// Whether a piece is under way.
    private var isWriting: Bool { piece?.end != nil }

    /// The clock's split is reached: the piece ends, unless it would be shorter than `shortestPiece` (a boundary
    /// 1 ms after the start), and then runs on to the next split.
    private func splitOnClock() {
        guard let piece, holdsShortestPiece(piece) else {
            self.piece?.clockSplit = clock.split(after: clock.origin + timeline.seconds(timeline.position),
                                                 every: settings.every, rate: timeline.track?.format.sampleRate ?? 0)
            return
        }
        finishPiece(trailingTrim: 0)
    }

    /// Writes `packet` into the piece under way, kept for a replay within its first seconds.
    private func append(_ packet: AudioPacket) throws {
        try piece?.file.append(packet)
        piece?.end = timeline.position + packet.frames
        guard piece?.replay != nil, let end = piece?.end, let keptStart = piece?.file.keptStart else { return }
        if timeline.seconds(end - keptStart) > Self.sameChangeWindow {
            self.piece?.replay = nil
        } else {
            self.piece?.replay?.packets.append(LeadInWindow.Packet(packet))
        }
    }

    /// The track's title changed, told by `source`: the piece under way ends. A piece that a change told by the
    /// other source began within `sameChangeWindow` heard the same change twice (a scanner feed's ICY title and
    /// in-band ID3 tag): it is begun again with the fuller tags instead.
    private func titleChanged(by source: TrackTags.Source) {
        guard let piece else { return }
        if let replay = piece.replay, replay.source != source { return retitle(piece, replay) }
        guard piece.file.packets > piece.file.leadInPackets else { return }
        finishPiece(trailingTrim: 0)
        titleSource = source
    }

    /// Begins `piece` again, under its number, with the fuller tags of the change it began with.
    private func retitle(_ piece: RecordingPiece, _ replay: RecordingPiece.Replay) {
        tags.settle(with: piece.tags)
        self.piece.take()?.file.discard()
        number = replay.number - 1
        lostPackets = piece.followsLoss
        startPiece(on: replay.timeline)
        do {
            for packet in replay.packets {
                try packet.withPacket { try self.piece?.file.append($0) }
            }
            self.piece?.end = piece.end
        } catch {
            fail(error)
        }
    }

    /// Seconds within which a title change told by both sources of a stream is one change.
    static let sameChangeWindow = 2.0

    /// Whether `piece` holds enough audio to end on a split of the clock: no piece shorter than `shortestPiece`
    /// is cut by the clock.
    private func holdsShortestPiece(_ piece: RecordingPiece) -> Bool {
        timeline.seconds(timeline.position - piece.file.keptStart) >= Self.shortestPiece
    }

    /// Seconds of audio a piece the clock ends holds at least.
    static let shortestPiece = 1.0

    /// The station's name, which each piece takes as its album when its tags name none.
    public func setStation(_ name: String?) {
        tags.station = name
    }

    // MARK: Pieces

    /// Begins a piece at the next packet of `timeline` (the stream's own, unless begun again).
    private func startPiece(on timeline: StreamTimeline) {
        guard let track = timeline.track, track.format.sampleRate > 0 else { return }
        let named = settings.template.container
        let container = named.flatMap { $0.canHold(track.format) ? $0 : nil } ?? Container.natural(for: track.format)
        guard let container else {
            return fail(WriteError.unsupportedFormat(
                "\(settings.template.template): no container holds \(track.format.codecName) audio"))
        }
        if let named, named != container {
            noted("\(settings.template.template): .\(named.rawValue) cannot hold \(track.format.codecName) audio: "
                + "this piece is .\(container.rawValue)")
        }
        let start = clock.origin + timeline.seconds(timeline.position)
        // The first piece goes on after those an earlier run left.
        if number == 0 { number = settings.template.highestNumber(stream: settings.stream) }
        number += 1
        let title = tags.current.title
        let path = settings.template.path(time: start, stream: settings.stream, number: number, title: title,
                                          artist: tags.current.artist, container: container)
        let file: PieceFile
        do {
            file = try PieceFile(path: path)
        } catch {
            return fail(error)
        }
        do {
            let pieceTags = tags.forPiece(start: start, dated: settings.datesPieces)
            let opened = try OpenPiece(container: container, timeline: timeline, tags: pieceTags,
                                       start: timeline.position, file: file)
            piece = RecordingPiece(
                file: opened, start: start, title: title,
                clockSplit: clock.split(after: start, every: settings.every, rate: track.format.sampleRate),
                followsLoss: lostPackets, end: timeline.position, tags: tags.current,
                replay: titleSource.map { RecordingPiece.Replay(source: $0, timeline: timeline, number: number) })
        } catch {
            file.abandon()
            return fail(error)
        }
        lostPackets = false
        titleSource = nil
        retryPosition = nil
    }

    private func finishPiece(trailingTrim: Int64) {
        guard var piece = piece.take() else { return }
        let written: (path: String, bytes: Int64)
        do {
            written = try piece.file.finish(trailingTrim: trailingTrim)
        } catch {
            piece.file.abandon()
            return fail(error)
        }
        finished(RecordedPiece(
            path: written.path, start: piece.start,
            duration: timeline.seconds(piece.end - trailingTrim - piece.file.keptStart),
            packets: piece.file.packets, bytes: written.bytes, title: piece.title, followsLoss: piece.followsLoss))
    }

    /// Leaves the piece under way as `.part` and waits `retryFrames` before trying a new one.
    private func fail(_ error: any Error) {
        piece.take()?.file.abandon()
        lostPackets = true
        retryPosition = timeline.position + Int64(Self.retrySeconds * (timeline.track?.format.sampleRate ?? 0))
        failed(error)
    }

    /// Seconds of audio between a failure and the next try.
    static let retrySeconds = 10.0
}
