/// How soon parts reached the players waiting for them: from the write that let the daemon confirm a part's last
/// frame (the next frame's header) to a blocking reload's whole answer listing the part, for the parts that end
/// in the log's window. Twice: to when the kernel took the answer in for its player, which is when the daemon
/// delivered it, and to when the players' one process read it, which adds its turn among a thousand sockets.
final class HLSAvailability {
    private let log: DeliveryLog
    private(set) var delivered: [Int64] = []
    private(set) var read: [Int64] = []

    init(log: DeliveryLog) {
        self.log = log
    }

    func note(deliveredAt delivery: UInt64, readAt reading: UInt64, lastFrame: Int) {
        guard log.window.contains(lastFrame),
              let enabling = EmitRule.nextFrameHeader.enablingWrite(of: lastFrame, in: log.feed),
              log.writeTimes[enabling] != 0
        else { return }
        delivered.append(Int64(delivery) - Int64(log.writeTimes[enabling]))
        read.append(Int64(reading) - Int64(log.writeTimes[enabling]))
    }
}
