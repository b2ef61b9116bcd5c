/// Numbers packets and remembers the exact offset of the first `capacity` ones, for byte↔packet translation and
/// seeking. Past the capacity it keeps counting in constant memory and translations become estimates.
///
/// After a seek (`reposition(to:)`) packets are numbered from the packet at the new offset: exactly when the
/// offset is an indexed packet's start, otherwise from an estimate until a packet lands on an indexed offset
/// again. Packets read a second time are not counted twice.
struct PacketIndex {
    /// Enough for about seven hours of 44.1 kHz Layer III (8 MiB of offsets).
    static let defaultCapacity = 1 << 20

    /// How many packets' offsets are kept.
    let capacity: Int

    /// The offsets of packets 0, 1, 2 … without a gap.
    private(set) var offsets: [Int64] = []
    /// The indexed packets' frame counts as runs of equal counts, so that each packet's first frame is exact
    /// however the count varies: run i starts at packet `runPackets[i]`, frame `runFrames[i]`, and holds
    /// `runFrameCounts[i]` frames a packet. A stream of one format is one run.
    private var runPackets: [Int64] = []
    private var runFrames: [Int64] = []
    private var runFrameCounts: [Int] = []
    /// One more than the highest packet number seen.
    private(set) var packetCount: Int64 = 0
    /// Distinct packets parsed, and their bytes and PCM frames.
    private(set) var parsedPackets: Int64 = 0
    private(set) var byteCount: Int64 = 0
    private(set) var frameCount: Int64 = 0
    private(set) var maximumPacketSize: Int = 0
    /// The stream offset just past the highest-numbered packet.
    private(set) var endOffset: Int64 = 0
    /// The number the next packet gets, unless it lands on an indexed offset while numbering is estimated.
    private var nextPacket: Int64 = 0
    /// False after a seek to an offset that is not an indexed packet's start.
    private var isNumberingExact = true

    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    /// The number of the packet starting at `offset`, which must be the next packet parsed.
    func number(ofPacketAt offset: Int64) -> Int64 {
        guard !isNumberingExact, let known = packet(startingAt: offset) else { return nextPacket }
        return known
    }

    /// Records packet `number` (from `number(ofPacketAt:)`).
    mutating func append(packet number: Int64, offset: Int64, size: Int, frames: Int) {
        if !isNumberingExact { isNumberingExact = packet(startingAt: offset) == number }
        nextPacket = number + 1
        if isNumberingExact {
            if number < Int64(offsets.count)
                && (offsets[Int(number)] != offset
                    || runFrameCounts[Self.lastIndex(in: runPackets, atOrBefore: number)] != frames) {
                forget(fromPacket: number)
            }
            if number == Int64(offsets.count) && offsets.count < capacity {
                if runFrameCounts.last != frames {
                    runFrames.append(runFrames.isEmpty ? 0 : framePosition(ofPacket: number - 1)! + Int64(runFrameCounts.last!))
                    runPackets.append(number)
                    runFrameCounts.append(frames)
                }
                offsets.append(offset)
            }
        }
        // Every packet bounds MaximumPacketSize, even one numbered from an estimate after a seek.
        maximumPacketSize = max(maximumPacketSize, size)
        guard number >= packetCount else { return }
        packetCount = number + 1
        parsedPackets += 1
        byteCount += Int64(size)
        frameCount += Int64(frames)
        endOffset = offset + Int64(size)
    }

    /// Records `count` packets of a constant size from packet `number` on, the first at `offset`. Their offsets
    /// follow from their numbers, so none is stored: the translations of such a format are arithmetic.
    mutating func append(constantPackets count: Int64, from number: Int64, offset: Int64, size: Int, frames: Int) {
        maximumPacketSize = max(maximumPacketSize, size)
        let end = number + count
        guard end > packetCount else { return }
        let new = end - max(number, packetCount)
        packetCount = end
        parsedPackets += new
        byteCount += new * Int64(size)
        frameCount += new * Int64(frames)
        endOffset = offset + count * Int64(size)
    }

    /// Packets from `packet` on are not the stream that was indexed (another was fed at their offsets after a
    /// seek): what follows is indexed anew.
    private mutating func forget(fromPacket packet: Int64) {
        offsets.removeSubrange(Int(packet)...)
        let keptRuns = runPackets.firstIndex { $0 >= packet } ?? runPackets.count
        runPackets.removeSubrange(keptRuns...)
        runFrames.removeSubrange(keptRuns...)
        runFrameCounts.removeSubrange(keptRuns...)
    }

    /// The stream goes on at `offset` (a seek): the next packet is numbered from there.
    mutating func reposition(to offset: Int64) {
        if let known = packet(startingAt: offset) {
            nextPacket = known
            isNumberingExact = true
        } else {
            nextPacket = estimatedPacket(at: offset)
            isNumberingExact = false
        }
    }

    /// Average packet size so far, or nil before the first packet.
    var averagePacketSize: Double? {
        parsedPackets == 0 ? nil : Double(byteCount) / Double(parsedPackets)
    }

    /// The first PCM frame of `packet`, if it is indexed.
    func framePosition(ofPacket packet: Int64) -> Int64? {
        guard packet >= 0, packet < Int64(offsets.count) else { return nil }
        let run = Self.lastIndex(in: runPackets, atOrBefore: packet)
        return runFrames[run] + (packet - runPackets[run]) * Int64(runFrameCounts[run])
    }

    /// The indexed packet holding PCM frame `frame`, and the frame's position in it, if `frame` lies within the
    /// indexed packets.
    func packet(holdingFrame frame: Int64) -> (packet: Int64, frameOffsetInPacket: Int)? {
        guard let first = runFrames.first, frame >= first, frame < lastKnownFramePosition.frame else { return nil }
        let run = Self.lastIndex(in: runFrames, atOrBefore: frame)
        let (packets, offset) = (frame - runFrames[run]).quotientAndRemainder(dividingBy: Int64(runFrameCounts[run]))
        return (runPackets[run] + packets, Int(offset))
    }

    /// The last packet whose first frame is known, and that frame: the packet after the last indexed one when
    /// every packet is indexed.
    var lastKnownFramePosition: (packet: Int64, frame: Int64) {
        guard !offsets.isEmpty, Int64(offsets.count) != packetCount else { return (packetCount, frameCount) }
        let last = Int64(offsets.count - 1)
        return (last, framePosition(ofPacket: last)!)
    }

    /// The stream offset of `packet`, if it is indexed.
    func offset(ofPacket packet: Int64) -> Int64? {
        packet >= 0 && packet < Int64(offsets.count) ? offsets[Int(packet)] : nil
    }

    /// The last indexed packet starting at or before `offset`, if `offset` lies within the indexed packets.
    func packet(containing offset: Int64) -> (packet: Int64, start: Int64)? {
        guard let first = offsets.first, offset >= first else { return nil }
        guard offset < (Int64(offsets.count) == packetCount ? endOffset : offsets[offsets.count - 1]) else { return nil }
        let packet = Self.lastIndex(in: offsets, atOrBefore: offset)
        return (Int64(packet), offsets[packet])
    }

    /// The last index of the ascending `values` at or before `value` (`values[0]` is at or before it).
    private static func lastIndex(in values: [Int64], atOrBefore value: Int64) -> Int {
        var low = 0
        var high = values.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if values[middle] <= value { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The packet known to start exactly at `offset`: an indexed one, or the one after the last when every
    /// packet so far is indexed.
    private func packet(startingAt offset: Int64) -> Int64? {
        if Int64(offsets.count) == packetCount && offset == endOffset { return packetCount }
        guard let (packet, start) = packet(containing: offset), start == offset else { return nil }
        return packet
    }

    /// The first packet at or after `offset`: the next indexed one, or one counted on from the last at the
    /// average size.
    private func estimatedPacket(at offset: Int64) -> Int64 {
        if let first = offsets.first, offset < first { return 0 }
        if let (packet, _) = packet(containing: offset) { return packet + 1 }
        guard let average = averagePacketSize, offset > endOffset else { return packetCount }
        return packetCount + Int64((Double(offset - endOffset) / average).rounded(.up))
    }
}
