import AudioFileStream

/// A batch's packets as the protocol carries them (docs/protocol.md): a message each, but packets of constant
/// size (PCM frames) in one message per batch, a run of them as the parser delivered it.
public struct MessagePackets: RandomAccessCollection {
    private let packets: AudioPackets

    public init(_ batch: PacketBatch) {
        packets = batch.packets
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { packets.areConstant ? Swift.min(packets.count, 1) : packets.count }

    public subscript(index: Int) -> AudioPacket {
        packets.areConstant ? packets.span(packets.indices) : packets[index]
    }
}
