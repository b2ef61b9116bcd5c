import AudioFileStream
import AudioFileWriting

/// Writes a time range of a stream into one file of its own codec, without re-encoding: the packets from the
/// lead-in its decoder needs to the one holding the range's last frame, with the trims the container can
/// state, so that the file decodes to the range's very frames. FLAC, whose files state no trims, has the frames
/// the range splits made anew, losslessly, with the range's samples alone (`FLACVerbatimFrame`). Any other
/// container that states no trims (ADTS, AC-3, MPEG Layer I/II) holds the whole packets the range touches.
///
/// Takes the parser's events in stream order (`handle`), then `finish`. Times count frames of the stream's
/// decoded output, after the source's own priming trim: the range is frames round(from × rate) to
/// round(to × rate). Not for sharing between threads.
public final class StreamCut {
    /// What was cut, in frames of the stream's decoded output.
    public struct Result: Equatable, Sendable {
        /// The range the file decodes to.
        public var frames: Range<Int64>
        public var sampleRate: Double
        /// False when the container stated no trims, so the range was widened to packet boundaries.
        public var isExact: Bool
        /// The container written.
        public var container: Container
    }

    private let from: Double
    private let to: Double?
    private let requested: Container?
    /// The file until the range's first packet opens the piece.
    private var file: PieceFile?
    private var timeline = StreamTimeline()
    private var tags = NormalizedTags()
    private var piece: OpenPiece?
    /// The stream position past the last frame written, once the range's last packet is in.
    private var writtenEnd: Int64?
    /// For FLAC written as FLAC, which cannot state trims: the frames the range splits are made anew, holding
    /// the range's samples alone.
    private var flacFrames: FLACFrameSamples?

    /// Cuts from `from` seconds (≥ 0) to `to` (the end when nil) into a file of `container` at `file`, or of the
    /// codec's natural container when nil.
    public init(from: Double, to: Double?, container: Container?, file: PieceFile) {
        self.from = from
        self.to = to
        requested = container
        self.file = file
    }

    /// Takes one parser event.
    /// - Throws: `WriteError.input` when the stream changes format within the range; the writer's error.
    public func handle(_ event: AudioFileStreamEvent) throws {
        switch timeline.take(event) {
        case .track(let track):
            guard piece == nil else {
                throw WriteError.input("the format changes within the range: a cut holds one format")
            }
            let container = requested ?? Container.natural(for: track.format)
            flacFrames = container == .flac ? FLACFrameSamples(track: track) : nil
        case .metadata(let metadata) where piece == nil:
            tags.fill(from: metadata.metadata.tags)
        case .packets(let batch) where writtenEnd == nil:
            try cut(batch)
        case .metadata, .packets, .discontinuity, .none:
            break
        }
    }

    /// Ends the file and gives it its name.
    /// - Throws: `WriteError.input` when the range is not within the stream; the writer's or the file's error.
    ///   Nothing is left at the file's name then.
    public func finish() throws -> Result {
        guard let track = timeline.track, var piece = piece.take() else {
            cancel()
            throw WriteError.input("--from \(from) s is past the end of the audio")
        }
        let trims = timeline.trims
        let streamEnd = writtenEnd ?? timeline.position
        if let to, writtenEnd == nil {
            piece.discard()
            throw WriteError.input("--to \(to) s is past the end of the audio "
                + "(\(timeline.seconds(streamEnd - trims.primingEnd)) s)")
        }
        let keptEnd = piece.statesTrims ? min(end ?? streamEnd, streamEnd) : streamEnd
        let (keptStart, statesTrims, container) = (piece.keptStart, piece.statesTrims, piece.container)
        do {
            _ = try piece.finish(trailingTrim: streamEnd - keptEnd, replacing: true)
        } catch {
            piece.discard()
            throw error
        }
        // PCM is cut at any frame, its packets being frames, and FLAC where its frames are made anew.
        return Result(frames: keptStart - trims.primingEnd..<keptEnd - trims.primingEnd,
                      sampleRate: track.format.sampleRate,
                      isExact: statesTrims || track.format.framesPerPacket == 1 || flacFrames != nil,
                      container: container)
    }

    /// Abandons the cut: nothing is left at the file's name.
    public func cancel() {
        file.take()?.discard()
        piece.take()?.discard()
    }

    private func cut(_ batch: PacketBatch) throws {
        let packets = batch.packets
        guard !packets.areConstant else {
            // PCM frames are cut at any frame: the range's part of the run is written.
            guard batch.format.framesPerPacket == 1, !packets.isEmpty else { return }
            let run = packets.span(packets.indices)
            let bytesPerFrame = Int64(batch.format.bytesPerPacket)
            return try cutPart(of: run) { kept in
                Array(run.bytes[Int(kept.lowerBound * bytesPerFrame)..<Int(kept.upperBound * bytesPerFrame)])
            }
        }
        for packet in packets where writtenEnd == nil {
            if let flacFrames {
                try cutPart(of: packet) {
                    $0 == 0..<packet.frames ? Array(packet.bytes)
                        : try flacFrames.frame(packet.bytes, frames: packet.frames, keeping: $0)
                }
            } else {
                try cut(packet)
            }
        }
    }

    /// Writes the part of `packet`'s frames within the range, as `part` makes it of the frames kept.
    private func cutPart(of packet: AudioPacket, _ part: (Range<Int64>) throws -> [UInt8]) throws {
        let first = max(0, start - timeline.position)
        let last = min(packet.frames, (end ?? .max) - timeline.position)
        guard first < last else { return timeline.advance(by: packet.frames) }
        timeline.advance(by: first)
        try part(first..<last).withUnsafeBytes {
            try cut(AudioPacket(bytes: $0, frames: last - first, offset: packet.offset))
        }
        timeline.advance(by: packet.frames - last)
    }

    private func cut(_ packet: AudioPacket) throws {
        defer { timeline.pass(packet) }
        if piece == nil {
            guard let track = timeline.track, let file = file.take() else { return }
            guard timeline.position + packet.frames > start else {
                self.file = file
                return
            }
            do {
                piece = try OpenPiece(container: try Container.chosen(requested, for: track.format),
                                      timeline: timeline, tags: tags, start: start,
                                      numbersFLACFramesBySample: flacFrames != nil, file: file)
            } catch {
                file.discard()
                throw error
            }
        }
        try piece?.append(packet)
        if let end, timeline.position + packet.frames >= end { writtenEnd = timeline.position + packet.frames }
    }

    /// The range's start as a stream position.
    private var start: Int64 { timeline.trims.primingEnd + frames(from) }

    /// The range's end as a stream position: from `to`, else the source's audio end, when known.
    private var end: Int64? { to.map { timeline.trims.primingEnd + frames($0) } ?? timeline.trims.audioEnd }

    /// `seconds` as frames at the track's rate, held below Int64's bound: a time past any stream is merely past
    /// its end.
    private func frames(_ seconds: Double) -> Int64 {
        Int64(min((seconds * (timeline.track?.format.sampleRate ?? 0)).rounded(), 0x1p62))
    }
}
