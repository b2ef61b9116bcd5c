import AudioFileStream
import AudioFileWriting

/// A file of a stream's packets under way: its file, its writer, and where it started. Recording pieces, cuts
/// and joins write through it alike.
///
/// Where the container states trims, a piece starts with the decoder's lead-in (the packets a decoder needs
/// before the first frame kept) and a leading trim that makes its decoded output start at that frame; else it
/// holds whole packets from the next one.
struct OpenPiece {
    private var file: PieceFile
    private var writer: any ContainerWriter
    let container: Container
    /// Whether the container states trims for the track.
    let statesTrims: Bool
    /// The packets of the lead-in written.
    let leadInPackets: Int
    /// The stream position of the first frame kept.
    let keptStart: Int64
    /// Packets written, the lead-in's included.
    private(set) var packets: Int

    /// Starts a file of `container` at `file` for the timeline's track at its next packet, keeping frames from
    /// `start` (within that packet) on and past the source's priming.
    /// - Throws: the writer's or the file's error; the caller then still has `file` to discard.
    init(container: Container, timeline: StreamTimeline, tags: NormalizedTags, start: Int64,
         numbersFLACFramesBySample: Bool = false, file: PieceFile) throws {
        guard let track = timeline.track else { throw WriteError.unsupportedFormat("no format was announced") }
        self.file = file
        self.container = container
        statesTrims = container.statesTrims(for: track.format)
        let window = timeline.window
        leadInPackets = statesTrims ? window.count : 0
        // The decoded output of the file's packets starts where the lead-in's does.
        let outputStart = timeline.position - (statesTrims ? window.decodedFrames : 0)
        keptStart = statesTrims ? max(start, timeline.trims.primingEnd) : timeline.position
        let options = WriterOptions(numbersFLACFramesBySample: numbersFLACFramesBySample,
                                    flacSamplesDigest: container == .flac ? FLACPieceDigest(track: track) : nil)
        writer = try container.makeWriter(track: track, tags: tags, leadingTrim: max(0, keptStart - outputStart),
                                          options: options, to: &self.file.target)
        packets = leadInPackets
        if statesTrims {
            try window.forEach { packet in
                try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &self.file.target) }
            }
        }
    }

    /// The name the file takes when complete.
    var path: String { file.path }

    /// Bytes written so far.
    var bytes: Int64 { file.target.size }

    mutating func append(_ packet: AudioPacket) throws {
        try writer.append(packet.bytes, frames: packet.frames, to: &file.target)
        packets += 1
    }

    /// Starts another run with trims of its own (`ContainerWriter.startSegment`, where `container.statesEdits`).
    mutating func startSegment(leadingTrim: Int64, endingTheLastWith trailingTrim: Int64) {
        writer.startSegment(leadingTrim: leadingTrim, endingTheLastWith: trailingTrim)
    }

    /// Ends the chain link under way (Ogg) with `trailingTrim`, and starts the next, of `track`, with
    /// `leadingTrim`.
    mutating func chain(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
                        endingTheLastWith trailingTrim: Int64) throws {
        try writer.finish(trailingTrim: trailingTrim, to: &file.target)
        writer = try container.makeWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &file.target)
    }

    /// Ends the file with `trailingTrim` and gives it its name (`PieceFile.complete`); after a failure the part
    /// is still there, to abandon or discard.
    /// - Returns: the path the file now has, and its bytes.
    mutating func finish(trailingTrim: Int64, replacing: Bool = false) throws -> (path: String, bytes: Int64) {
        try writer.finish(trailingTrim: trailingTrim, to: &file.target)
        let bytes = file.target.size
        return (try file.complete(replacing: replacing), bytes)
    }

    /// Leaves the file as `.part`, for a repair (`PieceFile.abandon`).
    consuming func abandon() {
        file.abandon()
    }

    /// Removes the file (`PieceFile.discard`).
    consuming func discard() {
        file.discard()
    }
}
