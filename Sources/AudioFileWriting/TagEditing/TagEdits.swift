import AudioFileStream

/// A key a tag edit names: one of the common keys `NormalizedTags` holds, or a raw field of one key space.
public enum TagKey: Hashable, Sendable, CustomStringConvertible {
    case common(CommonTagKey)
    /// `id3:TXXX:MOOD`, `itunes:----:com.apple.iTunes:MOOD`, `vorbis:MOOD`: the space and the field's id there.
    case raw(TagKeySpace, String)

    /// Parses `title`, `trackNumber` …, or `SPACE:ID`; nil for anything else.
    public init?(_ text: String) {
        if let common = CommonTagKey(rawValue: text) {
            self = .common(common)
            return
        }
        guard let colon = text.firstIndex(of: ":"), let space = TagKeySpace(rawValue: String(text[..<colon])),
              text.index(after: colon) < text.endIndex else { return nil }
        self = .raw(space, String(text[text.index(after: colon)...]))
    }

    public var description: String {
        switch self {
        case .common(let key): key.rawValue
        case .raw(let space, let id): "\(space.rawValue):\(id)"
        }
    }
}

/// The key spaces whose raw fields an edit can name.
public enum TagKeySpace: String, Sendable {
    case id3, itunes, vorbis
}

/// The common keys, as `audiostream tags` prints them.
public enum CommonTagKey: String, CaseIterable, Sendable {
    case title, artist, album, albumArtist, year, trackNumber, trackCount, discNumber, discCount, genre, comments,
         composer, bpm, grouping

    /// Sets this key of `tags` from `text`.
    /// - Throws: `TagEditError.badValue` when a number key is given something else.
    public func set(_ text: String?, in tags: inout NormalizedTags) throws {
        func number() throws -> Int? {
            guard let text else { return nil }
            guard let value = Int(text), value >= 0 else { throw TagEditError.badValue("\(rawValue) takes a number, not '\(text)'") }
            return value
        }
        switch self {
        case .title: tags.title = text
        case .artist: tags.artist = text
        case .album: tags.album = text
        case .albumArtist: tags.albumArtist = text
        case .year: tags.year = text
        case .trackNumber: tags.trackNumber = try number()
        case .trackCount: tags.trackCount = try number()
        case .discNumber: tags.discNumber = try number()
        case .discCount: tags.discCount = try number()
        case .genre: tags.genre = text
        case .comments: tags.comments = text
        case .composer: tags.composer = text
        case .bpm: tags.bpm = try number()
        case .grouping: tags.grouping = text
        }
    }

    /// The keys a tag format writes together with this one (a track's number and count share ID3's TRCK).
    var written: [CommonTagKey] {
        switch self {
        case .trackNumber, .trackCount: [.trackNumber, .trackCount]
        case .discNumber, .discCount: [.discNumber, .discCount]
        default: [self]
        }
    }
}

/// What `audiostream tags … -o OUT` changes: keys set, keys removed, the artwork replaced or removed. Every
/// field it does not name is kept as it was.
public struct TagEdits: Sendable {
    public enum ArtworkEdit: Sendable {
        /// Every picture goes; this one becomes the front cover.
        case replace(Artwork)
        case remove
    }

    public var set: [(key: TagKey, value: String)] = []
    public var remove: [TagKey] = []
    public var artwork: ArtworkEdit?

    public init() {}
}

/// Why a file's tags could not be edited.
public enum TagEditError: Error, Equatable, CustomStringConvertible {
    /// A value the key cannot take.
    case badValue(String)
    /// The file's tags are of another key space than a raw key names, or a field that cannot be written as text.
    case unsupportedKey(String)
    /// The file's structure is broken where the tags are: one line saying where.
    case damaged(String)
    /// A file type whose tags this library does not edit.
    case unsupportedFile(String)

    public var description: String {
        switch self {
        case .badValue(let text), .unsupportedKey(let text), .damaged(let text), .unsupportedFile(let text): text
        }
    }
}
