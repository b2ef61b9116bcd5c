@testable import AudioFileWriting
import Testing

@Suite struct PacketOffsetSamplesTests {
    /// An hour and more of frames: the offsets kept stay within 1/128 of the packets of the true one, for any packet.
    @Test func aLongFileKeepsOffsetsWithinAFractionOfItsPackets() {
        var samples = PacketOffsetSamples()
        let count: Int64 = 200_000
        for packet in 0..<count { samples.record(packet: packet, offset: packet * 417) }
        for packet in stride(from: Int64(0), to: count, by: 997) {
            let found = samples.offset(ofPacket: packet) / 417
            #expect(found <= packet && packet - found < count / 128, "packet \(packet)")
        }
    }
}
