import AudioFileStream

/// The header packets of a logical Ogg stream, rebuilt from the parser's magic cookie for the codec (Opus,
/// Vorbis, FLAC) with comments of our own: what files and the daemon's Ogg mounts begin with.
public struct OggHeaders: Sendable {
    public enum Codec: Sendable {
        case opus, vorbis, flac
    }

    public let codec: Codec
    /// The identification header, and the headers that follow it.
    public let identification: [UInt8]
    public let others: [[UInt8]]
    /// Where STREAMINFO's total samples lie in the identification packet (FLAC), for `finish` to state them.
    static let flacTotalSamplesOffset = 17 + 13

    /// The headers of `track`'s codec carrying `comments`, a Vorbis comment block (`VorbisCommentWriter`), and
    /// for FLAC `flacPicture`, a PICTURE block's body, after it. `leadingTrim` is Opus' pre-skip; Vorbis and
    /// FLAC state a start trim in granule positions, not in their headers. FLAC's STREAMINFO says its total of
    /// samples and MD5 are unknown: the source's are not the file's.
    /// - Throws: `WriteError.unsupportedFormat` when the cookie is not the codec's headers, or the pre-skip does
    ///   not fit its 16 bits.
    public init(track: TrackFormat, comments: [UInt8], flacPicture: [UInt8]? = nil, leadingTrim: Int64) throws {
        let cookie = track.cookie
        switch track.format.formatID {
        case AudioFormatID.opus:
            // RFC 7845 §5.1: magic, version (major 0), channels, a 16-bit pre-skip, …; family 0 holds 1–2 channels.
            guard cookie.count >= 19, cookie.starts(with: "OpusHead".utf8), cookie[8] & 0xF0 == 0, cookie[9] > 0,
                  cookie[18] != 0 || cookie[9] <= 2, cookie[18] == 0 || cookie.count >= 21 + Int(cookie[9])
            else { throw WriteError.unsupportedFormat("the Opus cookie is not an OpusHead") }
            guard (0...Int64(UInt16.max)).contains(leadingTrim) else {
                throw WriteError.unsupportedFormat("an Opus pre-skip holds at most 65535 frames, not \(leadingTrim)")
            }
            codec = .opus
            var head = cookie
            head[10] = UInt8(leadingTrim & 0xFF)
            head[11] = UInt8(leadingTrim >> 8)
            identification = head
            others = [Array("OpusTags".utf8) + comments]
        case AudioFormatID.vorbis:
            // The identification, comment and setup headers in Xiph lacing; ours replaces the comment header.
            guard let headers = XiphLacing.unpack(cookie), headers.count == 3, headers[0].count >= 30,
                  headers[0][0] == 1, headers[2].count >= 8, headers[2][0] == 5,
                  headers.allSatisfy({ $0.count >= 7 && $0[1..<7].elementsEqual("vorbis".utf8) })
            else { throw WriteError.unsupportedFormat("the Vorbis cookie is not its three headers") }
            codec = .vorbis
            identification = headers[0]
            // The comment header ends on its framing bit (Vorbis I §5.2.1).
            others = [[3] + Array("vorbis".utf8) + comments + [1], headers[2]]
        case AudioFormatID.flac:
            guard cookie.count == FLACStreamInfo.length,
                  let streamInfo = cookie.withUnsafeBytes(FLACStreamInfo.init), streamInfo.sampleRate > 0
            else { throw WriteError.unsupportedFormat("the FLAC cookie is not a STREAMINFO block") }
            codec = .flac
            // FLAC metadata blocks: a header of last-block flag and type, then a 24-bit length (RFC 9639 §8.1).
            var blocks = [Self.flacBlock(type: 4, comments)]
            if let flacPicture { blocks.append(Self.flacBlock(type: 6, flacPicture)) }
            guard blocks.allSatisfy({ $0.count - 4 < 1 << 24 }) else {
                throw WriteError.unsupportedFormat("a FLAC metadata block holds less than 16 MiB")
            }
            blocks[blocks.count - 1][0] |= 0x80
            others = blocks
            var body = cookie
            body[13] &= 0xF0
            body.replaceSubrange(14..<34, with: repeatElement(0, count: 20))
            // 0x7F "FLAC", mapping 1.0, the header packets that follow, then "fLaC" and the STREAMINFO block.
            identification = [0x7F] + Array("FLAC".utf8) + [1, 0, 0, UInt8(blocks.count)] + Array("fLaC".utf8)
                + Self.flacBlock(type: 0, body)
        default:
            throw WriteError.unsupportedFormat("Ogg cannot hold \(track.format.codecName) audio")
        }
    }

    /// Adds the header pages to `pages`: the identification header alone on the first, the others on the next,
    /// so that audio begins a page of its own (RFC 7845 §3, Vorbis I §A.2, the FLAC-to-Ogg mapping).
    public func write(to writer: inout OggPageWriter, pages: inout [UInt8]) {
        identification.withUnsafeBytes { writer.add($0, granulePosition: 0, to: &pages) }
        writer.endPage(to: &pages)
        for header in others {
            header.withUnsafeBytes { writer.add($0, granulePosition: 0, to: &pages) }
        }
        writer.endPage(to: &pages)
    }

    private static func flacBlock(type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type, UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
    }
}
