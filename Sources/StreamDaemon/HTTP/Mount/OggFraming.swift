import AudioFileStream
import AudioFileWriting

/// Opus or Vorbis packets as an Ogg stream of our own pages, one packet a page: header pages from the stream's
/// magic cookie (and, for Opus, comments rebuilt from its latest tags), then each audio packet stamped with the
/// granule position after it. A new header (a chain's next link) starts a new logical stream, once the previous
/// one is ended by its end-of-stream page (`trailer()`), as Ogg allows no stream to begin while another goes on.
struct OggFraming: ListenerFraming {
    let contentType = "audio/ogg"
    let carriesICYMetadata = false
    let header: [UInt8]?
    private var writer: OggPageWriter
    /// Added to the stream's frame counts to give granule positions: Opus counts its pre-skip.
    private let granuleOffset: Int64

    /// Opus (RFC 7845): `opusHead` is the identification header, the parser's cookie for Opus.
    init?(opusHead: [UInt8], comments: [RawTagField], serial: UInt32) {
        guard opusHead.count >= 19, opusHead.starts(with: Array("OpusHead".utf8)) else { return nil }
        granuleOffset = Int64(opusHead[10]) | Int64(opusHead[11]) << 8
        writer = OggPageWriter(serial: serial)
        let opusTags = Array("OpusTags".utf8) + VorbisCommentWriter.block(fields: comments)
        header = Self.headerPages([opusHead, opusTags], writer: &writer)
    }

    /// Vorbis: `headers` are its three headers in Xiph lacing, the parser's cookie for Vorbis.
    init?(vorbisHeaders: [UInt8], serial: UInt32) {
        guard let packets = XiphLacing.unpack(vorbisHeaders), packets.count == 3 else { return nil }
        granuleOffset = 0
        writer = OggPageWriter(serial: serial)
        header = Self.headerPages(packets, writer: &writer)
    }

    mutating func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? {
        var page: [UInt8] = []
        page.reserveCapacity(packet.count + 28 + packet.count / 255)
        writer.append(packet, granulePosition: endFrame + granuleOffset, to: &page)
        return page
    }

    mutating func trailer() -> [UInt8]? {
        var page: [UInt8] = []
        writer.endPage(isLast: true, to: &page)
        return page
    }

    /// The header packets on pages of their own, the first marked as the stream's beginning.
    private static func headerPages(_ packets: [[UInt8]], writer: inout OggPageWriter) -> [UInt8] {
        var pages: [UInt8] = []
        for packet in packets {
            packet.withUnsafeBytes { writer.append($0, granulePosition: 0, to: &pages) }
        }
        return pages
    }
}
