/// Which skipped items of a playlist are told: each at most once a minute, so that a looping list of missing files
/// never floods the log and the subscribers; those held back are counted, and the next warning told says how many.
struct SkipWarnings {
    /// Seconds before an item's skip is told again.
    static let interval = 60.0
    /// Items remembered at most: beyond, those told over a minute ago are forgotten.
    static let maximumItems = 10_000

    /// When each item's skip was last told, in seconds of a monotonic clock.
    private(set) var lastTold: [String: Double] = [:]
    private var heldBack = 0

    /// The warning to tell for the item at `path`, skipped for `problem` at `now` (seconds of a monotonic clock);
    /// nil when its skip was told less than `interval` ago.
    mutating func warning(forItemAt path: String, _ problem: String, now: Double) -> String? {
        if let last = lastTold[path], now - last < Self.interval {
            heldBack += 1
            return nil
        }
        if lastTold.count >= Self.maximumItems { lastTold = lastTold.filter { now - $0.value < Self.interval } }
        lastTold[path] = now
        defer { heldBack = 0 }
        guard heldBack > 0 else { return "\(problem): skipped" }
        return "\(problem): skipped (\(heldBack) more skips of items told less than a minute ago were not told)"
    }
}
