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

    /// Why a cut cannot be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let from: Double
    private let to: Double?
    private let requested: Container?
    /// The container written: the one requested, else the codec's natural one once the format is known.
    private var container: Container? { requested ?? track.flatMap { Container.natural(for: $0.format) } }
    private var file: PieceFile
    private var track: TrackFormat?
    private var source = SourceTrims()
    private var fileStart: Int64 = 0
    private var tags = NormalizedTags()
    private var window = LeadInWindow()
    private var position: Int64 = 0
    private var opening: PieceOpening?
    /// The stream position past the last frame written, once the range's last packet is in.
    private var writtenEnd: Int64?
    /// The range's end as a stream position, when known.
    private var end: Int64?
    /// For FLAC written as FLAC, which cannot state trims: the frames the range splits are made anew, holding
    /// the range's samples alone.
    private var flacFrames: FLACFrameSamples? {
        container == .flac ? track.flatMap(FLACFrameSamples.init(track:)) : nil
    }

    /// Cuts from `from` seconds (≥ 0) to `to` (the end when nil) into a file of `container` at `file`, or of the
    /// codec's natural container when nil.
    public init(from: Double, to: Double?, container: Container?, file: PieceFile) {
        self.from = from
        self.to = to
        requested = container
        self.file = file
    }

    /// Takes one parser event.
    /// - Throws: `Failure` when the stream changes format within the range; the writer's error.
    public func handle(_ event: AudioFileStreamEvent) throws {
        if let next = TrackFormat.announced(by: event, over: track) {
            if case .property(.dataFormat, _) = event { fileStart = position }
            return try use(next)
        }
        switch event {
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            source = SourceTrims(table, at: fileStart)
        case .metadata(let metadata) where opening == nil:
            tags.fill(from: metadata.metadata.tags)
        case .packets(let batch) where writtenEnd == nil:
            try cut(batch)
        default:
            break
        }
    }

    /// Ends the file and gives it its name.
    /// - Throws: `Failure` when the range is not within the stream; the writer's or the file's error. Nothing is
    ///   left at the file's name then.
    public func finish() throws -> Result {
        do {
            guard let track, let opening, let container else { throw Failure(description: "--from \(from) s is past the end of the audio") }
            let rate = track.format.sampleRate
            let streamEnd = writtenEnd ?? position
            guard to == nil || writtenEnd != nil else {
                throw Failure(description: "--to \(to!) s is past the end of the audio "
                    + "(\(Double(streamEnd - source.primingEnd) / rate) s)")
            }
            let keptEnd = opening.statesTrims ? min(end ?? streamEnd, streamEnd) : streamEnd
            var writer = opening.writer
            try writer.finish(trailingTrim: streamEnd - keptEnd, to: &file.target)
            try file.complete(replacing: true)
            // PCM is cut at any frame, its packets being frames, and FLAC where its frames are made anew.
            return Result(frames: opening.keptStart - source.primingEnd..<keptEnd - source.primingEnd, sampleRate: rate,
                          isExact: opening.statesTrims || track.format.framesPerPacket == 1 || flacFrames != nil,
                          container: container)
        } catch {
            file.discard()
            throw error
        }
    }

    /// Abandons the cut: nothing is left at the file's name.
    public func cancel() {
        file.discard()
    }

    private func use(_ next: TrackFormat) throws {
        guard next != track else { return }
        guard opening == nil else {
            throw Failure(description: "the format changes within the range: a cut holds one format")
        }
        track = next
        window.reset(for: DecoderLeadIn.of(next.format))
    }

    private func cut(_ batch: PacketBatch) throws {
        let packets = batch.packets
        guard !packets.areConstant else {
            // PCM frames are cut at any frame: the range's part of the run is written.
            guard batch.format.framesPerPacket == 1, !packets.isEmpty else { return }
            let run = packets.span(packets.indices)
            let bytesPerFrame = Int64(batch.format.bytesPerPacket)
            return try cutPart(of: run.frames) { kept in
                Array(run.bytes[Int(kept.lowerBound * bytesPerFrame)..<Int(kept.upperBound * bytesPerFrame)])
            }
        }
        for packet in packets where writtenEnd == nil {
            if let flacFrames {
                try cutPart(of: packet.frames) {
                    $0 == 0..<packet.frames ? Array(packet.bytes)
                        : try flacFrames.frame(packet.bytes, frames: packet.frames, keeping: $0)
                }
            } else {
                try cut(packet.bytes, frames: packet.frames)
            }
        }
    }

    /// Writes the part of the next `frames` frames within the range, as `part` makes it of the frames kept.
    private func cutPart(of frames: Int64, _ part: (Range<Int64>) throws -> [UInt8]) throws {
        let (start, _) = range()
        let first = max(0, start - position)
        let last = min(frames, (end ?? .max) - position)
        guard first < last else {
            position += frames
            return
        }
        try part(first..<last).withUnsafeBytes { try cut($0, frames: last - first, skipping: first) }
        position += frames - last
    }

    private func cut(_ packet: UnsafeRawBufferPointer, frames: Int64, skipping skipped: Int64 = 0) throws {
        position += skipped
        defer {
            window.keep(packet, frames: frames)
            position += frames
        }
        let (start, _) = range()
        if opening == nil {
            guard let track, position + frames > start else { return }
            opening = try PieceOpening(container: try Container.chosen(requested, for: track.format), track: track, tags: tags, window: window,
                                       position: position, start: start, primingEnd: source.primingEnd,
                                       to: &file.target)
            if flacFrames != nil { opening!.writer.numberFLACFramesBySample() }
        }
        try opening!.writer.append(packet, frames: frames, to: &file.target)
        if let end, position + frames >= end { writtenEnd = position + frames }
    }

    /// The range as stream positions, once the rate is known: its end from `to`, else the source's audio end.
    private func range() -> (Int64, Int64?) {
        let rate = track?.format.sampleRate ?? 0
        let start = source.primingEnd + Self.frames(from, rate: rate)
        end = to.map { source.primingEnd + Self.frames($0, rate: rate) } ?? source.audioEnd
        return (start, end)
    }

    /// `seconds` as frames at `rate`, held below Int64's bound: a time past any stream is merely past its end.
    private static func frames(_ seconds: Double, rate: Double) -> Int64 {
        Int64(min((seconds * rate).rounded(), 0x1p62))
    }
}
