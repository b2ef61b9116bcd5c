/// The feed's write times and every subscriber's receipts, turned into latencies for the measured window.
///
/// Two latencies per frame received: *relay* latency, from the write that made the frame sendable (its
/// `EmitRule`) to its receipt, and *own-bytes* latency, from the write that carried the frame's own bytes to its
/// receipt, which adds what the relay has to wait for by design. Only frames in `window` count.
final class DeliveryLog {
    let feed: FeedFrames
    let window: Range<Int>
    private let enablingWrites: [Int?]
    /// Monotonic time of each write; 0 until it happens.
    private(set) var writeTimes: [UInt64]
    private(set) var relayLatencies: [Int64] = []
    private(set) var ownBytesLatencies: [Int64] = []
    /// Frames of the window each subscriber received.
    private(set) var receivedInWindow: [Int]
    /// Frames received before the write that should have enabled them: the rule does not describe the relay.
    private(set) var earlyFrames = 0
    /// Each subscriber's group (a hop of a relay tree, say), when the run has groups.
    private let groups: [Int]?
    /// The relay latencies of each group's subscribers.
    private(set) var groupLatencies: [[Int64]]

    /// - Parameter groups: each subscriber's group, numbered from 0, when their latencies are also kept apart.
    init(feed: FeedFrames, window: Range<Int>, rule: EmitRule, subscribers: Int, groups: [Int]? = nil) {
        self.groups = groups
        groupLatencies = Array(repeating: [], count: (groups?.max() ?? -1) + 1)
        self.feed = feed
        self.window = window
        enablingWrites = (0..<feed.count).map { rule.enablingWrite(of: $0, in: feed) }
        writeTimes = Array(repeating: 0, count: feed.count)
        receivedInWindow = Array(repeating: 0, count: subscribers)
        relayLatencies.reserveCapacity(window.count * subscribers)
        ownBytesLatencies.reserveCapacity(window.count * subscribers)
    }

    /// How many subscribers the log follows.
    var subscribers: Int { receivedInWindow.count }

    func wrote(_ index: Int, at time: UInt64) {
        writeTimes[index] = time
    }

    func received(frame: Int, by subscriber: Int, at time: UInt64) {
        guard window.contains(frame) else { return }
        guard let enabling = enablingWrites[frame], writeTimes[enabling] != 0 else {
            earlyFrames += 1
            return
        }
        receivedInWindow[subscriber] += 1
        relayLatencies.append(Int64(time) - Int64(writeTimes[enabling]))
        if let groups { groupLatencies[groups[subscriber]].append(Int64(time) - Int64(writeTimes[enabling])) }
        ownBytesLatencies.append(Int64(time) - Int64(writeTimes[frame]))
    }
}
