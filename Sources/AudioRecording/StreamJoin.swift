import AudioFileStream
import AudioFileWriting

/// Joins streams of one codec and one set of parameters into one file, without re-encoding: their packets in
/// order, each stream's own trims (its PacketTableInfo) stated where the container can.
///
/// Ogg Opus and Vorbis make each stream a chain link with its own pre-skip or start trim and end granule, so the
/// join is gapless. Any other container holds one run of packets: the first stream's start trim and the last
/// one's end trim are stated. Where a stream begins with the lead-in that the one before ends with (two cuts or
/// two archive pieces of one stream), that copy is dropped and the join is exact (`JoinOverlap`); else the trims
/// between them (an MP3 encoder's padding and priming) stay in the audio, which `Result.joins` counts. FLAC and
/// PCM have none, so their joins are exact.
///
/// Takes each stream's parser events in order (`handle`), `endStream` after each, then `finish`. Not for sharing
/// between threads.
public final class StreamJoin {
    public struct Result: Equatable, Sendable {
        /// For each join, the frames of encoder padding and priming it holds, when the streams state them.
        public var joins: [Int64?]
        public var sampleRate: Double
    }

    private let requested: Container?
    /// The file until the first stream's first packet opens the piece.
    private var file: PieceFile?
    private let tags: NormalizedTags?
    /// The first stream's name, track (which the others must match) and tags.
    private var first: (name: String, track: TrackFormat, tags: NormalizedTags)?
    private var name = ""
    private var timeline = StreamTimeline()
    private var streamTags = NormalizedTags()
    private var piece: OpenPiece?
    private var overlap = JoinOverlap()
    private var joins: [Int64?] = []
    /// The end trim of the stream before, for the join that follows it, when it states one.
    private var previousRemainder: Int64?

    /// Joins into a file of `container` (the codec's natural one when nil) at `file`, tagged with `tags`, else the
    /// first stream's tags.
    public init(container: Container?, file: PieceFile, tags: NormalizedTags?) {
        requested = container
        self.file = file
        self.tags = tags
    }

    /// How streams are joined in `container`: Ogg makes each a chain link, M4A an edit, and any other container
    /// runs their packets together, stating the first's start trim and the last's end trim.
    private enum Joining { case chain, edits, run }

    private func joining(_ piece: OpenPiece) -> Joining {
        guard piece.statesTrims else { return .run }
        switch piece.container {
        case .ogg, .opus, .oga: return .chain
        case let container where container.statesEdits: return .edits
        default: return .run
        }
    }

    /// The next stream, named `name` in errors, begins.
    public func beginStream(named name: String) {
        self.name = name
        timeline = StreamTimeline()
        streamTags = NormalizedTags()
    }

    /// Takes one event of the stream under way.
    /// - Throws: `WriteError.input` naming the first difference from the first stream; the writer's error.
    public func handle(_ event: AudioFileStreamEvent) throws {
        switch timeline.take(event) {
        case .track:
            guard timeline.position == 0 else { throw WriteError.input("\(name): the format changes mid-way") }
        case .metadata(let metadata):
            streamTags.fill(from: metadata.metadata.tags)
        case .packets(let batch):
            try join(batch)
        case .discontinuity, .none:
            break
        }
    }

    /// Ends the stream under way: a chain link is finished with its end trim at the next one's start.
    public func endStream() throws {
        guard timeline.track != nil else { throw WriteError.input("\(name): no audio") }
        try writeHeld()
        previousRemainder = timeline.table.map { _ in timeline.trims.trailingTrim(pieceEnd: timeline.position) }
    }

    /// Ends the file and gives it its name.
    /// - Throws: the writer's or the file's error; nothing is left at the file's name then.
    public func finish() throws -> Result {
        guard let track = timeline.track, var piece = piece.take() else {
            cancel()
            throw WriteError.input("no input")
        }
        do {
            _ = try piece.finish(trailingTrim: piece.statesTrims ? previousRemainder ?? 0 : 0, replacing: true)
        } catch {
            piece.discard()
            throw error
        }
        return Result(joins: joins, sampleRate: track.format.sampleRate)
    }

    /// Abandons the join: nothing is left at the file's name.
    public func cancel() {
        file.take()?.discard()
        piece.take()?.discard()
    }

    private func join(_ batch: PacketBatch) throws {
        guard let track = timeline.track else { return }
        if timeline.position == 0 { try startStream(track) }
        let packets = batch.packets
        guard !packets.areConstant else {
            // PCM frames go in one run.
            return packets.isEmpty ? () : try append(packets.span(packets.indices))
        }
        for packet in packets { try append(packet) }
    }

    private func append(_ packet: AudioPacket) throws {
        defer { timeline.pass(packet) }
        switch overlap.take(packet) {
        case .write: try piece?.append(packet)
        case .hold: break
        case .dropHeld: joins[joins.count - 1] = 0
        case .writeHeld: try writeHeld()
        }
    }

    /// Writes the packets held at the stream's start that did not repeat the stream before.
    private func writeHeld() throws {
        for packet in overlap.takeHeld() {
            try packet.bytes.withUnsafeBytes {
                try piece?.append(AudioPacket(bytes: $0, frames: packet.frames, offset: 0))
            }
        }
    }

    /// The stream's first packet: it must match the first stream; the file, a chain link or an edit begins.
    private func startStream(_ track: TrackFormat) throws {
        let priming = timeline.table.map { Int64($0.primingFrames) }
        guard let first, var piece = piece.take() else {
            first = (name, track, streamTags)
            return try open(track)
        }
        defer { self.piece = piece }
        if let difference = TrackDifference(first.track, track) {
            throw WriteError.input("\(name) differs from \(first.name) in \(difference)")
        }
        let joining = joining(piece)
        // A chain link or an edit states its own trims, and codecs without a lead-in have none: nothing stays in
        // the join.
        let heldInJoin = previousRemainder.flatMap { remainder in priming.map { remainder + $0 } }
        joins.append(joining != .run || DecoderLeadIn.of(track.format) == DecoderLeadIn() ? 0 : heldInJoin)
        if joining == .run { overlap.beginFile(trimmedFrames: heldInJoin) }
        switch joining {
        case .chain:
            try piece.chain(track: track, tags: tags ?? first.tags, leadingTrim: priming ?? 0,
                            endingTheLastWith: previousRemainder ?? 0)
        case .edits:
            piece.startSegment(leadingTrim: priming ?? 0, endingTheLastWith: previousRemainder ?? 0)
        case .run:
            break
        }
    }

    /// Opens the file at the first stream's first packet, stating its start trim where the container can.
    private func open(_ track: TrackFormat) throws {
        guard let file = file.take() else { return }
        do {
            piece = try OpenPiece(container: try Container.chosen(requested, for: track.format), timeline: timeline,
                                  tags: tags ?? streamTags, start: 0, file: file)
            overlap.reset(for: DecoderLeadIn.of(track.format))
        } catch {
            file.discard()
            throw error
        }
    }
}
