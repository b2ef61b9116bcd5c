/// A track's edit list (`elst`, ISO/IEC 14496-12 §8.6.6): the parts of the media the presentation plays, in
/// order. Encoders write one edit for gapless playback, starting past the priming and leaving out the padding;
/// a file joined without re-encoding has one edit per part, each with its own trims. Empty edits (a delay)
/// hold no media and are passed over.
struct MP4EditList: Equatable {
    struct Edit: Equatable {
        /// Where the edit starts in the media, in the track's timescale.
        let mediaTime: Int64
        /// How long it lasts, in the movie's timescale; 0 lasts to the end of the media.
        let duration: Int64
    }

    let edits: [Edit]

    /// Reads an `elst` box; nil when it plays no media or plays it backwards, which is no gapless information.
    /// - Throws: `MP4Invalid` when the box is shorter than its count says.
    init?(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) throws(MP4Invalid) {
        var fields = MP4FieldReader(box, in: bytes)
        let isLong = try fields.versionAndFlags().version == 1
        let count = try fields.uint32()
        try fields.requireEntries(count, of: isLong ? 20 : 12)
        var edits: [Edit] = []
        for _ in 0..<count {
            let duration = isLong ? Int64(truncatingIfNeeded: try fields.uint64()) : Int64(try fields.uint32())
            let mediaTime = isLong ? Int64(truncatingIfNeeded: try fields.uint64())
                : Int64(Int32(bitPattern: try fields.uint32()))
            try fields.skip(4)  // media rate
            // An empty edit (media time -1) delays the presentation: it holds no media.
            if mediaTime != -1 { edits.append(Edit(mediaTime: mediaTime, duration: duration)) }
        }
        guard !edits.isEmpty, edits.allSatisfy({ $0.mediaTime >= 0 && $0.duration >= 0 }) else { return nil }
        self.edits = edits
    }

    /// Where each edit's run of samples begins, and the packet table of the run: the samples from the end of the
    /// run before (the first edit's from the first sample) to the one holding the edit's last frame (the last
    /// edit's to the end), with the frames before and after the edit as priming and remainder. `samples` are
    /// the track's runs of samples of equal frames; frames count at `sampleRate`, while the movie ticks
    /// `movieTimescale` a second and the media `mediaTimescale` (HE-AAC's may be SBR's rate, twice the core's
    /// that the frames count). Nil when an edit starts before the run it would begin (the media played
    /// backwards or twice), or the frames pass what a table holds.
    func segments(samples: [(count: Int, frames: Int64)], sampleRate: Int, movieTimescale: Int,
                  mediaTimescale: Int) -> [MP4EditSegment]? {
        guard movieTimescale > 0, mediaTimescale > 0 else { return nil }
        var walk = SampleWalk(samples)
        guard walk.totalFrames > 0 else { return nil }
        var segments: [MP4EditSegment] = []
        for (index, edit) in edits.enumerated() {
            let (firstSample, runStart) = (walk.sample, walk.frames)
            guard let start = Self.frames(edit.mediaTime, at: sampleRate, timescale: mediaTimescale),
                  start >= runStart, start <= walk.totalFrames else { return nil }
            let available = walk.totalFrames - start
            // A duration past Int64 in frames is past any stream, so the edit lasts to the end.
            let valid = edit.duration == 0 ? available
                : min(Self.frames(edit.duration, at: sampleRate, timescale: movieTimescale) ?? available, available)
            if index == edits.count - 1 { walk.toEnd() } else { walk.past(start + valid) }
            let remainder = walk.frames - start - valid
            guard start - runStart <= Int64(Int32.max), remainder <= Int64(Int32.max) else { return nil }
            segments.append(MP4EditSegment(firstSample: firstSample, table: PacketTableInfo(
                validFrames: valid, primingFrames: Int32(start - runStart), remainderFrames: Int32(remainder))))
        }
        return segments
    }

    /// `ticks` of a clock ticking `timescale` a second, in frames at `sampleRate`, rounded to the nearest; nil
    /// past Int64.
    private static func frames(_ ticks: Int64, at sampleRate: Int, timescale: Int) -> Int64? {
        let scaled = ticks.multipliedReportingOverflow(by: Int64(sampleRate))
        let rounded = scaled.partialValue.addingReportingOverflow(Int64(timescale / 2))
        return scaled.overflow || rounded.overflow ? nil : rounded.partialValue / Int64(timescale)
    }
}

/// The samples an edit plays, from `firstSample` on, as one gapless segment.
struct MP4EditSegment: Equatable {
    let firstSample: Int
    let table: PacketTableInfo
}

/// Walks a track's runs of samples of equal frames, a run at a time.
private struct SampleWalk {
    private let runs: [(count: Int, frames: Int64)]
    private var run = 0
    private var intoRun = 0
    /// The next sample, and the frames before it.
    private(set) var sample = 0
    private(set) var frames: Int64 = 0
    let totalFrames: Int64

    init(_ runs: [(count: Int, frames: Int64)]) {
        self.runs = runs
        var total: Int64 = 0
        for run in runs {
            let (product, overflows) = Int64(run.count).multipliedReportingOverflow(by: run.frames)
            let (sum, overflowsToo) = total.addingReportingOverflow(product)
            guard !overflows, !overflowsToo else {
                total = .max
                break
            }
            total = sum
        }
        totalFrames = total
    }

    /// Moves past the sample that holds frame `frame - 1`: the next sample starts at `frame` or later.
    mutating func past(_ frame: Int64) {
        while run < runs.count, frames < frame {
            let (count, length) = runs[run]
            guard length > 0 else {
                (run, intoRun) = (run + 1, 0)
                continue
            }
            let wanted = Int((frame - frames + length - 1) / length)
            let taken = min(wanted, count - intoRun)
            (sample, frames, intoRun) = (sample + taken, frames + Int64(taken) * length, intoRun + taken)
            if intoRun == count { (run, intoRun) = (run + 1, 0) }
        }
    }

    /// Moves past every sample.
    mutating func toEnd() {
        past(totalFrames)
        while run < runs.count {
            sample += runs[run].count - intoRun
            (run, intoRun) = (run + 1, 0)
        }
    }
}
