/// Where a track's samples (its packets) lie and how many frames each holds, in the sample tables' own compact
/// form: stsz/stz2 sizes, stco/co64 chunk offsets, stsc runs of chunks and stts runs of durations (ISO/IEC
/// 14496-12 §8.6–8.7), or a fragment's track runs in the same shape (one chunk a run). Flat arrays, walked by
/// `MP4SampleCursor` without allocating, so their memory is the moov's, not a record per packet.
struct MP4SampleTable {
    /// From chunk `firstChunk` (counted from 0) on, each chunk holds `samplesPerChunk` samples.
    struct ChunkRun: Equatable {
        var firstChunk: Int
        var samplesPerChunk: Int
    }

    /// `count` samples of `duration` frames each, in the track's timescale.
    struct DurationRun: Equatable {
        var count: Int
        var duration: Int
    }

    /// The largest sample believed: a bigger one makes the file invalid rather than being buffered (512 KiB is
    /// above any audio codec's packet: ALAC's and FLAC's largest stay under 200 KiB).
    static let largestSample = 1 << 19

    /// Each sample's size, or empty when every sample has `constantSize` bytes.
    var sizes: [UInt32] = []
    var constantSize = 0
    var sampleCount = 0
    /// Each chunk's offset, in its file as the boxes state it, or in the stream once `moved(by:)`: its samples lie
    /// back to back from there.
    var chunkOffsets: [Int64] = []
    var chunkRuns: [ChunkRun] = []
    var durationRuns: [DurationRun] = []

    @inline(__always)
    func size(ofSample sample: Int) -> Int {
        sizes.isEmpty ? constantSize : Int(sizes[sample])
    }

    /// The frames of every sample, in the track's timescale; Int64.max when the runs claim more.
    var totalDuration: Int64 {
        var total: Int64 = 0
        for run in durationRuns {
            let (frames, overflows) = Int64(run.count).multipliedReportingOverflow(by: Int64(run.duration))
            let (sum, overflowsToo) = total.addingReportingOverflow(frames)
            if overflows || overflowsToo { return .max }
            total = sum
        }
        return total
    }

    /// The duration all samples share, or nil when they differ (or there are none).
    var commonDuration: Int? {
        let durations = Set(durationRuns.lazy.filter { $0.count > 0 }.map(\.duration))
        return durations.count == 1 ? durations.first : nil
    }

    /// The table of a file that starts `fileStart` bytes into the stream, its chunks placed in the stream.
    func moved(by fileStart: Int64) -> MP4SampleTable {
        var moved = self
        moved.chunkOffsets = chunkOffsets.map { $0 + fileStart }
        return moved
    }

    /// Empties the table, keeping its storage for the next fragment.
    mutating func removeAll() {
        sizes.removeAll(keepingCapacity: true)
        chunkOffsets.removeAll(keepingCapacity: true)
        chunkRuns.removeAll(keepingCapacity: true)
        durationRuns.removeAll(keepingCapacity: true)
        constantSize = 0
        sampleCount = 0
    }

    /// Checks what the boxes promise against each other and the samples against the stream: every sample has a
    /// chunk and a duration, none is larger than `largestSample`, and each chunk starts at or after the end of the
    /// one before (a stream is read once, front to back), not before `start`. The work is one step a chunk and a
    /// size entry, however many samples the boxes claim.
    /// - Throws: `MP4Invalid` saying which promise is broken.
    func validate(startingAtOrAfter start: Int64) throws(MP4Invalid) {
        guard sampleCount > 0 else { return }
        guard chunkRuns.first?.firstChunk == 0 else {
            throw MP4Invalid("the sample-to-chunk table does not start at the first chunk")
        }
        let timed = durationRuns.reduce(Int64(0)) { $0 + Int64($1.count) }
        guard timed >= Int64(sampleCount) else {
            throw MP4Invalid("\(sampleCount) samples are sized but \(timed) are timed")
        }
        let largest = sizes.isEmpty ? constantSize : Int(sizes.max() ?? 0)
        guard largest <= Self.largestSample else {
            throw MP4Invalid("a sample claims \(largest) bytes, more than the \(Self.largestSample) an audio packet "
                + "can have")
        }
        var sample = 0
        var end = start
        for (index, run) in chunkRuns.enumerated() {
            let nextChunk = index + 1 < chunkRuns.count ? chunkRuns[index + 1].firstChunk : chunkOffsets.count
            guard run.firstChunk < nextChunk || index + 1 == chunkRuns.count else {
                throw MP4Invalid("the sample-to-chunk table's first chunks do not ascend")
            }
            var chunk = run.firstChunk
            while chunk < min(nextChunk, chunkOffsets.count) && sample < sampleCount {
                let count = min(run.samplesPerChunk, sampleCount - sample)
                let offset = chunkOffsets[chunk]
                guard offset >= end else {
                    throw MP4Invalid("chunk \(chunk) at \(offset) overlaps or precedes the samples before it (up to "
                        + "\(end)): the samples are not in stream order")
                }
                let bytes = sizes.isEmpty ? Int64(count) * Int64(constantSize)
                    : sizes[sample..<sample + count].reduce(Int64(0)) { $0 + Int64($1) }
                end = offset + bytes
                sample += count
                chunk += 1
            }
        }
        guard sample == sampleCount else {
            throw MP4Invalid("\(sampleCount) samples are sized but the chunks hold \(sample)")
        }
    }
}
