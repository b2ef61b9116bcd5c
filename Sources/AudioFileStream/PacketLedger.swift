/// The per-packet state of a stream, kept in one value so that recording a packet is a single access: the
/// descriptions gathered for the next batch and the index of every packet so far.
struct PacketLedger {
    private(set) var descriptions: [AudioStreamPacketDescription] = []
    /// The current buffer's positions of the batch's first byte and of the byte after its last packet.
    private(set) var batchStart = 0
    private(set) var batchEnd = 0
    private(set) var index = PacketIndex()
    /// The stream offset of the current buffer's first byte.
    var bufferOffset: Int64 = 0

    init() {
        descriptions.reserveCapacity(1024)
    }

    /// Records a whole packet at `start` in the current buffer. Returns false, recording nothing, when it does
    /// not follow the batch's last packet: the batch must be delivered first.
    mutating func record(start: Int, size: Int, frames: Int, variableFrames: Bool) -> Bool {
        if descriptions.isEmpty {
            batchStart = start
        } else if start != batchEnd {
            return false
        }
        descriptions.append(AudioStreamPacketDescription(
            startOffset: Int64(start - batchStart), variableFramesInPacket: variableFrames ? UInt32(frames) : 0,
            dataByteSize: UInt32(size)))
        batchEnd = start + size
        index.append(offset: bufferOffset + Int64(start), size: size, frames: frames)
        return true
    }

    /// Empties the batch once delivered.
    mutating func clearBatch() {
        descriptions.removeAll(keepingCapacity: true)
    }

    /// The stream goes on at another position (a seek): packet offsets are no longer indexed.
    mutating func freezeIndex() {
        index.freeze()
    }
}
