/// A metadata key space: the format a tag's raw keys belong to, as AVFoundation's `AVMetadataFormat` names a
/// key space (`availableMetadataFormats`, `metadataForFormat:`). Every tag of one key space uses the same raw
/// keys, whatever file carries it: Vorbis comments in Ogg, FLAC and Opus are all `vorbisComment`.
public struct MetadataFormat: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }

    /// ID3v2 of the given major version (2, 3 or 4). ID3v2.2's keys are its three-letter frame ids.
    public static func id3v2(majorVersion: UInt8) -> MetadataFormat {
        MetadataFormat(rawValue: "id3v2.\(majorVersion)")
    }

    public static let id3v1: MetadataFormat = "id3v1"
    public static let apev2: MetadataFormat = "apev2"
    /// Xiph's comments: Ogg Vorbis, Opus and FLAC streams, native FLAC's VORBIS_COMMENT and PICTURE blocks.
    public static let vorbisComment: MetadataFormat = "vorbisComment"
    /// iTunes' `ilst` atoms in MP4/M4A (`©nam`, `trkn`, `----:com.apple.iTunes:NAME` …).
    public static let itunes: MetadataFormat = "itunes"
    /// QuickTime's `udta` atoms (`©nam` …).
    public static let quicktimeUserData: MetadataFormat = "quicktimeUserData"
    /// QuickTime's `mdta`-keyed metadata (`com.apple.quicktime.title` …).
    public static let quicktimeMetadata: MetadataFormat = "quicktimeMetadata"
    /// WAVE's `LIST/INFO` chunk (`INAM`, `IART` …).
    public static let riffInfo: MetadataFormat = "riffInfo"
    /// AIFF's text chunks (`NAME`, `AUTH`, `(c) `, `ANNO`).
    public static let aiffText: MetadataFormat = "aiffText"
    /// CAF's `info` chunk (`title`, `artist` …).
    public static let cafInfo: MetadataFormat = "cafInfo"
    /// SHOUTcast/Icecast in-stream metadata (`StreamTitle`, `StreamUrl`), which the daemon's HTTP source reads.
    public static let icy: MetadataFormat = "icy"
}
