/// The per-packet state of a stream, kept in one value so that recording a packet is a single access: the
/// descriptions gathered for the next batch and the index of every packet so far.
struct PacketLedger {
    private(set) var descriptions: [AudioStreamPacketDescription] = []
    /// The batch's packets when they are of a constant size (PCM frames), which have no descriptions.
    private(set) var constantPackets = 0
    /// The current buffer's positions of the batch's first byte and of the byte after its last packet.
    private(set) var batchStart = 0
    private(set) var batchEnd = 0
    /// The number of the batch's first packet.
    private(set) var firstPacket: Int64 = 0
    private(set) var index: PacketIndex
    /// The stream offset of the current buffer's first byte.
    var bufferOffset: Int64 = 0

    init(indexCapacity: Int) {
        index = PacketIndex(capacity: indexCapacity)
        descriptions.reserveCapacity(1024)
    }

    /// Records a whole packet at `start` in the current buffer. Returns false, recording nothing, when it does
    /// not come after the batch's last packet in the buffer or does not follow it in numbering: the batch must
    /// be delivered first. Bytes between packets (such as ADTS headers) stay in the batch, outside every packet.
    mutating func record(start: Int, size: Int, frames: Int, variableFrames: Bool) -> Bool {
        let offset = bufferOffset + Int64(start)
        let number = index.number(ofPacketAt: offset)
        if isBatchEmpty {
            batchStart = start
            firstPacket = number
        } else if constantPackets > 0 || start < batchEnd || number != firstPacket + Int64(descriptions.count) {
            return false
        }
        descriptions.append(AudioStreamPacketDescription(
            startOffset: Int64(start - batchStart), variableFramesInPacket: variableFrames ? UInt32(frames) : 0,
            dataByteSize: UInt32(size)))
        batchEnd = start + size
        index.append(packet: number, offset: offset, size: size, frames: frames)
        return true
    }

    /// Records `count` packets of `size` bytes and `frames` frames each, back to back from `start` in the
    /// current buffer, the first numbered `number`. Returns false, recording nothing, when they do not directly
    /// follow the batch's last constant-size packet: the batch must be delivered first.
    mutating func recordConstant(start: Int, count: Int, size: Int, frames: Int, number: Int64) -> Bool {
        if isBatchEmpty {
            batchStart = start
            firstPacket = number
        } else if !descriptions.isEmpty || start != batchEnd || number != firstPacket + Int64(constantPackets) {
            return false
        }
        constantPackets += count
        batchEnd = start + count * size
        index.append(constantPackets: Int64(count), from: number, offset: bufferOffset + Int64(start), size: size,
                     frames: frames)
        return true
    }

    var isBatchEmpty: Bool { descriptions.isEmpty && constantPackets == 0 }

    /// Empties the batch once delivered.
    mutating func clearBatch() {
        descriptions.removeAll(keepingCapacity: true)
        constantPackets = 0
    }

    /// The stream goes on at `offset` (a seek): the next packet is numbered from there.
    mutating func reposition(to offset: Int64) {
        index.reposition(to: offset)
    }
}
