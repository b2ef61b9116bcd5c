/// How soon parts reached the players waiting for them: from the write that let the daemon confirm a part's last
/// frame (the next frame's header) to a blocking reload's whole answer listing the part, for the parts that end
/// in the log's window.
final class HLSAvailability {
    private let log: DeliveryLog
    private(set) var latencies: [Int64] = []

    init(log: DeliveryLog) {
        self.log = log
    }

    func note(answeredAt time: UInt64, lastFrame: Int) {
        guard log.window.contains(lastFrame),
              let enabling = EmitRule.nextFrameHeader.enablingWrite(of: lastFrame, in: log.feed),
              log.writeTimes[enabling] != 0
        else { return }
        latencies.append(Int64(time) - Int64(log.writeTimes[enabling]))
    }
}
