import AudioFileStream
import AudioFileWriting

/// Opus or Vorbis packets as an Ogg stream of our own pages, one packet a page: the header pages a file of the
/// stream begins with (`OggHeaders`, with comments rebuilt from the stream's latest tags), then each audio packet
/// stamped with the granule position after it. A new header (a chain's next link) starts a new logical stream,
/// once the previous one is ended by its end-of-stream page (`trailer()`), as Ogg allows no stream to begin while
/// another goes on.
struct OggFraming: ListenerFraming {
    let contentType = "audio/ogg"
    let carriesICYMetadata = false
    let header: [UInt8]?
    private var writer: OggPageWriter
    /// Added to the stream's frame counts to give granule positions: Opus counts its pre-skip.
    private let granuleOffset: Int64
    /// The granule position no page goes past: a playlist segment's end, which its last page states.
    private let lastGranule: Int64
    /// The link's end-of-stream page is written.
    private var hasEnded = false
    let statesSegmentTrims: Bool

    /// `track` holds the parser's cookie for the codec: Opus' identification header, or Vorbis' three headers.
    /// An Opus playlist segment is a link of its own, trimmed as its table says: its priming as the pre-skip,
    /// and its end by the last page's granule position (RFC 7845 §4.2, §4.5). A Vorbis segment starts a link
    /// without trims.
    init?(track: TrackFormat, comments: [RawTagField], serial: UInt32, segment: ListenerSegment? = nil) {
        let cookie = track.cookie
        let isOpus = track.format.formatID == AudioFormatID.opus
        // The source's pre-skip is kept (RFC 7845 §4.2): OpusHead holds it at bytes 10–11.
        let preSkip = isOpus && cookie.count >= 12 ? Int64(cookie[10]) | Int64(cookie[11]) << 8 : 0
        let trims = isOpus ? segment : nil
        statesSegmentTrims = trims != nil
        guard let headers = try? OggHeaders(
            track: track, comments: VorbisCommentWriter.block(fields: comments),
            leadingTrim: trims.map { Int64($0.table.primingFrames) } ?? preSkip)
        else { return nil }
        // A segment's granules count its frames from its own start, priming included.
        granuleOffset = segment.map { -$0.startFrame } ?? preSkip
        lastGranule = trims.flatMap { $0.table.validFrames > 0 ? Int64($0.table.primingFrames) + $0.table.validFrames : nil }
            ?? .max
        writer = OggPageWriter(serial: serial)
        var pages: [UInt8] = []
        headers.write(to: &writer, pages: &pages)
        header = pages
    }

    mutating func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? {
        var page: [UInt8] = []
        page.reserveCapacity(packet.count + 28 + packet.count / 255)
        // A segment's last packet ends the link on its own page, whose granule position trims it: players
        // (ffmpeg) apply an end trim on the end-of-stream page only (RFC 7845 §4.5).
        let granulePosition = endFrame + granuleOffset
        let endsSegment = granulePosition >= lastGranule
        writer.append(packet, granulePosition: min(granulePosition, lastGranule), isLast: endsSegment, to: &page)
        hasEnded = endsSegment
        return page
    }

    mutating func trailer() -> [UInt8]? {
        guard !hasEnded else { return nil }
        var page: [UInt8] = []
        writer.endPage(isLast: true, to: &page)
        return page
    }
}
