/// Splits chunks of the input around the `--skip` ranges and marks where feeding resumes after one.
struct FeedPlan {
    struct Segment {
        /// The bytes of the chunk to feed.
        let range: Range<Int>
        /// The input offset of the first byte.
        let offset: Int64
        /// True for the first bytes fed after skipped ones.
        let resumesAfterSkip: Bool
    }

    private let skips: [Range<Int64>]
    private var skippedSinceLastFeed = false

    init(skips: [SkipRange]) {
        self.skips = skips.map(\.range).sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The parts of a chunk of `count` bytes at input offset `offset` that are fed, in order.
    mutating func segments(of count: Int, at offset: Int64) -> [Segment] {
        var segments: [Segment] = []
        var position = offset
        let end = offset + Int64(count)
        while position < end {
            if let skip = skips.first(where: { $0.contains(position) }) {
                position = min(skip.upperBound, end)
                skippedSinceLastFeed = true
                continue
            }
            let nextSkip = skips.first(where: { $0.lowerBound > position })?.lowerBound ?? end
            let segmentEnd = min(nextSkip, end)
            segments.append(Segment(
                range: Int(position - offset)..<Int(segmentEnd - offset), offset: position,
                resumesAfterSkip: skippedSinceLastFeed))
            skippedSinceLastFeed = false
            position = segmentEnd
        }
        return segments
    }
}
