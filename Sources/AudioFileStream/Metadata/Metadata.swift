/// One tag read from the stream: its common keys, normalised, and its fields as they were read.
public struct Metadata: Equatable, Sendable {
    /// The tag format: `id3v2.2`, `id3v2.3`, `id3v2.4`, `id3v1`, `id3v1.1`, `apev2`, `vorbis` (the comment
    /// packet of an Ogg Vorbis, Opus or FLAC stream), `flac` (a native FLAC header's VORBIS_COMMENT and
    /// PICTURE blocks), `riffInfo` (a WAVE LIST/INFO chunk, raw keys its ids) or `aiffText` (an AIFF NAME, AUTH,
    /// `(c) ` or ANNO chunk, raw key its id).
    public var source: String
    /// The common keys, whatever the tag format called them.
    public var tags: NormalizedTags
    /// Every field in the order read, under the tag format's own key: the ID3v2 frame id (`TIT2`, `TT2`),
    /// the APEv2 item key, the Vorbis comment key as written (`TITLE`, `Artist`; a FLAC PICTURE block is
    /// `METADATA_BLOCK_PICTURE`, as Vorbis comments name artwork), or for ID3v1 the field's name (`Title`,
    /// `Artist`, `Album`, `Year`, `Comment`, `Track`, `Genre`). Empty ID3v2 frames are left out.
    public var raw: [RawTagField]

    public init(source: String, tags: NormalizedTags = NormalizedTags(), raw: [RawTagField] = []) {
        self.source = source
        self.tags = tags
        self.raw = raw
    }
}

/// The common keys every tag format maps to. A field holding several values gives them joined with `"; "`.
public struct NormalizedTags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    /// The year or full recording date as written (`2024`, `2024-05-01`).
    public var year: String?
    public var trackNumber: Int?
    public var trackCount: Int?
    public var discNumber: Int?
    public var discCount: Int?
    /// The genre name; ID3 numeric genres such as `(13)` are resolved to their names (`(13)Refinement` gives
    /// `Pop; Refinement`).
    public var genre: String?
    /// The comment without a description, else the first comment; iTunes' internal ones (iTunNORM, …) never.
    public var comments: String?
    public var composer: String?
    public var bpm: Int?
    public var grouping: String?
    /// The front cover, or the first picture when there is no front cover.
    public var artwork: Artwork?

    public init() {}

    /// True when no key is set.
    public var isEmpty: Bool { self == NormalizedTags() }
}

/// A picture embedded in a tag.
public struct Artwork: Equatable, Sendable {
    /// As stored in ID3v2.3/2.4 and FLAC pictures; from the image format in ID3v2.2 (`PNG` is `image/png`); recognised from the
    /// picture's first bytes for APEv2 cover art (empty when not recognised).
    public var mimeType: String
    /// The ID3 picture type (3 = front cover), which FLAC pictures share; for APEv2 cover art, the type its key
    /// names.
    public var pictureType: UInt8
    /// The picture's description; for APEv2 cover art, its file name.
    public var description: String
    /// The picture's size in bytes as stored in the tag.
    public var size: Int
    /// The picture's bytes, or empty when `MetadataLimits` did not allow keeping them (`size` above
    /// `maxArtworkBytes`, or the tag's `maxTagBytes` spent).
    public var data: [UInt8]

    public init(mimeType: String, pictureType: UInt8, description: String, size: Int, data: [UInt8]) {
        self.mimeType = mimeType
        self.pictureType = pictureType
        self.description = description
        self.size = size
        self.data = data
    }
}

/// One field of a tag under its format's own key (`TIT2`, `TXXX`, `Artist`, …).
public struct RawTagField: Equatable, Sendable {
    public var key: String
    public var value: RawTagValue

    public init(key: String, value: RawTagValue) {
        self.key = key
        self.value = value
    }
}

/// The decoded content of a raw tag field.
public enum RawTagValue: Equatable, Sendable {
    /// One or more text values (ID3v2 T*** frames, APEv2 text items, ID3v1 fields).
    case text([String])
    /// A comment (ID3 COMM, USLT).
    case comment(language: String, description: String, text: String)
    /// A user-defined text field (ID3 TXXX).
    case userText(description: String, values: [String])
    /// A link (ID3 W*** frames, APEv2 external items).
    case url(String)
    /// A user-defined link (ID3 WXXX).
    case userURL(description: String, url: String)
    /// An embedded picture.
    case picture(Artwork)
    /// A field kept as its size only: one this library does not decode (compressed or encrypted ID3v2 frames,
    /// unknown frames, binary items), or one larger than `MetadataLimits` allow.
    case binary(size: Int)
}

/// How much of a tag the parser keeps; everything beyond is skipped as it streams past, never buffered.
public struct MetadataLimits: Equatable, Sendable {
    /// Pictures larger than this keep their description and size but not their bytes.
    public var maxArtworkBytes: Int
    /// Any other field larger than this is reported by size only. A picture's own header (MIME type,
    /// description) must fit in it too.
    public var maxFieldBytes: Int
    /// The most one tag keeps in all, each field charged its content plus a fixed overhead (per-field limits
    /// alone do not bound a tag of many fields); fields that no longer fit are left out.
    public var maxTagBytes: Int

    public init(maxArtworkBytes: Int = 4 << 20, maxFieldBytes: Int = 64 << 10, maxTagBytes: Int = 8 << 20) {
        self.maxArtworkBytes = maxArtworkBytes
        self.maxFieldBytes = maxFieldBytes
        self.maxTagBytes = maxTagBytes
    }
}

extension NormalizedTags {
    /// Takes every key `newer` has, keeping the others.
    public mutating func merge(_ newer: NormalizedTags) {
        title = newer.title ?? title
        artist = newer.artist ?? artist
        album = newer.album ?? album
        albumArtist = newer.albumArtist ?? albumArtist
        year = newer.year ?? year
        trackNumber = newer.trackNumber ?? trackNumber
        trackCount = newer.trackCount ?? trackCount
        discNumber = newer.discNumber ?? discNumber
        discCount = newer.discCount ?? discCount
        genre = newer.genre ?? genre
        comments = newer.comments ?? comments
        composer = newer.composer ?? composer
        bpm = newer.bpm ?? bpm
        grouping = newer.grouping ?? grouping
        artwork = newer.artwork ?? artwork
    }
}
