import AudioFileStream
import AudioFileWriting

/// The start of a file of a stream's packets at its next packet: the writer made, and, when the container
/// states trims, the decoder's lead-in written before the packet with a leading trim that makes the file's
/// decoded output start at the first frame kept. Recording pieces and cuts start their files alike.
struct PieceOpening {
    var writer: PieceWriter
    /// Whether the container states trims: else the file holds whole packets from the next one.
    let statesTrims: Bool
    /// The packets of the lead-in written.
    let leadInPackets: Int
    /// The stream position of the file's first frame kept.
    let keptStart: Int64

    /// Starts a file of `container` for `track` at the next packet, which begins at stream `position`: keeping
    /// frames from `start` (within that packet) and past the source's priming, `primingEnd`.
    /// - Throws: the writer's or the target's error.
    init(container: Container, track: TrackFormat, tags: NormalizedTags, window: LeadInWindow, position: Int64,
         start: Int64, primingEnd: Int64, to target: inout some WriteTarget) throws {
        statesTrims = container.statesTrims(for: track.format)
        leadInPackets = statesTrims ? window.count : 0
        // The decoded output of the file's packets starts where the lead-in's does.
        let outputStart = position - (statesTrims ? window.decodedFrames : 0)
        keptStart = statesTrims ? max(start, primingEnd) : position
        writer = try PieceWriter(container: container, track: track, tags: tags,
                                 leadingTrim: max(0, keptStart - outputStart), to: &target)
        if statesTrims {
            try window.forEach { packet in
                try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
            }
        }
    }
}
