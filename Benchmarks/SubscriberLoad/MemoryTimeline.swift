/// The relay's resident memory through a run (VmRSS, KiB): enough to tell what its subscribers cost and whether
/// it stays flat once warm.
struct MemoryTimeline: Encodable {
    /// With its streams started but no subscriber yet.
    let beforeSubscribersKiB: Int
    /// Once it counted every subscriber, before the first byte was fed.
    let subscribedKiB: Int
    /// At the start of the measured window: after the warm-up.
    let windowStartKiB: Int
    /// At the end of the window.
    let windowEndKiB: Int
    /// The most it held by the last sample of the feed (VmHWM).
    let peakKiB: Int
    /// Each second from the first write to the last.
    let everySecondKiB: [Int]

    init(beforeSubscribers: ProcessMemory, subscribed: ProcessMemory, usage: LoadRun.Usage) {
        beforeSubscribersKiB = beforeSubscribers.residentKiB
        subscribedKiB = subscribed.residentKiB
        windowStartKiB = usage.relayMemoryAtWindowStart.residentKiB
        windowEndKiB = usage.relayMemory.residentKiB
        peakKiB = (usage.relayMemoryEverySecond.last ?? usage.relayMemory).peakResidentKiB
        everySecondKiB = usage.relayMemoryEverySecond.map(\.residentKiB)
    }
}
