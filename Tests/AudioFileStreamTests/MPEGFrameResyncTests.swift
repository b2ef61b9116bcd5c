import Testing
import FixtureSupport
@testable import AudioFileStream

/// What a resync asks of an MPEG frame: every frame of ISO's conformance streams and of the fixtures passes it,
/// as ffprobe and the spec walk cut them; the same frames with a forbidden value do not.
@Suite struct MPEGFrameResyncTests {
    static let streams = Fixtures.conformanceStreams + Fixtures.generated

    @Test func everyStreamIsThere() {
        #expect(Self.streams.count == 29 + 46)
    }

    @Test(arguments: streams)
    func everyRealFrameIsWellFormed(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        var checked = 0
        for packet in fixture.expectedPackets {
            let frame = Array(bytes[Int(packet.offset)..<Int(packet.offset) + packet.size])
            try frame.withUnsafeBytes { frame in
                let header = try #require(MPEGFrameHeader(bytes: frame, at: 0))
                #expect(header.isWellFormed(frame: frame), "frame at \(packet.offset)")
                #expect(!header.holdsReservedValue || fixture.name == "l3-hecommon.bit", "frame at \(packet.offset)")
            }
            checked += 1
        }
        #expect(checked > 0)
    }

    /// Layer III: more than 288 big values, or block type 0 under window switching.
    @Test func aLayerIIIFrameWithAForbiddenSideInformationValueIsNot() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        let packet = try #require(fixture.expectedPackets.dropFirst().first)
        let frame = Array(fixture.bytes[Int(packet.offset)..<Int(packet.offset) + packet.size])
        let sideStart = MPEGFrameHeader(frame.withUnsafeBytes { $0.bigEndianUInt32(at: 0) })!.hasCRC ? 6 : 4
        // MPEG-1 stereo: main_data_begin 9, private 3, scfsi 8 bits, then part2_3_length 12 and big_values 9.
        var bigValues = frame
        bigValues[sideStart + 4] = 0xFF
        bigValues[sideStart + 5] |= 0x80
        // Then global_gain 8, scalefac_compress 4, window_switching_flag 1 and block_type 2: bits 53 to 55.
        var blockType = frame
        blockType[sideStart + 6] = (blockType[sideStart + 6] & 0xF8) | 0x04
        for (bytes, wellFormed) in [(frame, true), (bigValues, false), (blockType, false)] {
            bytes.withUnsafeBytes { bytes in
                #expect(MPEGFrameHeader(bytes: bytes, at: 0)!.isWellFormed(frame: bytes) == wellFormed)
            }
        }
    }

    /// Free-format Layer III below 8 kbit/s, which LAME (the encoder that writes free format) refuses: 24-byte rows
    /// of a program's data chain as MPEG 2.5 frames of 4 kbit/s with empty side information.
    @Test func aFreeFormatLayerIIIFrameBelow8kbitsIsNot() throws {
        // MPEG 2.5 Layer III, no CRC, free format, 12 kHz, padded, then zeros.
        let row: [UInt8] = [0xFF, 0xE3, 0x06, 0x00] + [UInt8](repeating: 0, count: 20)
        row.withUnsafeBytes { #expect(!MPEGFrameHeader(bytes: $0, at: 0)!.isWellFormed(frame: $0)) }
        let bytes = [UInt8](repeating: 0x5A, count: 40) + Array(repeatElement(row, count: 24).joined())
        let (packets, _) = try ADTSTests.parsePackets(bytes, chunking: .random(seed: 9))
        #expect(packets.isEmpty)
    }

    /// Layer I: an allocation of 1111, or bytes after the audio the encoder fills with zeros.
    @Test func aLayerIFrameWithAForbiddenAllocationOrFillingIsNot() throws {
        let fixture = Fixtures.conformanceStreams.first { $0.name == "l1-fl6.bit" }!
        let packet = try #require(fixture.expectedPackets.first)
        let frame = Array(fixture.bytes[Int(packet.offset)..<Int(packet.offset) + packet.size])
        let allocationStart = MPEGFrameHeader(frame.withUnsafeBytes { $0.bigEndianUInt32(at: 0) })!.hasCRC ? 6 : 4
        var allocation = frame
        allocation[allocationStart] |= 0xF0
        var filling = frame
        filling[filling.count - 1] = 0x5A
        for (bytes, wellFormed) in [(frame, true), (allocation, false), (filling, false)] {
            bytes.withUnsafeBytes { bytes in
                #expect(MPEGFrameHeader(bytes: bytes, at: 0)!.isWellFormed(frame: bytes) == wellFormed)
            }
        }
    }
}
