import NIOCore

/// The recent packets a hub keeps for newcomers' bursts, at most `limits.historySeconds` of audio.
struct PacketHistory {
    private var packets = CircularBuffer<QueuedMessage>()
    /// Seconds of audio in `packets`.
    private var seconds = 0.0

    /// Keeps the packet, forgetting the oldest beyond `limits.historySeconds`; nothing when bursts are off.
    mutating func remember(_ message: QueuedMessage, limits: SubscriberLimits) {
        guard limits.historySeconds > 0, let audio = message.audio else { return }
        packets.append(message)
        seconds += audio.seconds
        forgetOld(limits: limits)
    }

    /// Forgets the oldest packets beyond `limits.historySeconds`, and all of them when bursts are off.
    mutating func forgetOld(limits: SubscriberLimits) {
        while limits.historySeconds == 0 || seconds > limits.historySeconds, let oldest = packets.popFirst() {
            seconds -= oldest.audio?.seconds ?? 0
        }
        if packets.isEmpty { seconds = 0 }
    }

    mutating func removeAll() {
        packets.removeAll()
        seconds = 0
    }

    /// The most recent packets covering at least `seconds` of audio, oldest first, within `limits.queueSeconds`
    /// so that a burst never overflows a subscriber's queue.
    func burst(seconds wanted: Double, limits: SubscriberLimits) -> [QueuedMessage] {
        var covered = 0.0
        var start = packets.endIndex
        while start > packets.startIndex, covered < wanted {
            let earlier = packets.index(before: start)
            let duration = packets[earlier].audio?.seconds ?? 0
            guard covered + duration <= limits.queueSeconds else { break }
            covered += duration
            start = earlier
        }
        return Array(packets[start...])
    }
}
