import NIOCore

/// Keeps what a connection sends in step with the clock: audio may run `lead` ahead of real time, no more.
struct RealTimePacer {
    /// How far ahead of real time audio may go: enough to ride out a late packet, little enough that a server
    /// gets the stream as a live source would send it.
    static let lead = 1.0
    private var start: NIODeadline?
    /// Seconds of audio sent since `start`.
    private var sentSeconds = 0.0

    /// Whether the audio sent is ahead of real time by more than `lead`.
    func isAhead(now: NIODeadline) -> Bool {
        guard let start else { return false }
        return sentSeconds - Double((now - start).nanoseconds) / 1e9 > Self.lead
    }

    /// Counts `seconds` more audio sent.
    /// - Returns: when sending may go on, if the audio is now ahead; nil if it may go on at once.
    mutating func sent(seconds: Double, now: NIODeadline) -> NIODeadline? {
        let start = start ?? now
        self.start = start
        sentSeconds += seconds
        guard isAhead(now: now) else { return nil }
        return start + .nanoseconds(Int64((sentSeconds - Self.lead) * 1e9))
    }
}
