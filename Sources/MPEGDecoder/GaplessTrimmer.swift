import AudioFileStream

/// Which decoded frames of a gapless segment are real audio. From a PacketTableInfo, the encoder's priming
/// frames at the start and remainder frames at the end are dropped, as mpg123 does from the same LAME tag; a
/// stream that runs on past the frames its segment stated keeps everything after them.
struct GaplessTrimmer {
    /// Decoded frames since the segment started.
    private var position: Int64 = 0
    /// The frames to keep, or nil when nothing is trimmed.
    private var kept: Range<Int64>?
    /// Frames the segment says it holds: priming, valid and remainder.
    private var statedLength: Int64 = 0

    /// A new segment starts with the next decoded frame.
    mutating func startSegment(_ table: PacketTableInfo) {
        position = 0
        let priming = Int64(table.primingFrames)
        kept = priming..<priming + table.validFrames
        statedLength = priming + table.validFrames + Int64(table.remainderFrames)
    }

    /// Positions are no longer known (a discontinuity): keep everything until the next segment.
    mutating func stopTrimming() {
        kept = nil
    }

    /// Of `count` frames just decoded, the ones to output.
    mutating func take(_ count: Int) -> Range<Int> {
        let start = position
        position += Int64(count)
        guard let kept, start < statedLength else { return 0..<count }
        let lower = max(start, kept.lowerBound)
        let upper = min(position, kept.upperBound)
        return lower < upper ? Int(lower - start)..<Int(upper - start) : 0..<0
    }
}
