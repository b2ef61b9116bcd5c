import AudioFileStream

/// Writes tags as a RIFF `LIST` chunk of type `INFO` (the RIFF specification's INFO list), as WAVE files carry
/// them: `INAM` title, `IART` artist, `IPRD` album, `ICRD` date, `IGNR` genre, `ICMT` comment, `ITRK` track.
///
/// The text is UTF-8, NUL-terminated: what ffmpeg and our parser read (the specification predates Unicode and
/// names no encoding; readers that assume Latin-1 show non-ASCII text garbled).
public enum RIFFInfoWriter {
    /// The whole chunk, header included and padded to an even length, or nil when no tag has a value.
    public static func chunk(_ tags: NormalizedTags) -> [UInt8]? {
        let fields: [(String, String?)] = [
            ("INAM", tags.title), ("IART", tags.artist), ("IPRD", tags.album), ("ICRD", tags.year),
            ("IGNR", tags.genre), ("ICMT", tags.comments), ("ITRK", tags.trackNumber.map(String.init)),
        ]
        var body = Array("INFO".utf8)
        for (id, value) in fields {
            guard let value, !value.isEmpty else { continue }
            let text = Array(value.utf8) + [0]
            body += id.utf8
            body.append(littleEndian: UInt64(text.count), count: 4)
            body += text
            if text.count % 2 == 1 { body.append(0) }
        }
        guard body.count > 4 else { return nil }
        var chunk = Array("LIST".utf8)
        chunk.append(littleEndian: UInt64(body.count), count: 4)
        return chunk + body
    }
}
