/// A run of skipped bytes, reported once parsing resumes.
struct SkipRun {
    private var count: Int64 = 0

    var isEmpty: Bool { count == 0 }

    mutating func add(_ bytes: Int) {
        count += Int64(bytes)
    }

    mutating func report(resumingAt offset: Int64, to output: ParserOutput) {
        guard count > 0 else { return }
        output.discontinuity(at: offset, skippedBytes: count, reason: .resync)
        count = 0
    }
}
