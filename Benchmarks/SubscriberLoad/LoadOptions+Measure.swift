extension LoadOptions {
    /// The part of a run that every relay shares: connects the log's subscribers with `connect` (given each one's
    /// index), waits until the relay's own `view` counts them all, runs the load on `feeds`, and, once the last
    /// frame is written, takes the relay's view again and calls `closeFeed`.
    /// - Returns: the report, the relay's memory through the run, and the subscribers for what only their relay's
    ///   command checks.
    func measure<Subscriber: Receiver>(
        relay: String, log: DeliveryLog, frames: Int, feeds: [Int32], relayPID: Int32, otherPIDs: [Int32] = [],
        drainSeconds: Double,
        view: () throws -> RelayView, closeFeed: () throws -> Void, connect: (Int) throws -> Subscriber
    ) throws -> (report: RunReport, memory: MemoryTimeline, subscribers: [Subscriber]) {
        let beforeSubscribers = try ProcessMemory(pid: relayPID)
        let connectStart = MonotonicClock.now
        let connected = try (0..<log.subscribers).map(connect)
        try MonotonicClock.wait(for: "\(log.subscribers) subscribers counted by \(relay)", timeout: connectTimeout) {
            try view().subscribers == log.subscribers
        }
        let connectSeconds = Double(MonotonicClock.now - connectStart) / 1e9
        let subscribed = try ProcessMemory(pid: relayPID)

        var finalView = RelayView(subscribers: 0)
        let run = LoadRun(log: log, feeds: feeds, frames: frames, receivers: connected, relayPID: relayPID,
                          otherPIDs: otherPIDs, windowCommand: windowCommand)
        let usage = try run.run(drainSeconds: drainSeconds) {
            finalView = try view()
            try closeFeed()
        }
        let report = RunReport(relay: relay, log: log, receivers: connected, usage: usage, relayView: finalView,
                               connectSeconds: connectSeconds)
        let memory = MemoryTimeline(beforeSubscribers: beforeSubscribers, subscribed: subscribed, usage: usage)
        return (report, memory, connected)
    }
}
