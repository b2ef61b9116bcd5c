import AudioFileStream

/// Makes the bytes of HLS parts of one kind from a stream's packets: a part is its packets with what the kind
/// puts around them, and a segment the concatenation of its parts.
protocol HLSPackager {
    /// The initialization section (`EXT-X-MAP`) the parts need; nil when they need none.
    var initSection: [UInt8]? { get }
    /// Starts a part whose first packet decodes `time` frames into the media's timeline; `startsSegment` when
    /// it is its segment's first, whose first packet is where `nowPlaying` took effect when given.
    mutating func startPart(at time: Int64, startsSegment: Bool, nowPlaying: HLSNowPlaying?)
    /// Adds a packet to the part under way.
    /// - Throws: `WriteError.unsupportedFormat` when the kind cannot carry the packet.
    mutating func append(_ packet: AudioPacket) throws
    /// The part's bytes; the next part starts with `startPart`.
    mutating func finishPart() -> [UInt8]
}
