/// Counts every packet and remembers the exact offset of the first `capacity` ones, for byte↔packet translation
/// and seeking. Past the capacity it keeps counting in constant memory and translations become estimates.
struct PacketIndex {
    /// Enough for about seven hours of 44.1 kHz Layer III (8 MiB of offsets).
    static let capacity = 1 << 20

    private(set) var offsets: [Int64] = []
    private(set) var packetCount: Int64 = 0
    private(set) var byteCount: Int64 = 0
    private(set) var frameCount: Int64 = 0
    private(set) var maximumPacketSize: Int = 0
    /// The stream offset just past the last packet.
    private(set) var endOffset: Int64 = 0
    /// Set after a seek: offsets no longer ascend, so no more are remembered.
    private var isFrozen = false

    mutating func append(offset: Int64, size: Int, frames: Int) {
        if !isFrozen && offsets.count < Self.capacity { offsets.append(offset) }
        packetCount += 1
        byteCount += Int64(size)
        frameCount += Int64(frames)
        maximumPacketSize = max(maximumPacketSize, size)
        endOffset = offset + Int64(size)
    }

    /// Stops remembering offsets; the stream continues elsewhere (a seek).
    mutating func freeze() {
        isFrozen = true
    }

    /// Average packet size so far, or nil before the first packet.
    var averagePacketSize: Double? {
        packetCount == 0 ? nil : Double(byteCount) / Double(packetCount)
    }

    /// The stream offset of `packet`, if it is indexed.
    func offset(ofPacket packet: Int64) -> Int64? {
        packet >= 0 && packet < Int64(offsets.count) ? offsets[Int(packet)] : nil
    }

    /// The last indexed packet starting at or before `offset`, if `offset` lies within the indexed packets.
    func packet(containing offset: Int64) -> (packet: Int64, start: Int64)? {
        guard let first = offsets.first, offset >= first else { return nil }
        let indexedEnd = Int64(offsets.count) == packetCount ? endOffset : offsets[offsets.count - 1]
        guard offset < indexedEnd else { return nil }
        var low = 0
        var high = offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (Int64(low), offsets[low])
    }
}
