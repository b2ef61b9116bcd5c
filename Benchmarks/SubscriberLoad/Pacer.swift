/// Writes the feed at real-time pace, one frame per write to each output, and logs when each write began.
///
/// Write `k` is due `k` frame durations after `begin(at:)`; a write that is late (the process was busy) goes
/// out as soon as it can and its real time is what is logged, so lateness never shows as latency. With several
/// outputs (one per stream) the time logged is that of the write to the first: later ones show a little more.
final class Pacer {
    private let log: DeliveryLog
    private let outputs: [Int32]
    /// Writes this run makes: the first `total` frames of the feed.
    let total: Int
    private var start: UInt64 = 0
    /// The next write to make.
    private(set) var next = 0

    init(log: DeliveryLog, outputs: [Int32], total: Int) {
        self.log = log
        self.outputs = outputs
        self.total = total
    }

    func begin(at start: UInt64) {
        self.start = start
    }

    /// When the next write is due, or nil once every write is made.
    var nextDeadline: UInt64? {
        next < total ? start + UInt64((Double(next) * log.feed.frameSeconds * 1e9).rounded()) : nil
    }

    /// Makes the next write if it is due; `before` runs first with its index (to sample at window edges).
    /// - Returns: whether it wrote.
    func writeIfDue(before: (Int) throws -> Void) throws -> Bool {
        guard let due = nextDeadline, MonotonicClock.now >= due else { return false }
        try before(next)
        let range = log.feed.chunk(next)
        let time = MonotonicClock.now
        try log.feed.bytes[range].withUnsafeBytes { bytes in
            for output in outputs { try Socket.writeAll(output, bytes) }
        }
        log.wrote(next, at: time)
        next += 1
        return true
    }
}
