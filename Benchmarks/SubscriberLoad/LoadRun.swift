import Foundation
import Glibc

/// One measured run on one thread: paces the feed into the relay while reading every subscriber's socket, and
/// samples the relay's CPU over the measured window and its memory every second of the feed.
///
/// The window is a range of writes: CPU is counted from the write of its first frame to the write after its last.
final class LoadRun {
    /// CPU and memory over the window.
    struct Usage {
        let seconds: Double
        let relayCPUPercent: Double
        /// The part of it spent in the kernel.
        let relaySystemCPUPercent: Double
        let generatorCPUPercent: Double
        /// Sampled at the end of the window.
        let relayMemory: ProcessMemory
        /// Sampled at the start of the window, once the warm-up is over.
        let relayMemoryAtWindowStart: ProcessMemory
        /// The relay's memory each second from the first write to the last.
        var relayMemoryEverySecond: [ProcessMemory] = []
        /// The CPU of each other process followed (a relay tree's relays), as the relay's.
        var othersCPUPercent: [Double] = []
    }

    private let log: DeliveryLog
    private let pacer: Pacer
    private let receivers: [Receiver]
    private let relayPID: Int32
    /// Other processes whose CPU is sampled over the window too.
    private let otherPIDs: [Int32]
    private var othersAtWindowStart: [ProcessSample] = []
    /// Run as the window starts and ends (`LoadOptions.windowCommand`).
    private let windowCommand: String?
    /// Called with each write's index once it is made.
    private let afterWrite: (Int) -> Void
    private var windowStart: (relay: ProcessSample, generator: ProcessSample, memory: ProcessMemory)?
    private var usage: Usage?
    private var memoryEverySecond: [ProcessMemory] = []
    private var nextMemorySample: UInt64 = 0

    private static let timerToken = UInt64.max
    /// Time between connecting the last subscriber and the first write.
    private static let leadIn: UInt64 = 100_000_000

    /// - Parameters:
    ///   - feeds: where the pacer writes: the relay's inputs, one per stream.
    ///   - frames: how many frames to write; the window and what lets its frames through must fit before the end.
    ///   - afterWrite: called with each write's index once it is made (players that join at a given moment).
    init(log: DeliveryLog, feeds: [Int32], frames: Int, receivers: [Receiver], relayPID: Int32,
         otherPIDs: [Int32] = [], windowCommand: String? = nil, afterWrite: @escaping (Int) -> Void = { _ in }) {
        self.otherPIDs = otherPIDs
        self.log = log
        pacer = Pacer(log: log, outputs: feeds, total: frames)
        self.receivers = receivers
        self.relayPID = relayPID
        self.windowCommand = windowCommand
        self.afterWrite = afterWrite
    }

    /// Feeds every frame, then calls `afterFeed` (to ask the relay for its figures and close its input), then reads
    /// until every subscriber has been closed or `drainSeconds` have passed. Closes every subscriber's socket.
    /// - Returns: CPU and memory over the window, and memory over the feed.
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
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: ReceiveTimes.controlSize, alignment: 8)
        defer { control.deallocate() }
        var open = receivers.count
        var drainDeadline: UInt64?
        pacer.begin(at: MonotonicClock.now + Self.leadIn)
        nextMemorySample = pacer.nextDeadline!
        try timer.arm(at: pacer.nextDeadline!)
        while drainDeadline.map({ open > 0 && MonotonicClock.now < $0 }) ?? true {
            let timeout = drainDeadline.map { Int32(($0 - min($0, MonotonicClock.now)) / 1_000_000 + 1) } ?? -1
            try poller.wait(timeoutMilliseconds: timeout) { token in
                if token == Self.timerToken {
                    timer.acknowledge()
                    while try pacer.writeIfDue(before: sample) { afterWrite(pacer.next - 1) }
                    if let next = pacer.nextDeadline {
                        try timer.arm(at: next)
                    } else if drainDeadline == nil {
                        try afterFeed()
                        drainDeadline = MonotonicClock.now + UInt64(drainSeconds * 1e9)
                    }
                } else if !read(receivers[Int(token)], into: buffer, control: control) {
                    poller.unwatch(receivers[Int(token)].descriptor)
                    open -= 1
                }
            }
        }
        guard var usage else { throw LoadError("the feed ended before the measured window did") }
        usage.relayMemoryEverySecond = memoryEverySecond
        return usage
    }

    /// Reads what the subscriber's socket holds and hands it over, with when it came; false once the connection
    /// has ended.
    private func read(_ receiver: Receiver, into buffer: UnsafeMutableRawBufferPointer,
                      control: UnsafeMutableRawBufferPointer) -> Bool {
        let (count, stamp) = receiver.isStampedByKernel
            ? ReceiveTimes.read(receiver.descriptor, into: buffer, control: control)
            : (Glibc.read(receiver.descriptor, buffer.baseAddress, buffer.count), nil)
        let time = stamp ?? MonotonicClock.now
        if count > 0 {
            receiver.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: time)
            return true
        }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        receiver.closed(at: time)
        return false
    }

    /// Samples memory before a write when a second has passed since the last sample, CPU and memory before the
    /// window's first write, and again before the write after its last.
    private func sample(before write: Int) throws {
        if MonotonicClock.now >= nextMemorySample {
            memoryEverySecond.append(try ProcessMemory(pid: relayPID))
            nextMemorySample += 1_000_000_000
        }
        if write == log.window.lowerBound {
            try runWindowCommand("start")
            windowStart = (try ProcessSample(pid: relayPID), try ProcessSample(pid: getpid()),
                           try ProcessMemory(pid: relayPID))
            othersAtWindowStart = try otherPIDs.map { try ProcessSample(pid: $0) }
        } else if write == log.window.upperBound, let windowStart {
            try runWindowCommand("end")
            let relay = try ProcessSample(pid: relayPID)
            let generator = try ProcessSample(pid: getpid())
            usage = Usage(
                seconds: Double(relay.time - windowStart.relay.time) / 1e9,
                relayCPUPercent: relay.cpuPercent(since: windowStart.relay),
                relaySystemCPUPercent: relay.systemPercent(since: windowStart.relay),
                generatorCPUPercent: generator.cpuPercent(since: windowStart.generator),
                relayMemory: try ProcessMemory(pid: relayPID),
                relayMemoryAtWindowStart: windowStart.memory,
                othersCPUPercent: try zip(otherPIDs, othersAtWindowStart).map {
                    try ProcessSample(pid: $0).cpuPercent(since: $1)
                })
        }
    }

    /// Runs the window command, if any, with `phase`, and waits for it.
    private func runWindowCommand(_ phase: String) throws {
        guard let windowCommand else { return }
        let command = Process()
        command.executableURL = URL(fileURLWithPath: "/bin/sh")
        command.arguments = ["-c", "\(windowCommand) \(phase)"]
        command.environment = ProcessInfo.processInfo.environment.merging(["RELAY_PID": "\(relayPID)"]) { $1 }
        try command.run()
        command.waitUntilExit()
        guard command.terminationStatus == 0 else {
            throw LoadError("the window command failed at the window's \(phase) (status \(command.terminationStatus))")
        }
    }
}
