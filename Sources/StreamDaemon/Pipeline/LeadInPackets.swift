import AudioFileStream
import AudioFileWriting

/// The last packets before a segment's start, as many as its decoder's lead-in asks for: given before the
/// segment's first packet (inside its priming), so that a decoder starting there gives the very samples it gives
/// when decoding the whole file. Bounded by the lead-in: a few packets, copied.
struct LeadInPackets {
    private struct Packet {
        var bytes: [UInt8]
        var description: AudioStreamPacketDescription
        var streamOffset: Int64
        var index: Int64
    }

    private var packets: [Packet] = []
    private var frames: Int64 = 0
    private var firstDecodesToNothing = false

    /// Frames the decoder gives for the packets kept: all theirs, but the first packet's when the decoder gives
    /// nothing for it (Vorbis).
    var decodedFrames: Int64 {
        guard let first = packets.first else { return 0 }
        return firstDecodesToNothing ? frames - Int64(first.description.variableFramesInPacket) : frames
    }

    /// Keeps the batch's packet at `index`, and lets go of the oldest that `leadIn` no longer needs.
    mutating func keep(_ batch: PacketBatch, packet index: Int, frames packetFrames: Int64, for leadIn: DecoderLeadIn) {
        guard leadIn.packets > 0 || leadIn.frames > 0, let description = batch.descriptions?[index] else { return }
        let start = Int(description.startOffset)
        packets.append(Packet(
            bytes: Array(batch.bytes[start..<start + Int(description.dataByteSize)]),
            description: AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: UInt32(packetFrames),
                                                      dataByteSize: description.dataByteSize),
            streamOffset: batch.streamOffset + Int64(start), index: batch.firstPacketIndex + Int64(index)))
        frames += packetFrames
        firstDecodesToNothing = leadIn.firstPacketDecodesToNothing
        while packets.count > 1, packets.count - 1 >= leadIn.packets,
              frames - Int64(packets[0].description.variableFramesInPacket) >= leadIn.frames {
            frames -= Int64(packets.removeFirst().description.variableFramesInPacket)
        }
    }

    /// Gives the packets kept, a batch each, and forgets them.
    mutating func give(format: AudioStreamBasicDescription, output: (SegmentRange.Output) -> Void) {
        for packet in packets {
            packet.bytes.withUnsafeBytes { bytes in
                withUnsafePointer(to: packet.description) { description in
                    output(.packets(PacketBatch(
                        bytes: bytes, format: format, descriptions: UnsafeBufferPointer(start: description, count: 1),
                        streamOffset: packet.streamOffset, firstPacketIndex: packet.index,
                        followsDiscontinuity: false, isAssembled: false)))
                }
            }
        }
        packets.removeAll()
        frames = 0
    }
}
