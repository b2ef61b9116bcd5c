import AudioFileStream
import AudioFileWriting

/// The last packets before a segment's start, as many as its decoder's lead-in asks for: given before the
/// segment's first packet (inside its priming), so that a decoder starting there gives the very samples it gives
/// when decoding the whole file. Bounded by the lead-in: a few packets, copied.
struct LeadInPackets {
    private struct Packet {
        var bytes: [UInt8]
        var frames: Int64
        var offset: Int64
        var index: Int64
    }

    private var packets: [Packet] = []
    private var frames: Int64 = 0
    private var firstDecodesToNothing = false

    /// Frames the decoder gives for the packets kept: all theirs, but the first packet's when the decoder gives
    /// nothing for it (Vorbis).
    var decodedFrames: Int64 {
        guard let first = packets.first else { return 0 }
        return firstDecodesToNothing ? frames - first.frames : frames
    }

    /// Keeps `packet`, the stream's packet number `index`, and lets go of the oldest that `leadIn` no longer needs.
    mutating func keep(_ packet: AudioPacket, index: Int64, for leadIn: DecoderLeadIn) {
        guard leadIn.packets > 0 || leadIn.frames > 0 else { return }
        packets.append(Packet(bytes: Array(packet.bytes), frames: packet.frames, offset: packet.offset, index: index))
        frames += packet.frames
        firstDecodesToNothing = leadIn.firstPacketDecodesToNothing
        while packets.count > 1, packets.count - 1 >= leadIn.packets, frames - packets[0].frames >= leadIn.frames {
            frames -= packets.removeFirst().frames
        }
    }

    /// Gives the packets kept, a batch each, and forgets them.
    mutating func give(format: AudioStreamBasicDescription, output: (SegmentRange.Output) -> Void) {
        for packet in packets {
            packet.bytes.withUnsafeBytes { bytes in
                PacketBatch.withPacket(AudioPacket(bytes: bytes, frames: packet.frames, offset: packet.offset),
                                       format: format, index: packet.index) { output(.packets($0)) }
            }
        }
        packets.removeAll()
        frames = 0
    }
}
