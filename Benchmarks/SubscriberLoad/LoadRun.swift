import Glibc

/// One measured run on one thread: paces the feed into the relay while reading every subscriber's socket, and
/// samples the relay's CPU and memory over the measured window.
///
/// The window is a range of writes: CPU is counted from the write of its first frame to the write after its last.
final class LoadRun {
    /// CPU and memory over the window.
    struct Usage {
        let seconds: Double
        let relayCPUPercent: Double
        let generatorCPUPercent: Double
        /// Sampled at the end of the window.
        let relayMemory: ProcessMemory
    }

    private let log: DeliveryLog
    private let pacer: Pacer
    private let receivers: [Receiver]
    private let relayPID: Int32
    private var windowStart: (relay: ProcessSample, generator: ProcessSample)?
    private var usage: Usage?

    private static let timerToken = UInt64.max
    /// Time between connecting the last subscriber and the first write.
    private static let leadIn: UInt64 = 100_000_000

    /// - Parameters:
    ///   - feed: where the pacer writes: the relay's input.
    ///   - frames: how many frames to write; the window and what lets its frames through must fit before the end.
    init(log: DeliveryLog, feed: Int32, frames: Int, receivers: [Receiver], relayPID: Int32) {
        self.log = log
        pacer = Pacer(log: log, output: feed, total: frames)
        self.receivers = receivers
        self.relayPID = relayPID
    }

    /// Feeds every frame, then calls `afterFeed` (to ask the relay for its figures and close its input), then reads
    /// until every subscriber has been closed or `drainSeconds` have passed. Closes every subscriber's socket.
    /// - Returns: CPU and memory over the window.
    func run(drainSeconds: Double, afterFeed: () throws -> Void) throws -> Usage {
        defer { for receiver in receivers { close(receiver.descriptor) } }
        let poller = try Poller()
        let timer = try DeadlineTimer()
        try poller.watch(timer.descriptor, token: Self.timerToken)
        for (index, receiver) in receivers.enumerated() {
            try Socket.setNonBlocking(receiver.descriptor)
            try poller.watch(receiver.descriptor, token: UInt64(index))
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 8)
        defer { buffer.deallocate() }
        var open = receivers.count
        var drainDeadline: UInt64?
        pacer.begin(at: MonotonicClock.now + Self.leadIn)
        try timer.arm(at: pacer.nextDeadline!)
        while drainDeadline.map({ open > 0 && MonotonicClock.now < $0 }) ?? true {
            let timeout = drainDeadline.map { Int32(($0 - min($0, MonotonicClock.now)) / 1_000_000 + 1) } ?? -1
            try poller.wait(timeoutMilliseconds: timeout) { token in
                if token == Self.timerToken {
                    timer.acknowledge()
                    while try pacer.writeIfDue(before: sampleAtWindowEdges) {}
                    if let next = pacer.nextDeadline {
                        try timer.arm(at: next)
                    } else if drainDeadline == nil {
                        try afterFeed()
                        drainDeadline = MonotonicClock.now + UInt64(drainSeconds * 1e9)
                    }
                } else if !read(receivers[Int(token)], into: buffer) {
                    poller.unwatch(receivers[Int(token)].descriptor)
                    open -= 1
                }
            }
        }
        guard let usage else { throw LoadError("the feed ended before the measured window did") }
        return usage
    }

    /// Reads what the subscriber's socket holds and hands it over; false once the connection has ended.
    private func read(_ receiver: Receiver, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let count = Glibc.read(receiver.descriptor, buffer.baseAddress, buffer.count)
        let time = MonotonicClock.now
        if count > 0 {
            receiver.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: time)
            return true
        }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        receiver.closed(at: time)
        return false
    }

    /// Samples CPU before the window's first write, and CPU and memory before the write after its last.
    private func sampleAtWindowEdges(write: Int) throws {
        if write == log.window.lowerBound {
            windowStart = (try ProcessSample(pid: relayPID), try ProcessSample(pid: getpid()))
        } else if write == log.window.upperBound, let windowStart {
            let relay = try ProcessSample(pid: relayPID)
            let generator = try ProcessSample(pid: getpid())
            usage = Usage(
                seconds: Double(relay.time - windowStart.relay.time) / 1e9,
                relayCPUPercent: relay.cpuPercent(since: windowStart.relay),
                generatorCPUPercent: generator.cpuPercent(since: windowStart.generator),
                relayMemory: try ProcessMemory(pid: relayPID))
        }
    }
}
