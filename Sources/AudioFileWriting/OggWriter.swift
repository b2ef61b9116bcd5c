import AudioFileStream

/// Opus, Vorbis or FLAC packets as one logical Ogg stream (`.ogg`, `.opus`, `.oga`): the codec's headers from
/// the parser's cookie with the file's tags as Vorbis comments, then the packets gathered on pages of up to about
/// 4 KiB or a second, each page stamped with the granule position after its last packet, counted from the file's
/// first packet.
///
/// The start trim is stated as Opus' pre-skip (`leadingTrim` at most 65,535 frames), or for Vorbis and FLAC as
/// granule positions lowered by it, which makes the first audio page's position smaller than its packets' frames
/// (Vorbis I §A.2). The end trim lowers the last page's position, which `finish` writes with the end-of-stream
/// flag: the page being gathered is held until then, so it always holds the last packet, and `trailingTrim`
/// must not pass that page's frames. A Vorbis file's first packet decodes to nothing whatever `frames` says.
///
/// A file cut short (a crash) holds every page written so far, each whole and checked by its CRC; only the
/// final granule position and the end-of-stream flag are missing.
public struct OggWriter: ContainerWriter {
    private let codec: OggHeaders.Codec
    private var pages: OggPageWriter
    /// Pages made and not yet given to the target: reused from packet to packet.
    private var output: [UInt8] = []
    /// The frames a page gathers before it is ended: a second's worth.
    private let framesPerPage: Int64
    private static let bytesPerPage = 4096
    private static let largestPacketFrames: Int64 = 1 << 20
    /// Subtracted from the frames decoded so far to give granule positions (Vorbis and FLAC start trims).
    private let granuleOffset: Int64
    /// Frames the packets so far decode to.
    private var frames: Int64 = 0
    /// Frames the packets on the page being gathered decode to.
    private var framesOnPage: Int64 = 0
    private var hasPackets = false
    private var hasEndedAudioPage = false
    /// The granule position of the last page ended, below which the last page's may not go.
    private var endedGranulePosition: Int64 = 0
    /// The first page of a FLAC stream, kept to state its total samples at the end.
    private var firstPage: [UInt8] = []

    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget) throws {
        // FLAC keeps its artwork in a PICTURE block, Opus and Vorbis in their comments.
        let isFLAC = track.format.formatID == AudioFormatID.flac
        var commentTags = tags
        if isFLAC { commentTags.artwork = nil }
        let headers = try OggHeaders(track: track, comments: VorbisCommentWriter.block(tags: commentTags),
                                     flacPicture: isFLAC ? tags.artwork.flatMap(FLACPictureWriter.body) : nil,
                                     leadingTrim: leadingTrim)
        codec = headers.codec
        granuleOffset = codec == .opus ? 0 : leadingTrim
        // Ogg's codecs run at 8 to 384 kHz; a rate beyond that is a lie, refused before it is converted.
        guard (1...1_000_000).contains(track.format.sampleRate) else {
            throw WriteError.unsupportedFormat("a sample rate of \(track.format.sampleRate) Hz")
        }
        framesPerPage = Int64(track.format.sampleRate)
        // RFC 3533 §4: a random serial, so that files joined into one chained stream have serials of their own.
        pages = OggPageWriter(serial: UInt32.random(in: 0...UInt32.max))
        headers.write(to: &pages, pages: &output)
        if codec == .flac { firstPage = Array(output.prefix(27 + 1 + headers.identification.count)) }
        try flush(to: &target)
    }

    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64,
                                to target: inout some WriteTarget) throws {
        // No packet holds more than a few seconds: a larger count is a lie that would overflow the positions.
        guard (0...Self.largestPacketFrames).contains(frames) else {
            throw WriteError.unsupportedFormat("a packet of \(frames) frames")
        }
        let packetFrames = codec == .vorbis && !hasPackets ? 0 : frames
        // A page ends before a packet once it is full enough, and never at a position of 0 or below (a start
        // trim larger than the packets so far). The first audio page ends as soon as it can: ffmpeg reads a
        // stream's start (its first packet's frames, a start trim) from a first audio page only when a later
        // page follows it, and otherwise takes them off the end.
        let isFull = pages.gatheredBytes >= Self.bytesPerPage || framesOnPage >= framesPerPage
        if isFull || !hasEndedAudioPage, granulePosition > 0 {
            hasEndedAudioPage = true
            pages.endPage(to: &output)
            endedGranulePosition = granulePosition
            framesOnPage = 0
        }
        self.frames += packetFrames
        framesOnPage += packetFrames
        hasPackets = true
        pages.add(packet, granulePosition: granulePosition, to: &output)
        try flush(to: &target)
    }

    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        let last = max(granulePosition - max(trailingTrim, 0), endedGranulePosition)
        pages.endPage(granulePosition: last, isLast: true, to: &output)
        try flush(to: &target)
        if codec == .flac { try stateTotalSamples(last, to: &target) }
    }

    /// The position after the packets so far.
    private var granulePosition: Int64 { frames - granuleOffset }

    private mutating func flush(to target: inout some WriteTarget) throws {
        guard !output.isEmpty else { return }
        defer { output.removeAll(keepingCapacity: true) }
        try target.append(output)
    }

    /// Rewrites the first page with STREAMINFO's 36-bit total of samples.
    private func stateTotalSamples(_ total: Int64, to target: inout some WriteTarget) throws {
        var page = firstPage
        // The identification packet is shorter than 255 bytes: a page header of one lacing value.
        let offset = 27 + 1 + OggHeaders.flacTotalSamplesOffset
        page[offset] = page[offset] & 0xF0 | UInt8(total >> 32 & 0x0F)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: total).bigEndian) {
            page.replaceSubrange(offset + 1..<offset + 5, with: $0)
        }
        OggPageWriter.stampCRC(&page, pageAt: 0)
        try target.overwrite(at: 0, with: page)
    }
}
