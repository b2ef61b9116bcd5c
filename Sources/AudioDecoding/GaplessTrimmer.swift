import AudioFileStream

/// Which decoded frames of a gapless segment are real audio. From a PacketTableInfo, the encoder's priming
/// frames at the start and remainder frames at the end are dropped; a stream that runs on past the frames its
/// segment stated keeps everything after them.
///
/// Formats state their segments two ways. An MPEG LAME tag starts a segment at the next frame
/// (`startSegment`). Containers (Ogg, FLAC, MP4, CAF) describe the segment that begins where the decoder
/// starts on a new format (`formatChanged`), possibly in several steps (`note`): an Ogg link states its
/// priming first, with no valid-frame count yet, and its valid and remainder frames before its last page.
struct GaplessTrimmer {
    /// Decoded frames since the segment started.
    private var position: Int64 = 0
    /// The frames to keep, or nil when nothing is trimmed.
    private var kept: Range<Int64>?
    /// Frames the segment says it holds: priming, valid and remainder.
    private var statedLength: Int64 = 0
    /// The segment starts with the next decoded frame; tables noted until then describe it.
    private var startsAtNextFrame = true
    /// Decoded frames per frame the tables count: tables count the DataFormat's frames, and HE-AAC's SBR
    /// decodes twice as many as its core AAC DataFormat states.
    var decodedFramesPerStatedFrame: Int64 = 1

    /// A new segment described by `table` starts with the next decoded frame (an MPEG LAME tag).
    mutating func startSegment(_ table: PacketTableInfo) {
        position = 0
        startsAtNextFrame = false
        note(table)
    }

    /// The codec starts afresh on a new format: a new segment begins with the next decoded frame, trimmed only
    /// as the tables noted from now on say.
    mutating func formatChanged() {
        guard !startsAtNextFrame else { return }
        startsAtNextFrame = true
        kept = nil
    }

    /// What is known of the current (or the next) segment: its priming, and its valid and remainder frames
    /// unless `validFrames` is 0 (its end is not known yet).
    mutating func note(_ table: PacketTableInfo) {
        let priming = Int64(table.primingFrames)
        guard table.validFrames > 0 else {
            kept = priming..<Int64.max
            statedLength = .max
            return
        }
        kept = priming..<priming + table.validFrames
        statedLength = priming + table.validFrames + Int64(table.remainderFrames)
    }

    /// Positions are no longer known (a discontinuity): keep everything until the next segment. Before the
    /// segment's first decoded frame they still are (a file read out of order, its MP4 moov first, jumps before
    /// its first packet), and the segment is trimmed as stated.
    mutating func stopTrimming() {
        guard !startsAtNextFrame else { return }
        kept = nil
    }

    /// Of `count` frames just decoded, the ones to output.
    mutating func take(_ count: Int) -> Range<Int> {
        if startsAtNextFrame {
            startsAtNextFrame = false
            position = 0
        }
        let start = position
        position += Int64(count)
        let scale = decodedFramesPerStatedFrame
        guard let kept, start < Self.scaled(statedLength, by: scale) else { return 0..<count }
        let lower = max(start, Self.scaled(kept.lowerBound, by: scale))
        let upper = min(position, Self.scaled(kept.upperBound, by: scale))
        return lower < upper ? Int(lower - start)..<Int(upper - start) : 0..<0
    }

    /// `frames` times `scale`, Int64.max standing for "no end" whatever the scale.
    private static func scaled(_ frames: Int64, by scale: Int64) -> Int64 {
        let product = frames.multipliedReportingOverflow(by: scale)
        return product.overflow ? .max : product.partialValue
    }
}
