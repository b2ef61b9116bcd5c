import AudioFileStream
import AudioFileWriting

/// Joins streams of one codec and one set of parameters into one file, without re-encoding: their packets in
/// order, each stream's own trims (its PacketTableInfo) stated where the container can.
///
/// Ogg Opus and Vorbis make each stream a chain link with its own pre-skip or start trim and end granule, so the
/// join is gapless. Any other container holds one run of packets: the first stream's start trim and the last
/// one's end trim are stated, and the trims between them (an MP3 encoder's padding and priming) stay in the
/// audio, which `Result.joins` counts. FLAC and PCM have none, so their joins are exact.
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
    /// The container written: the one requested, else the codec's natural one once the format is known.
    private var container: Container? { requested ?? track.flatMap { Container.natural(for: $0.format) } }
    private var file: PieceFile
    private let tags: NormalizedTags?
    /// The first stream's name, track (which the others must match) and tags.
    private var first: (name: String, track: TrackFormat, tags: NormalizedTags)?
    private var name = ""
    private var track: TrackFormat?
    private var source = SourceTrims()
    /// The stream's PacketTableInfo, when it states one.
    private var table: PacketTableInfo?
    private var streamTags = NormalizedTags()
    private var position: Int64 = 0
    private var writer: PieceWriter?
    private var joins: [Int64?] = []
    /// The end trim of the stream before, for the join that follows it.
    private var previousRemainder: Int64??

    /// Joins into a file of `container` (the codec's natural one when nil) at `file`, tagged with `tags`, else the
    /// first stream's tags.
    public init(container: Container?, file: PieceFile, tags: NormalizedTags?) {
        requested = container
        self.file = file
        self.tags = tags
    }

    /// How streams of `format` are joined: Ogg makes each a chain link, M4A an edit, and any other container
    /// runs their packets together, stating the first's start trim and the last's end trim.
    private enum Joining { case chain, edits, run }

    private func joining(_ format: AudioStreamBasicDescription) -> Joining {
        guard let container, container.statesTrims(for: format) else { return .run }
        switch container {
        case .ogg, .opus, .oga: return .chain
        case .m4a: return .edits
        default: return .run
        }
    }

    /// The next stream, named `name` in errors, begins.
    public func beginStream(named name: String) {
        self.name = name
        track = nil
        source = SourceTrims()
        table = nil
        streamTags = NormalizedTags()
        position = 0
    }

    /// Takes one event of the stream under way.
    /// - Throws: `StreamCut.Failure` naming the first difference from the first stream; the writer's error.
    public func handle(_ event: AudioFileStreamEvent) throws {
        if let next = TrackFormat.announced(by: event, over: track) { return try use(next) }
        switch event {
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            self.table = table
            source = SourceTrims(table, at: 0)
        case .metadata(let metadata):
            streamTags.fill(from: metadata.metadata.tags)
        case .packets(let batch):
            try join(batch)
        default:
            break
        }
    }

    /// Ends the stream under way: a chain link is finished with its end trim.
    public func endStream() throws {
        guard let track else { throw StreamCut.Failure(description: "\(name): no audio") }
        let remainder = table.map { _ in source.trailingTrim(pieceEnd: position) }
        if joining(track.format) == .chain {
            try writer?.finish(trailingTrim: remainder ?? 0, to: &file.target)
            writer = nil
        }
        previousRemainder = .some(remainder)
    }

    /// Ends the file and gives it its name.
    /// - Throws: the writer's or the file's error; nothing is left at the file's name then.
    public func finish() throws -> Result {
        do {
            guard let track else { throw StreamCut.Failure(description: "no input") }
            if var writer {
                let statesTrims = container?.statesTrims(for: track.format) ?? false
                try writer.finish(trailingTrim: statesTrims ? (previousRemainder ?? nil) ?? 0 : 0, to: &file.target)
            }
            try file.complete(replacing: true)
            return Result(joins: joins, sampleRate: track.format.sampleRate)
        } catch {
            file.discard()
            throw error
        }
    }

    /// Abandons the join: nothing is left at the file's name.
    public func cancel() {
        file.discard()
    }

    private func use(_ next: TrackFormat) throws {
        guard next != track else { return }
        guard position == 0 else { throw StreamCut.Failure(description: "\(name): the format changes mid-way") }
        track = next
    }

    private func join(_ batch: PacketBatch) throws {
        guard let track else { return }
        if position == 0 { try startStream(track) }
        let packets = batch.packets
        guard !packets.areConstant else {
            // PCM frames go in one run.
            return packets.isEmpty ? () : try append(packets.span(packets.indices))
        }
        for packet in packets { try append(packet) }
    }

    private func append(_ packet: AudioPacket) throws {
        try writer!.append(packet.bytes, frames: packet.frames, to: &file.target)
        position += packet.frames
    }

    /// The stream's first packet: it must match the first stream; a chain link or the file begins.
    private func startStream(_ track: TrackFormat) throws {
        let priming = table.map { Int64($0.primingFrames) }
        if let first {
            if let difference = TrackDifference(first.track, track) {
                throw StreamCut.Failure(description: "\(name) differs from \(first.name) in \(difference)")
            }
            joins.append((previousRemainder ?? nil).flatMap { remainder in priming.map { remainder + $0 } })
        } else {
            first = (name, track, streamTags)
        }
        let joining = joining(track.format)
        // A chain link or an edit states its own trims, and codecs without a lead-in have none: nothing stays in
        // the join.
        if !joins.isEmpty, joining != .run || DecoderLeadIn.of(track.format) == DecoderLeadIn() {
            joins[joins.count - 1] = 0
        }
        if joining == .edits {
            writer?.startSegment(leadingTrim: priming ?? 0, endingTheLastWith: (previousRemainder ?? nil) ?? 0)
        }
        guard writer == nil else { return }
        let container = try Container.chosen(requested, for: track.format)
        writer = try PieceWriter(container: container, track: track, tags: tags ?? first!.tags,
                                 leadingTrim: container.statesTrims(for: track.format) ? priming ?? 0 : 0,
                                 to: &file.target)
    }
}
