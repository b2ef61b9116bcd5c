/// The byte offsets of a file's packets, kept for every `stride`-th packet and at most `capacity` of them: when
/// full, every other is dropped and the stride doubles. Enough for a table of contents of 100 entries, in a
/// bounded memory however long the file.
struct PacketOffsetSamples {
    private var offsets: [Int64] = []
    private var stride: Int64 = 1
    private static let capacity = 256

    init() {
        offsets.reserveCapacity(Self.capacity)
    }

    /// Notes that packet `index` (counted from 0, each once and in order) starts at `offset`.
    mutating func record(packet index: Int64, offset: Int64) {
        guard index % stride == 0 else { return }
        if offsets.count == Self.capacity {
            for kept in 0..<Self.capacity / 2 { offsets[kept] = offsets[kept * 2] }
            offsets.removeLast(Self.capacity / 2)
            stride *= 2
            guard index % stride == 0 else { return }
        }
        offsets.append(offset)
    }

    /// The offset of the last sampled packet at or before `index`; 0 before any was recorded.
    func offset(ofPacket index: Int64) -> Int64 {
        guard !offsets.isEmpty else { return 0 }
        return offsets[Int(min(index / stride, Int64(offsets.count - 1)))]
    }
}
