import NIOCore

/// A share of a hub's subscribers, written together at the slot's own phase of the write interval: the slots'
/// phases spread over the interval, so the writes to a large audience come in small bursts, not all at once
/// (which would hold the last subscribers of a burst back, behind thousands of writes).
struct WriteSlot {
    /// Its share of the hub's subscribers.
    var subscribers: [Subscriber] = []
    /// What was published since the slot was last written out.
    var batch = PublishedBatch()
    /// Its next write-out, while something waits for it.
    var writeOut: Scheduled<Void>?

    /// Slots per hub.
    static let count = 8

    /// When slot `index` next writes after `now`: `index / count` of the way into an `interval` of the loop's
    /// clock, so no message waits longer than `interval`.
    static func nextWriteOut(of index: Int, interval: TimeAmount, after now: NIODeadline) -> NIODeadline {
        let period = max(interval.nanoseconds, Int64(count))
        let phase = period * Int64(index) / Int64(count)
        let elapsed = Int64(now.uptimeNanoseconds) - phase
        let periods = elapsed >= 0 ? elapsed / period + 1 : 0
        return .uptimeNanoseconds(UInt64(periods * period + phase))
    }
}
