/// A part of a segment as the playlist lists it.
public struct HLSPartEntry: Equatable, Sendable {
    /// Its file name, under the playlist's folder.
    public let name: String
    /// The frames its decoders give, the trims its container states left out.
    public let frames: Int64
}

/// A segment as the playlist lists it: complete, or the one under way (whose parts are listed as they come).
public struct HLSSegmentEntry: Equatable, Sendable {
    /// Its media sequence number.
    public let sequence: Int
    public let name: String
    public let sampleRate: Double
    /// When its first sample went on the air, in seconds since 1970 (`EXT-X-PROGRAM-DATE-TIME`).
    public let date: Double
    /// Whether it does not continue the segment before it (`EXT-X-DISCONTINUITY`).
    public let isDiscontinuity: Bool
    /// The name of the initialization section its parts need (`EXT-X-MAP`); nil for packed audio.
    public let initSection: String?
    /// What plays from its start, when it changed there (timed ID3 and `EXT-X-DATERANGE`).
    public let nowPlaying: HLSNowPlaying?
    /// Its parts so far; empty when the stream is cut without parts.
    public internal(set) var parts: [HLSPartEntry] = []
    /// The frames its decoders give, the trims its container states left out.
    public internal(set) var frames: Int64 = 0
    public internal(set) var isComplete = false

    /// Its duration in seconds.
    public var duration: Double { Double(frames) / sampleRate }
}

/// What a media playlist says at one moment: the segments in the window, oldest first, the one under way last;
/// the counts of those that left; and whether the stream has ended.
public struct HLSMediaList: Equatable, Sendable {
    /// `EXT-X-TARGETDURATION`: no segment lasts longer than it, rounded to the nearest second.
    public let targetDuration: Int
    /// `PART-TARGET` in seconds; nil without parts. The setting's `part` until the first packet, then that rounded
    /// down to whole packets of the first track (one at least): no part is longer, and every part but a segment's
    /// last is as long, so a player holding back three parts is as close to the live edge as the packets allow.
    public internal(set) var partTarget: Double?
    public internal(set) var segments: [HLSSegmentEntry] = []
    /// The sequence number of the first segment listed (`EXT-X-MEDIA-SEQUENCE`).
    public internal(set) var mediaSequence = 0
    /// Discontinuities of the segments that left the window (`EXT-X-DISCONTINUITY-SEQUENCE`).
    public internal(set) var discontinuitySequence = 0
    /// The part the next packet will start (`EXT-X-PRELOAD-HINT`), while parts are made.
    public internal(set) var nextPart: String?
    /// The stream has ended: nothing more will come (`EXT-X-ENDLIST`).
    public internal(set) var isEnded = false

    init(settings: HLSSettings) {
        targetDuration = settings.targetDuration
        partTarget = settings.part > 0 ? settings.part : nil
    }

    /// The segments that are complete.
    public var completeSegments: ArraySlice<HLSSegmentEntry> {
        segments.last?.isComplete == false ? segments.dropLast() : segments[...]
    }
}
