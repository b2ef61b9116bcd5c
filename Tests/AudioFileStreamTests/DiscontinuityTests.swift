import Testing
import FixtureSupport
@testable import AudioFileStream

/// The discontinuity contract: complete packets before a cut are kept, partial ones dropped, parsing resyncs
/// on a confirmed frame after it, offsets stay absolute, and nothing is lost before the first packet.
@Suite struct DiscontinuityTests {
    static let clean = Fixtures.generated.filter { $0.name.hasPrefix("l") || $0.name.hasPrefix("sweep") }

    @Test func everyCleanFixtureIsThere() {
        #expect(Self.clean.count == 24)
        #expect(Self.flac.count == 3)
    }

    /// The packets a correct parser gives when bytes in `cuts` are never fed: every packet wholly before a cut
    /// or wholly after it.
    static func expectedPackets(_ packets: [PacketRecord], cuts: [Range<Int>]) -> [PacketRecord] {
        packets.filter { packet in
            let range = Int(packet.offset)..<Int(packet.offset) + packet.size
            return !cuts.contains { $0.overlaps(range) }
        }
    }

    /// FLAC, whose frames end only where a following header says, with a fixed and a small block size and a
    /// format change.
    static let flac = Fixtures.flac.filter {
        ["flac-44k-stereo.flac", "flac-small-blocks.flac", "flac-rate-change.flac"].contains($0.name)
    }

    @Test(arguments: clean + flac)
    func seededCutsGiveExactlyTheUncutPackets(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        var random = TestRandom(seed: UInt64(bytes.count))
        for _ in 0..<3 {
            let start = Int(random.next() % UInt64(bytes.count / 2)) + 1
            let cut = start..<min(start + Int(random.next() % 3000) + 1, bytes.count - 1)
            let (events, _) = try parse(bytes, chunking: .random(seed: random.next()), skips: [cut])
            #expect(events.packets == Self.expectedPackets(fixture.expectedPackets, cuts: [cut]), "cut \(cut)")
            #expect(events.contains(.discontinuity(Discontinuity(
                offset: Int64(cut.upperBound), skippedBytes: Int64(cut.count), reason: .input))))
        }
    }

    @Test func cutAtFrameBoundariesLosesNothingElse() throws {
        let fixture = Fixtures.named("l3-cbr128-joint.mp3")
        let packets = fixture.expectedPackets
        let cut = Int(packets[10].offset)..<Int(packets[15].offset)
        let (events, _) = try parse(fixture.bytes, skips: [cut])
        #expect(events.packets == Array(packets[..<10] + packets[15...]))
        #expect(!events.contains { if case .discontinuity(let gap) = $0 { gap.reason == .resync } else { false } })
        let firstAfterCut = events.first { if case .packet(packets[15].offset, _, _) = $0 { true } else { false } }
        #expect(firstAfterCut == .packet(offset: packets[15].offset, size: packets[15].size, followsDiscontinuity: true))
    }

    @Test func partialPacketBeforeACutIsDroppedAndReported() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        let packets = fixture.expectedPackets
        let cut = Int(packets[5].offset) + 100..<Int(packets[8].offset) + 50
        let (events, _) = try parse(fixture.bytes, skips: [cut])
        #expect(events.packets == Array(packets[..<5] + packets[9...]))
        // The tail of packet 8 after the cut is skipped until packet 9 confirms the resync.
        #expect(events.contains(.discontinuity(Discontinuity(
            offset: packets[9].offset, skippedBytes: packets[9].offset - Int64(cut.upperBound), reason: .resync))))
    }

    @Test func discontinuityBeforeTheFirstPacketLosesNothing() throws {
        let bytes = Fixtures.named("l3-vbr-v2.mp3").bytes
        let (whole, _) = try parse(bytes)
        var events: [AudioFileStreamEvent] = []
        var packets: [PacketRecord] = []
        let stream = try AudioFileStream { event in
            events.append(event)
            if case .packets(let batch) = event {
                packets += batch.descriptions!.map {
                    PacketRecord(offset: batch.streamOffset + $0.startOffset, size: Int($0.dataByteSize))
                }
            }
        }
        // Players flag every chunk as a discontinuity until the first packet arrives.
        var position = 0
        while position < bytes.count {
            let end = min(position + 100, bytes.count)
            try stream.parse(Array(bytes[position..<end]), discontinuity: packets.isEmpty)
            position = end
        }
        try stream.finish()
        #expect(packets == whole.packets)
    }

    @Test func seekResumesWithAbsoluteOffsets() throws {
        let fixture = Fixtures.named("l3-cbr128-joint.mp3")
        let bytes = fixture.bytes
        let packets = fixture.expectedPackets
        var seen: [PacketRecord] = []
        var follows: [Bool] = []
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            follows.append(batch.followsDiscontinuity)
            seen += batch.descriptions!.map {
                PacketRecord(offset: batch.streamOffset + $0.startOffset, size: Int($0.dataByteSize))
            }
        }
        try stream.parse(Array(bytes[..<Int(packets[30].offset)]))
        let (offset, isEstimated) = try stream.seek(toPacket: 10)
        #expect(!isEstimated)
        let resume = Int(stream.dataOffset! + offset)
        #expect(resume == Int(packets[10].offset))
        seen.removeAll()
        follows.removeAll()
        try stream.parse(Array(bytes[resume...]), discontinuity: true, offset: Int64(resume))
        try stream.finish()
        // Packet 29 was complete but waiting for its successor when the seek came: it is delivered first.
        #expect(seen == [packets[29]] + Array(packets[10...]))
        #expect(follows.prefix(2) == [false, true])
    }
}

extension DiscontinuityTests {
    @Test func skippedJunkIsReportedTheSameHoweverTheCutFallsInIt() throws {
        // 500 bytes of junk after packet 5, and a cut inside the junk.
        let fixture = Fixtures.named("l3-noxing.mp3")
        var bytes = fixture.bytes
        let junkStart = Int(fixture.expectedPackets[5].offset)
        bytes.insert(contentsOf: [UInt8](repeating: 0, count: 500), at: junkStart)
        let cut = junkStart + 311..<junkStart + 361
        let (whole, _) = try parse(bytes, skips: [cut])
        for chunking in [Chunking.fixed(1), .fixed(7), .random(seed: 3)] {
            #expect(try parse(bytes, chunking: chunking, skips: [cut]).events == whole, "\(chunking)")
        }
        let skips = whole.compactMap { if case .discontinuity(let gap) = $0 { gap } else { nil } }
        // Packet 4 is followed by junk, but packet 3's confirmation vouched for its start: it is a packet.
        #expect(skips == [
            Discontinuity(offset: Int64(cut.lowerBound), skippedBytes: 311, reason: .resync),
            Discontinuity(offset: Int64(cut.upperBound), skippedBytes: 50, reason: .input),
            Discontinuity(offset: Int64(junkStart + 500), skippedBytes: 139, reason: .resync),
        ])
    }
}
