/// Maps the raw fields of any tag format to the common keys, with one table: each row names a common key and
/// every raw key that holds it. Another format is supported by adding its keys to the rows (Vorbis `TITLE`,
/// iTunes `©nam`, …), not code. Raw keys match case-insensitively, as APEv2 and Vorbis comment keys do.
package enum MetadataNormalizer {
    /// How a raw value becomes a common key.
    enum Target {
        case text(WritableKeyPath<NormalizedTags, String?> & Sendable)
        /// `3`, `3/12` or `/12`: a number and a count, either optional.
        case position(
            number: WritableKeyPath<NormalizedTags, Int?> & Sendable,
            count: WritableKeyPath<NormalizedTags, Int?> & Sendable
        )
        case integer(WritableKeyPath<NormalizedTags, Int?> & Sendable)
        /// Genre text, with ID3 numeric genres resolved to names.
        case genre
        /// A comment: one with an empty description is preferred, iTunes' internal ones are skipped.
        case comment
    }

    struct Row: Sendable {
        let target: Target
        let keys: [String]

        init(_ target: Target, _ keys: String...) {
            self.target = target
            self.keys = keys
        }
    }

    /// Keys in each row: ID3v2.3/2.4, ID3v2.2, then APEv2 (whose names ID3v1 fields share), then Vorbis comments
    /// where their names differ (Vorbis `TITLE`, `ALBUMARTIST`, `ALBUM ARTIST`, … match the APEv2 names), then
    /// RIFF INFO ids (`INAM` …), AIFF text chunk ids (`NAME`, `AUTH`, `ANNO`), CAF `info` keys where theirs differ
    /// (`year`, `title`, … match too), iTunes atoms (which QuickTime user data shares) and QuickTime metadata keys.
    static let rows: [Row] = [
        Row(.text(\.title), "TIT2", "TT2", "Title", "INAM", "NAME", "©nam", "com.apple.quicktime.title"),
        Row(.text(\.artist), "TPE1", "TP1", "Artist", "IART", "AUTH", "©ART", "com.apple.quicktime.artist"),
        Row(.text(\.album), "TALB", "TAL", "Album", "IPRD", "©alb", "com.apple.quicktime.album"),
        Row(.text(\.albumArtist), "TPE2", "TP2", "Album Artist", "AlbumArtist", "aART"),
        Row(.text(\.year), "TDRC", "TYER", "TYE", "Year", "DATE", "ICRD", "©day", "com.apple.quicktime.creationdate"),
        Row(.position(number: \.trackNumber, count: \.trackCount), "TRCK", "TRK", "Track", "TRACKNUMBER", "ITRK",
            "IPRT", "track number", "trkn"),
        // Vorbis comments often give the count in a key of its own.
        Row(.integer(\.trackCount), "TRACKTOTAL", "TOTALTRACKS"),
        Row(.position(number: \.discNumber, count: \.discCount), "TPOS", "TPA", "Disc", "DISCNUMBER", "disk"),
        Row(.integer(\.discCount), "DISCTOTAL", "TOTALDISCS"),
        Row(.genre, "TCON", "TCO", "Genre", "IGNR", "©gen", "gnre", "com.apple.quicktime.genre"),
        Row(.comment, "COMM", "COM", "Comment", "DESCRIPTION", "ICMT", "ANNO", "comments", "©cmt",
            "com.apple.quicktime.comment"),
        Row(.text(\.composer), "TCOM", "TCM", "Composer", "©wrt", "com.apple.quicktime.composer"),
        Row(.integer(\.bpm), "TBPM", "TBP", "BPM", "tempo", "tmpo"),
        // iTunes writes its grouping to GRP1 and uses TIT1 for the work.
        Row(.text(\.grouping), "TIT1", "TT1", "GRP1", "Grouping", "©grp"),
    ]

    /// Several values of one field are joined with this separator.
    static let valueSeparator = "; "

    private static let targetsByKey: [String: Target] = Dictionary(
        rows.flatMap { row in row.keys.map { ($0.lowercased(), row.target) } },
        uniquingKeysWith: { first, _ in first }
    )

    /// The common keys of `fields`. Each key takes the first field that gives it a value; artwork is the first
    /// front cover (picture type 3) or else the first picture, whatever the field's key.
    package static func tags(from fields: [RawTagField]) -> NormalizedTags {
        var tags = NormalizedTags()
        for field in fields {
            guard let target = targetsByKey[field.key.lowercased()] else { continue }
            apply(field.value, to: target, in: &tags)
        }
        tags.comments = preferredComment(in: fields)
        let pictures = fields.compactMap { field -> Artwork? in
            if case .picture(let artwork) = field.value { artwork } else { nil }
        }
        tags.artwork = pictures.first { $0.pictureType == 3 } ?? pictures.first
        return tags
    }

    private static func apply(_ value: RawTagValue, to target: Target, in tags: inout NormalizedTags) {
        guard case .text(let values) = value, !values.isEmpty else { return }
        let joined = values.joined(separator: valueSeparator)
        switch target {
        case .text(let keyPath):
            if tags[keyPath: keyPath] == nil, !joined.isEmpty { tags[keyPath: keyPath] = joined }
        case .position(let number, let count):
            // Number and count are each taken once: a count may also come alone, from a key of its own.
            guard let position = position(values[0]) else { return }
            if tags[keyPath: number] == nil { tags[keyPath: number] = position.number }
            if tags[keyPath: count] == nil { tags[keyPath: count] = position.count }
        case .integer(let keyPath):
            if tags[keyPath: keyPath] == nil { tags[keyPath: keyPath] = integer(values[0]) }
        case .genre:
            let names = values.flatMap(ID3Genres.resolve)
            if tags.genre == nil, !names.isEmpty { tags.genre = names.joined(separator: valueSeparator) }
        case .comment:
            // Chosen among all the tag's comments at once, by `preferredComment(in:)`.
            break
        }
    }

    /// The comment to show: the first with an empty description, else the first that is not one of iTunes'
    /// internal comments (iTunNORM, iTunSMPB, … hold loudness and gapless data, not words).
    private static func preferredComment(in fields: [RawTagField]) -> String? {
        let comments = fields.compactMap { field -> (description: String, text: String)? in
            guard case .comment = targetsByKey[field.key.lowercased()] else { return nil }
            switch field.value {
            case .comment(_, let description, let text): return (description, text)
            case .text(let values): return ("", values.joined(separator: valueSeparator))
            default: return nil
            }
        }.filter { !$0.text.isEmpty && !$0.description.hasPrefix("iTun") }
        return (comments.first { $0.description.isEmpty } ?? comments.first)?.text
    }

    /// `3`, `3/12` or `/12` (ID3v2.4 §4.2.1 TRCK and TPOS); surrounding spaces are allowed.
    private static func position(_ text: String) -> (number: Int?, count: Int?)? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let number = integer(String(parts[0]))
        let count = parts.count > 1 ? integer(String(parts[1])) : nil
        return number == nil && count == nil ? nil : (number, count)
    }

    /// A whole number, or a decimal one rounded (some taggers write BPM as `120.5`).
    private static func integer(_ text: String) -> Int? {
        let trimmed = text.filter { $0 != " " }
        return Int(trimmed) ?? Double(trimmed).flatMap { Int(exactly: $0.rounded()) }
    }
}
