import Testing
import FixtureSupport
@testable import AudioFileStream

/// PacketToFrame, FrameToPacket, PacketToByte and ByteToPacket, exact within what was parsed and marked
/// estimated beyond it.
@Suite struct TranslationTests {
    /// Parses the first `count` bytes only.
    static func stream(parsing fixture: Fixtures.Fixture, count: Int? = nil) throws -> AudioFileStream {
        let stream = try AudioFileStream { _ in }
        let bytes = fixture.bytes
        try stream.parse(Array(bytes[..<(count ?? bytes.count)]))
        if count == nil { try stream.finish() }
        return stream
    }

    @Test func framesAndPacketsTranslateByFramesPerPacket() throws {
        let stream = try Self.stream(parsing: Fixtures.named("l3-mpeg2-22k-joint.mp3"))
        #expect(try stream.frame(forPacket: 10) == 5760)  // 576 frames per MPEG-2 Layer III packet
        let packet = try stream.packet(forFrame: 5765)
        #expect(packet.packet == 10 && packet.frameOffsetInPacket == 5)
        #expect(throws: AudioFileStreamError.invalidPacketOffset) { try stream.frame(forPacket: -1) }
        #expect(throws: AudioFileStreamError.invalidPacketOffset) { try stream.frame(forPacket: .max / 2) }
        #expect(throws: AudioFileStreamError.invalidPacketOffset) { try stream.byteOffset(ofPacket: .max / 2) }
        #expect(throws: AudioFileStreamError.invalidPacketOffset) { try stream.packet(forByteOffset: .max - 10) }
    }

    /// A stream told to remember no packet (as the daemon's are) parses the same, and estimates translations.
    @Test func aStreamThatIndexesNoPacketParsesTheSameAndEstimates() throws {
        let bytes = Fixtures.named("l3-vbr-v2.mp3").bytes
        let indexed = try parse(bytes)
        let unindexed = try parse(bytes, indexedPackets: 0)
        #expect(unindexed.events == indexed.events)
        #expect(unindexed.events.count > 50)
        #expect(try !indexed.stream.byteOffset(ofPacket: 7).isEstimated)
        #expect(try unindexed.stream.byteOffset(ofPacket: 7).isEstimated)
    }

    @Test func parsedPacketsTranslateExactly() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let packets = fixture.expectedPackets
        let stream = try Self.stream(parsing: fixture)
        let dataOffset = try #require(stream.dataOffset)
        for packet in [0, 7, packets.count - 1] {
            let translation = try stream.byteOffset(ofPacket: Int64(packet))
            #expect(translation.offset == packets[packet].offset - dataOffset)
            #expect(!translation.isEstimated)
            let back = try stream.packet(forByteOffset: packets[packet].offset - dataOffset + 3)
            #expect(back.packet == Int64(packet) && back.byteOffsetInPacket == 3 && !back.isEstimated)
        }
    }

    @Test func packetsBeyondTheParsedOnesAreEstimated() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        let packets = fixture.expectedPackets
        let stream = try Self.stream(parsing: fixture, count: Int(packets[20].offset))
        let dataOffset = try #require(stream.dataOffset)
        let last = packets.count - 1
        let estimate = try stream.byteOffset(ofPacket: Int64(last))
        #expect(estimate.isEstimated)
        // CBR with padding: the average packet size is within a byte of every packet's.
        #expect(abs(estimate.offset - (packets[last].offset - dataOffset)) <= Int64(last))
        let back = try stream.packet(forByteOffset: packets[last].offset - dataOffset + 1)
        #expect(back.isEstimated && abs(back.packet - Int64(last)) <= 1)
    }

    @Test func xingTableOfContentsGivesEstimatesBeforeEnoughPackets() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let packets = fixture.expectedPackets
        let stream = try Self.stream(parsing: fixture, count: Int(packets[2].offset))
        let dataOffset = try #require(stream.dataOffset)
        let estimate = try stream.byteOffset(ofPacket: 40)
        #expect(estimate.isEstimated)
        // The TOC has 1/256 resolution of the file: allow 2 % of it.
        #expect(abs(estimate.offset - (packets[40].offset - dataOffset)) < Int64(fixture.bytes.count / 50))
    }

    /// Feeding from where `seek(toPacket:)` says numbers the packets from the seeked one, and the translations
    /// stay exact, against ffprobe's packet list (l3-vbr-v2: packet sizes vary, so a wrong index shows).
    @Test func packetsAfterASeekAreNumberedFromTheSeekedPacket() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let packets = fixture.expectedPackets
        let bytes = fixture.bytes
        var numbered: [(index: Int64, offset: Int64)] = []
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for (position, description) in batch.descriptions!.enumerated() {
                numbered.append((batch.firstPacketIndex + Int64(position), batch.streamOffset + description.startOffset))
            }
        }
        try stream.parse(Array(bytes[..<Int(packets[30].offset)]))
        let dataOffset = try #require(stream.dataOffset)
        let seek = try stream.seek(toPacket: 5)
        #expect(!seek.isEstimated && dataOffset + seek.offset == packets[5].offset)

        numbered.removeAll()
        try stream.parse(Array(bytes[Int(dataOffset + seek.offset)...]), discontinuity: true,
                         offset: dataOffset + seek.offset)
        try stream.finish()
        // Packet 29, held until a header confirmed it, is delivered at the discontinuity; then the seeked ones.
        #expect(numbered.map(\.index) == [29] + Array(5..<Int64(packets.count)))
        #expect(numbered.map(\.offset) == [packets[29].offset] + packets[5...].map(\.offset))
        for packet in [5, 29, 35, packets.count - 1] {
            let translation = try stream.byteOffset(ofPacket: Int64(packet))
            #expect(translation.offset == packets[packet].offset - dataOffset && !translation.isEstimated)
            let back = try stream.packet(forByteOffset: translation.offset)
            #expect(back.packet == Int64(packet) && back.byteOffsetInPacket == 0 && !back.isEstimated)
        }
        #expect(stream.counted.packets == Int64(packets.count))
    }

    /// A seek into the middle of a packet numbers the packets from the next one, found again in the index.
    @Test func aSeekBetweenPacketBoundariesFindsTheNextIndexedPacket() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let packets = fixture.expectedPackets
        let bytes = fixture.bytes
        var firstIndex: Int64?
        var firstOffset: Int64?
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event, firstIndex == nil, batch.followsDiscontinuity else { return }
            firstIndex = batch.firstPacketIndex
            firstOffset = batch.streamOffset
        }
        try stream.parse(bytes)
        let resume = packets[12].offset + 100
        try stream.parse(Array(bytes[Int(resume)...]), discontinuity: true, offset: resume)
        #expect(firstIndex == 13 && firstOffset == packets[13].offset)
    }

    /// Frames per packet change at a splice (1152 at 44.1 kHz, then 576 at 22.05 kHz): packet↔frame
    /// translations count each packet's own frames, at the packet index ffprobe's list gives for the change.
    @Test func framesAreCountedPacketByPacketAcrossAFormatChange() throws {
        let fixture = Fixtures.named("splice-xing-44k-stereo-22k-mono.mp3")
        let change = try #require((fixture.facts?["formatChanges"] as? [[String: Any]])?.first)
        let splice = Int64(change["packetIndex"] as! Int)
        let stream = try Self.stream(parsing: fixture)
        let last = Int64(fixture.expectedPackets.count - 1)
        for packet in [0, splice - 1, splice, splice + 7, last] {
            let frame = packet <= splice ? packet * 1152 : splice * 1152 + (packet - splice) * 576
            #expect(try stream.frame(forPacket: packet) == frame, "packet \(packet)")
            let back = try stream.packet(forFrame: frame + 5)
            #expect(back.packet == packet && back.frameOffsetInPacket == 5, "packet \(packet)")
        }
        #expect(stream.counted.frames == splice * 1152 + (last + 1 - splice) * 576)
    }

    @Test func translationsNeedAFormat() throws {
        let stream = try AudioFileStream { _ in }
        #expect(throws: AudioFileStreamError.dataUnavailable) { try stream.frame(forPacket: 1) }
        #expect(throws: AudioFileStreamError.dataUnavailable) { try stream.byteOffset(ofPacket: 1) }
        #expect(throws: AudioFileStreamError.invalidPacketOffset) { try stream.packet(forByteOffset: -5) }
    }
}
