import AudioFileStream

/// The header packets of a logical Ogg stream, rebuilt from the parser's magic cookie for the codec (Opus,
/// Vorbis, FLAC) with the file's tags and start trim. The identification header goes alone on the first page,
/// the others on the next; audio begins a page of its own (RFC 7845 §3, Vorbis I §4.2.1, FLAC-to-Ogg mapping).
struct OggHeaders {
    enum Codec {
        case opus, vorbis, flac
    }

    let codec: Codec
    let identification: [UInt8]
    let others: [[UInt8]]
    /// Where STREAMINFO's total samples lie in the identification packet (FLAC), for `finish` to state them.
    static let flacTotalSamplesOffset = 17 + 13

    /// - Throws: `WriteError.unsupportedFormat` when the cookie is not the codec's headers, or the start trim
    ///   cannot be stated.
    init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64) throws {
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
            others = [Array("OpusTags".utf8) + VorbisCommentWriter.block(tags: tags)]
        case AudioFormatID.vorbis:
            // The identification, comment and setup headers in Xiph lacing; ours replaces the comment header.
            guard let headers = XiphLacing.unpack(cookie), headers.count == 3, headers[0].count >= 30,
                  headers[0][0] == 1, headers[2].count >= 8, headers[2][0] == 5,
                  headers.allSatisfy({ $0.count >= 7 && $0[1..<7].elementsEqual("vorbis".utf8) })
            else { throw WriteError.unsupportedFormat("the Vorbis cookie is not its three headers") }
            codec = .vorbis
            identification = headers[0]
            // The comment header ends on its framing bit (Vorbis I §5.2.1).
            others = [[3] + Array("vorbis".utf8) + VorbisCommentWriter.block(tags: tags) + [1], headers[2]]
        case AudioFormatID.flac:
            guard cookie.count == FLACStreamInfo.length,
                  let streamInfo = cookie.withUnsafeBytes(FLACStreamInfo.init), streamInfo.sampleRate > 0
            else { throw WriteError.unsupportedFormat("the FLAC cookie is not a STREAMINFO block") }
            codec = .flac
            var tagsWithoutArtwork = tags
            tagsWithoutArtwork.artwork = nil
            // FLAC metadata blocks: a header of last-block flag and type, then a 24-bit length (RFC 9639 §8.1).
            var blocks = [Self.flacBlock(type: 4, VorbisCommentWriter.block(tags: tagsWithoutArtwork))]
            if let artwork = tags.artwork { blocks.append(Self.flacBlock(type: 6, VorbisCommentWriter.picture(artwork))) }
            blocks[blocks.count - 1][0] |= 0x80
            others = blocks
            // Total samples and MD5 are the source's, not the file's: unknown (0) until `finish` states the total.
            var body = cookie
            body[13] &= 0xF0
            body.replaceSubrange(14..<34, with: repeatElement(0, count: 20))
            // 0x7F "FLAC", mapping 1.0, the header packets that follow, then "fLaC" and the STREAMINFO block.
            identification = [0x7F] + Array("FLAC".utf8) + [1, 0, 0, UInt8(blocks.count)] + Array("fLaC".utf8)
                + Self.flacBlock(type: 0, body)
        default:
            throw WriteError.unsupportedFormat("Ogg cannot hold \(track.format.formatID) audio")
        }
    }

    private static func flacBlock(type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type, UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
    }
}
