import AudioFileStream

/// Writes AAC or ALAC packets into an M4A (ISO/IEC 14496-12 and -14): `ftyp`, the packets in chunks of about a
/// second, and at `finish` the movie box, with the trims in an edit list and `iTunSMPB`, and the tags in `ilst`.
///
/// The file is repairable at every byte (`repair(path:)`): `free` boxes that players skip hold the track's
/// header after `ftyp` and, before each chunk's `mdat`, its packets' sizes and frame counts
/// (`M4ARecoveryBoxes`). A chunk's packets are held in memory until it is written whole, so a crash loses at
/// most the last second given, with whatever the target had not yet stored.
public struct M4AWriter: ContainerWriter {
    private let header: M4ATrackHeader
    private var table = M4ASampleTable()
    /// The chunk being gathered: its packets' bytes, sizes and frame runs, and its frames.
    private var chunk: [UInt8] = []
    private var chunkSizes: [UInt32] = []
    private var chunkRuns: [M4AFrameRun] = []
    private var chunkFrames: Int64 = 0
    /// The segments ended by `startSegment`, and the leading trim of the one under way.
    private var segments: [M4ASegment] = []
    private var segmentTrim: Int64

    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
                to target: inout some WriteTarget) throws {
        header = try M4ATrackHeader(track: track, tags: tags, leadingTrim: leadingTrim)
        segmentTrim = leadingTrim
        try target.append(Self.fileType)
        try target.append(M4ARecoveryBoxes.header(header))
    }

    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64,
                                to target: inout some WriteTarget) throws {
        guard let frameCount = UInt32(exactly: frames), packet.count <= Self.largestPacket else {
            throw WriteError.unsupportedFormat(
                "an M4A cannot hold a packet of \(packet.count) bytes and \(frames) frames")
        }
        chunk += packet
        chunkSizes.append(UInt32(packet.count))
        chunkRuns.appendFrames(frameCount)
        chunkFrames += frames
        table.add(size: UInt32(packet.count), frames: frameCount)
        if chunkFrames >= Int64(header.timescale) || chunk.count >= Self.largestPacket { try writeChunk(to: &target) }
    }

    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        try writeChunk(to: &target)
        endSegment(trailingTrim: trailingTrim)
        try target.append(M4AMovie.box(header, table, segments: segments))
    }

    /// Ends the packets given so far as one segment with `trailingTrim`, and starts another whose first
    /// `leadingTrim` frames are not audio: the movie plays each through an edit of its own, so that files
    /// joined keep their own trims (ffmpeg decodes the trimmed packets and drops what they give). A file of
    /// several segments states no iTunSMPB, and a repair gives it the first one's start trim alone.
    public mutating func startSegment(leadingTrim: Int64, endingTheLastWith trailingTrim: Int64) {
        endSegment(trailingTrim: trailingTrim)
        segmentTrim = leadingTrim
    }

    private mutating func endSegment(trailingTrim: Int64) {
        let start = segments.last?.end ?? 0
        segments.append(M4ASegment(start: start, leadingTrim: segmentTrim, trailingTrim: trailingTrim, end: table.totalFrames))
    }

    /// Far above any AAC or ALAC packet (ALAC's largest is its frames' PCM, 4096 frames of 8 channels of 32
    /// bits: 128 KiB), and small enough that a chunk's `mdat` size keeps to 32 bits.
    private static let largestPacket = 16 << 20

    /// `ftyp`: an iTunes audio file (`M4A `), also readable as MPEG-4 version 2 and ISO base media.
    static let fileType: [UInt8] = {
        var builder = MP4BoxBuilder()
        builder.box("ftyp") {
            $0.fourCC("M4A ")
            $0.uint32(0x200)
            for brand in ["M4A ", "mp42", "isom"] { $0.fourCC(brand) }
        }
        return builder.bytes
    }()

    /// Writes the chunk gathered, its index first, and starts the next one.
    private mutating func writeChunk(to target: inout some WriteTarget) throws {
        guard !chunkSizes.isEmpty else { return }
        try target.append(M4ARecoveryBoxes.chunkIndex(sizes: chunkSizes, runs: chunkRuns))
        var mdat = MP4BoxBuilder()
        mdat.uint32(UInt32(8 + chunk.count))
        mdat.fourCC("mdat")
        try target.append(mdat.bytes)
        table.addChunk(at: target.size, packets: UInt32(chunkSizes.count))
        try target.append(chunk)
        chunk.removeAll(keepingCapacity: true)
        chunkSizes.removeAll(keepingCapacity: true)
        chunkRuns.removeAll(keepingCapacity: true)
        chunkFrames = 0
    }
}
