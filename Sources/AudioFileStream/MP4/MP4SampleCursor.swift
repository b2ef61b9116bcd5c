/// The next sample of an `MP4SampleTable`: its offset, size and duration, moved on one sample at a time through
/// the table's chunk and duration runs. The table must be validated (every sample has a chunk and a duration).
struct MP4SampleCursor {
    private(set) var sample = 0
    private(set) var offset: Int64 = 0
    private(set) var size = 0
    private(set) var duration = 0
    private let sampleCount: Int
    private var chunk = -1
    private var leftInChunk = 0
    private var chunkRun = 0
    private var durationRun = 0
    private var leftInDurationRun = 0

    /// A cursor on the table's first sample.
    init(over table: MP4SampleTable) {
        sampleCount = table.sampleCount
        guard sampleCount > 0 else { return }
        enterNextChunk(of: table)
        enterNextDurationRun(of: table)
        size = table.size(ofSample: 0)
    }

    /// True once every sample was walked.
    var isAtEnd: Bool { sample >= sampleCount }

    /// Moves to the next sample.
    @inline(__always)
    mutating func advance(over table: MP4SampleTable) {
        sample += 1
        guard sample < sampleCount else { return }
        offset += Int64(size)
        leftInChunk -= 1
        if leftInChunk == 0 { enterNextChunk(of: table) }
        leftInDurationRun -= 1
        if leftInDurationRun == 0 { enterNextDurationRun(of: table) }
        size = table.size(ofSample: sample)
    }

    /// Moves on to the first sample starting at or after `position`: one that `position` cuts cannot be given
    /// whole.
    mutating func seek(to position: Int64, over table: MP4SampleTable) {
        while !isAtEnd && offset < position { advance(over: table) }
    }

    private mutating func enterNextChunk(of table: MP4SampleTable) {
        repeat {
            chunk += 1
            while chunkRun + 1 < table.chunkRuns.count && table.chunkRuns[chunkRun + 1].firstChunk <= chunk {
                chunkRun += 1
            }
            leftInChunk = table.chunkRuns[chunkRun].samplesPerChunk
        } while leftInChunk == 0
        offset = table.chunkOffsets[chunk]
    }

    private mutating func enterNextDurationRun(of table: MP4SampleTable) {
        repeat {
            leftInDurationRun = table.durationRuns[durationRun].count
            duration = table.durationRuns[durationRun].duration
            durationRun += 1
        } while leftInDurationRun == 0
    }
}
