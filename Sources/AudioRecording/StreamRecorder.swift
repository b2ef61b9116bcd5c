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

    private var clock: PieceClock
    private var track: TrackFormat?
    /// Set when the track changed after packets: the next packet starts a new piece.
    private var trackChanged = false
    private var source = SourceTrims()
    /// Frames of the stream before the next packet.
    private var position: Int64 = 0
    /// The position where the file the stream is reading began (its DataFormat was announced): where its
    /// PacketTableInfo counts from, whenever it is announced.
    private var fileStart: Int64 = 0
    private var window = LeadInWindow()
    private var piece: OpenPiece?
    private var writer: PieceWriter?
    private var file: PieceFile?
    private var tags = TrackTags()
    private var number = 0
    /// After a failure, the position from which a new piece may be tried.
    private var retryPosition: Int64?
    /// Whether packets went unrecorded since the last piece began.
    private var lostPackets = false

    /// - Parameter clockOrigin: the wall-clock time of the stream's first frame, in seconds since 1970.
    public init(settings: RecordingSettings, clockOrigin: Double) {
        self.settings = settings
        clock = PieceClock(origin: clockOrigin)
    }

    /// The piece being written and its bytes so far.
    public var current: (path: String, bytes: Int64)? {
        file.map { ($0.path, $0.target.size) }
    }

    /// From now on the next frame is at wall-clock `time`: a live source that lost time (a reconnect) keeps its
    /// pieces on the clock.
    public func setClock(nextFrameAt time: Double) {
        clock.origin = time - seconds(position)
    }

    /// Packets were lost before they reached the recorder: what follows does not follow what it has.
    public func noteLoss() {
        window.clear()
        lostPackets = true
    }

    /// Tags a source said beside its audio (an ICY title), to apply from the packet at stream offset `offset`.
    public func noteTags(_ tags: NormalizedTags, at offset: Int64) {
        self.tags.note(tags, at: offset)
    }

    public func handle(_ event: AudioFileStreamEvent) {
        switch event {
        case .property(.dataFormat, .format(let format)):
            fileStart = position
            update { $0.format = format }
        case .property(.magicCookieData, .data(let cookie)):
            update { $0.cookie = cookie }
        case .property(.channelLayout, .channelLayout(let layout)):
            update { $0.channelLayout = layout }
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            source = SourceTrims(table, at: fileStart)
        case .metadata(let metadata):
            noteTags(metadata.metadata.tags, at: metadata.offset)
        case .discontinuity:
            window.clear()
        case .packets(let batch):
            record(batch)
        default:
            break
        }
    }

    /// Finishes the piece under way and records on with `settings`: the next packet starts a piece under them.
    public func change(to settings: RecordingSettings) {
        finishPiece(trailingTrim: 0)
        self.settings = settings
    }

    /// Finishes the piece under way, as at the end of the stream: a file's last piece states its remainder.
    public func finish() {
        finishPiece(trailingTrim: piece?.statesTrims == true ? source.trailingTrim(pieceEnd: position) : 0)
    }

    // MARK: Packets

    private func update(_ change: (inout TrackFormat) -> Void) {
        var next = track ?? .unknown
        change(&next)
        guard next != track else { return }
        if piece != nil || track?.format != next.format { trackChanged = true }
        track = next
    }

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
        if let piece, let split = piece.clockSplit, framesPerPacket > 0 {
            packets = Int((split - position + framesPerPacket - 1) / framesPerPacket)
        }
        if let tagsOffset = tags.nextOffset, tagsOffset > offset {
            let before = Int((tagsOffset - offset + Int64(bytesPerPacket) - 1) / Int64(bytesPerPacket))
            packets = min(packets ?? before, before)
        }
        return packets
    }

    private func record(_ packet: AudioPacket) {
        applyTags(upTo: packet.offset)
        if let piece, trackChanged || piece.clockSplit.map({ position >= $0 }) == true { finishPiece(trailingTrim: 0) }
        if trackChanged {
            trackChanged = false
            window.reset(for: track.map { DecoderLeadIn.of($0.format) } ?? DecoderLeadIn())
        }
        if piece == nil, retryPosition.map({ position >= $0 }) ?? true { startPiece() }
        if piece != nil {
            do {
                try writer!.append(packet.bytes, frames: packet.frames, to: &file!.target)
                piece!.packets += 1
            } catch {
                fail(error)
            }
        } else {
            lostPackets = true
        }
        window.keep(packet.bytes, frames: packet.frames)
        position += packet.frames
    }

    /// Applies the tags found up to `offset`; a new title ends the piece under way when pieces split on titles.
    private func applyTags(upTo offset: Int64) {
        tags.apply(upTo: offset) {
            guard settings.splitOnTitle, let piece, piece.packets > piece.leadInPackets else { return }
            finishPiece(trailingTrim: 0)
        }
    }

    /// The station's name, which each piece takes as its album when its tags name none.
    public func setStation(_ name: String?) {
        tags.station = name
    }

    // MARK: Pieces

    private func startPiece() {
        guard let track, track.format.sampleRate > 0 else { return }
        let container = settings.template.container ?? Container.natural(for: track.format)
        guard let container, container.canHold(track.format) else {
            return fail(WriteError.unsupportedFormat(
                "\(settings.template.template): \(container.map { ".\($0.rawValue)" } ?? "no container") "
                    + "cannot hold \(track.format.codecName) audio"))
        }
        let start = clock.origin + seconds(position)
        // The first piece goes on after those an earlier run left.
        if number == 0 { number = settings.template.highestNumber(stream: settings.stream) }
        number += 1
        let title = tags.current.title
        let path = settings.template.path(time: start, stream: settings.stream, number: number, title: title,
                                          artist: tags.current.artist, fileExtension: container.rawValue)
        var file: PieceFile
        do {
            file = try PieceFile(path: path)
        } catch {
            return fail(error)
        }
        let opening: PieceOpening
        do {
            opening = try PieceOpening(container: container, track: track,
                                       tags: tags.forPiece(start: start, dated: settings.datesPieces), window: window,
                                       position: position, start: position, primingEnd: source.primingEnd,
                                       to: &file.target)
            self.writer = opening.writer
            self.file = file
        } catch {
            file.abandon()
            return fail(error)
        }
        piece = OpenPiece(start: start, keptStart: opening.keptStart, title: title, packets: opening.leadInPackets,
                          leadInPackets: opening.leadInPackets, statesTrims: opening.statesTrims,
                          clockSplit: clock.split(after: start, every: settings.every, rate: track.format.sampleRate),
                          followsLoss: lostPackets)
        lostPackets = false
        retryPosition = nil
    }

    private func finishPiece(trailingTrim: Int64) {
        guard let piece, var writer, var file else { return }
        self.piece = nil
        self.writer = nil
        self.file = nil
        do {
            try writer.finish(trailingTrim: trailingTrim, to: &file.target)
        } catch {
            file.abandon()
            return fail(error)
        }
        do {
            let bytes = file.target.size
            let path = try file.complete()
            finished(RecordedPiece(
                path: path, start: piece.start, duration: seconds(position - trailingTrim - piece.keptStart),
                packets: piece.packets, bytes: bytes, title: piece.title, followsLoss: piece.followsLoss))
        } catch {
            fail(error)
        }
    }

    /// Leaves the piece under way as `.part` and waits `retryFrames` before trying a new one.
    private func fail(_ error: any Error) {
        file?.abandon()
        piece = nil
        writer = nil
        file = nil
        lostPackets = true
        retryPosition = position + Int64(Self.retrySeconds * (track?.format.sampleRate ?? 0))
        failed(error)
    }

    /// Seconds of audio between a failure and the next try.
    static let retrySeconds = 10.0

    private func seconds(_ frames: Int64) -> Double {
        clock.seconds(frames, rate: track?.format.sampleRate ?? 0)
    }
}
