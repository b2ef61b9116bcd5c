/// A track's edit list (`elst`, ISO/IEC 14496-12 §8.6.6) as encoders use it for gapless playback: an optional
/// empty edit (a delay), then one edit that starts `mediaTime` ticks into the media, skipping the encoder's
/// priming, and lasts `duration` movie ticks, leaving out the padding at the end. Other lists (several edits
/// of media) are not gapless information and are ignored.
struct MP4EditList: Equatable {
    /// Where the presentation starts in the media, in the track's timescale.
    let mediaTime: Int64
    /// How long it lasts, in the movie's timescale.
    let duration: Int64

    /// Reads an `elst` box; nil when it is not the one-edit form.
    /// - Throws: `MP4Invalid` when the box is shorter than its count says.
    init?(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) throws(MP4Invalid) {
        var fields = MP4FieldReader(box, in: bytes)
        let isLong = try fields.versionAndFlags().version == 1
        let count = try fields.uint32()
        try fields.requireEntries(count, of: isLong ? 20 : 12)
        var edits: [(duration: Int64, mediaTime: Int64)] = []
        for _ in 0..<count {
            let duration = isLong ? Int64(truncatingIfNeeded: try fields.uint64()) : Int64(try fields.uint32())
            let mediaTime = isLong ? Int64(truncatingIfNeeded: try fields.uint64())
                : Int64(Int32(bitPattern: try fields.uint32()))
            try fields.skip(4)  // media rate
            // An empty edit (media time -1) delays the presentation: it holds no media.
            if mediaTime != -1 { edits.append((duration, mediaTime)) }
        }
        guard edits.count == 1, edits[0].mediaTime >= 0, edits[0].duration >= 0 else { return nil }
        mediaTime = edits[0].mediaTime
        duration = edits[0].duration
    }

    /// The packet table the edit gives a track of `totalFrames` frames at `sampleRate`, when the movie ticks
    /// `movieTimescale` a second and the track `mediaTimescale`: priming is the media time, valid frames the
    /// edit's duration (an edit of duration 0 lasts to the end), the remainder what is left, each in frames at
    /// `sampleRate`. The media's time scale is usually the rate, but HE-AAC's may be SBR's output rate, twice
    /// the core's rate its DataFormat states.
    func packetTable(totalFrames: Int64, sampleRate: Int, movieTimescale: Int, mediaTimescale: Int) -> PacketTableInfo? {
        guard movieTimescale > 0, mediaTimescale > 0, let priming = Self.frames(mediaTime, at: sampleRate,
                                                                               timescale: mediaTimescale),
              priming <= totalFrames, priming <= Int64(Int32.max) else { return nil }
        let available = totalFrames - priming
        // A duration past Int64 in frames is past any stream, so the edit lasts to the end.
        let valid = duration == 0 ? available
            : min(Self.frames(duration, at: sampleRate, timescale: movieTimescale) ?? available, available)
        guard totalFrames - priming - valid <= Int64(Int32.max) else { return nil }
        return PacketTableInfo(validFrames: valid, primingFrames: Int32(priming),
                               remainderFrames: Int32(totalFrames - priming - valid))
    }

    /// `ticks` of a clock ticking `timescale` a second, in frames at `sampleRate`, rounded to the nearest; nil
    /// past Int64.
    private static func frames(_ ticks: Int64, at sampleRate: Int, timescale: Int) -> Int64? {
        let scaled = ticks.multipliedReportingOverflow(by: Int64(sampleRate))
        let rounded = scaled.partialValue.addingReportingOverflow(Int64(timescale / 2))
        return scaled.overflow || rounded.overflow ? nil : rounded.partialValue / Int64(timescale)
    }
}
