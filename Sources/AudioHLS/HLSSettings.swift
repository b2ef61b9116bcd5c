/// How a stream is cut for HTTP Live Streaming: the config's `hls:` and the options of `audiostream hls`.
public struct HLSSettings: Equatable, Sendable {
    /// Target seconds of a segment; segments end on packet boundaries, never past it.
    public var segment: Double
    /// Target seconds of a Low-Latency HLS part; 0 makes no parts. Parts are whole packets: the playlist's
    /// `PART-TARGET` is this rounded down to the first track's packets (`HLSMediaList.partTarget`).
    public var part: Double
    /// Seconds of segments a live playlist keeps; older ones leave it (and the folder).
    public var window: Double
    /// The segment format; nil chooses the codec's own (`HLSContainer.natural`).
    public var container: HLSContainer?

    public init(segment: Double = 2, part: Double = 0.5, window: Double = 60, container: HLSContainer? = nil) {
        self.segment = segment
        self.part = part
        self.window = window
        self.container = container
    }

    /// `EXT-X-TARGETDURATION`: the segment's target rounded up to whole seconds, one at least.
    public var targetDuration: Int { max(1, Int(segment.rounded(.up))) }

    /// What is wrong with the settings, one sentence each; empty when they can be used.
    public var problems: [String] {
        var problems: [String] = []
        if !(segment >= 0.1 && segment <= 60) { problems.append("segment must be from 0.1 to 60 seconds") }
        if !(part == 0 || (part >= 0.05 && part <= segment)) {
            problems.append("part must be 0 (no parts) or from 0.05 seconds to the segment's \(segment)")
        }
        // RFC 8216bis §6.2.2: a live playlist holds at least three target durations.
        if !(window >= 3 * segment) { problems.append("window must be at least three segments (\(3 * segment) s)") }
        return problems
    }
}
