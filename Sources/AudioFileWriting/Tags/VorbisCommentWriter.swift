import AudioFileStream

/// Writes Vorbis comment blocks (Vorbis I specification §5.2.1): the vendor string, then `KEY=value` fields,
/// every length a little-endian 32-bit count. OpusTags, Vorbis' comment header and FLAC's VORBIS_COMMENT block
/// carry one; callers add what precedes it (`OpusTags`, `\u{3}vorbis`, the FLAC block header) and, for Vorbis,
/// the framing bit after it. What `AudioFileStream` reads back from a block gives the tags that were written.
public enum VorbisCommentWriter {
    /// The vendor string written when the caller names none.
    public static let vendor = "audiostream"

    /// The block holding `tags` under the keys taggers use (TITLE, ARTIST, ALBUM, ALBUMARTIST, DATE,
    /// TRACKNUMBER, TRACKTOTAL, DISCNUMBER, DISCTOTAL, GENRE, COMMENT, COMPOSER, BPM, GROUPING) and the artwork
    /// as a METADATA_BLOCK_PICTURE (a FLAC PICTURE block in base64, the Xiph convention for Ogg). FLAC files,
    /// which store pictures in PICTURE blocks of their own, pass tags without artwork.
    public static func block(tags: NormalizedTags, vendor: String = vendor) -> [UInt8] {
        block(comments: comments(of: tags), vendor: vendor)
    }

    /// The `KEY=value` comments of `tags`, artwork last.
    static func comments(of tags: NormalizedTags) -> [String] {
        var comments = textFields(of: tags).map { "\($0.key)=\($0.value)" }
        if let artwork = tags.artwork, let picture = FLACPictureWriter.body(artwork) {
            comments.append("METADATA_BLOCK_PICTURE=" + Base64Encoding.encode(picture))
        }
        return comments
    }

    /// The block holding a tag's raw fields as they were read: one `KEY=value` per text value, in order;
    /// pictures and binary fields are left out.
    public static func block(fields: [RawTagField], vendor: String = vendor) -> [UInt8] {
        var comments: [String] = []
        for field in fields {
            guard case .text(let values) = field.value else { continue }
            comments += values.map { "\(field.key)=\($0)" }
        }
        return block(comments: comments, vendor: vendor)
    }

    /// The text keys of `tags`, in a fixed order.
    static func textFields(of tags: NormalizedTags) -> [(key: String, value: String)] {
        let fields: [(String, String?)] = [
            ("TITLE", tags.title), ("ARTIST", tags.artist), ("ALBUM", tags.album),
            ("ALBUMARTIST", tags.albumArtist), ("DATE", tags.year), ("TRACKNUMBER", tags.trackNumber.map(String.init)),
            ("TRACKTOTAL", tags.trackCount.map(String.init)), ("DISCNUMBER", tags.discNumber.map(String.init)),
            ("DISCTOTAL", tags.discCount.map(String.init)), ("GENRE", tags.genre), ("COMMENT", tags.comments),
            ("COMPOSER", tags.composer), ("BPM", tags.bpm.map(String.init)), ("GROUPING", tags.grouping),
        ]
        return fields.compactMap { key, value in value.map { (key, $0) } }
    }

    /// The block holding `comments` (`KEY=value` each) as they are.
    static func block(comments: [String], vendor: String) -> [UInt8] {
        var block = lengthPrefixed(vendor) + [UInt8](littleEndian: UInt32(comments.count))
        for comment in comments { block += lengthPrefixed(comment) }
        return block
    }

    private static func lengthPrefixed(_ text: String) -> [UInt8] {
        [UInt8](littleEndian: UInt32(text.utf8.count)) + Array(text.utf8)
    }
}
