import Testing
import FixtureSupport
@testable import AudioFileStream

/// Streams whose format changes mid-way (spliced radio, concatenated files): DataFormat is announced again
/// before the first packet in the new format, and a Xing/Info frame mid-stream starts a new gapless segment.
@Suite struct SpliceTests {
    static let spliced = Fixtures.generated.filter { !(($0.facts?["formatChanges"] as? [Any])?.isEmpty ?? true) }

    @Test func splicedFixturesExist() {
        #expect(Self.spliced.count == 2)
    }

    @Test(arguments: spliced)
    func dataFormatIsAnnouncedBeforeEachNewFormat(fixture: Fixtures.Fixture) throws {
        let changes = fixture.facts!["formatChanges"] as! [[String: Any]]
        let (events, _) = try parse(fixture.bytes)
        var announced: [AudioStreamBasicDescription] = []
        var formatOfPacket: [Int64: AudioStreamBasicDescription] = [:]
        for event in events {
            switch event {
            case .property(.dataFormat, .format(let format)): announced.append(format)
            case .packet(let offset, _, _): formatOfPacket[offset] = announced.last
            default: break
            }
        }
        #expect(announced.count == changes.count + 1)
        for change in changes {
            let format = try #require(formatOfPacket[Int64(change["offset"] as! Int)], "a packet at the change")
            #expect(format.sampleRate == Double(change["sampleRate"] as! Int))
            #expect(format.channelsPerFrame == UInt32(change["channels"] as! Int))
        }
    }

    @Test func midStreamInfoFrameStartsANewGaplessSegment() throws {
        let fixture = Fixtures.named("splice-xing-44k-stereo-22k-mono.mp3")
        let tagFrames = fixture.facts!["tagFrames"] as! [Int]
        let (events, _) = try parse(fixture.bytes)
        let tables = events.filter { if case .property(.packetTableInfo, _) = $0 { true } else { false } }
        #expect(tables.count == tagFrames.count, "one packet table per segment")
        #expect(!events.packets.contains { tagFrames.contains(Int($0.offset)) }, "Info frames are not packets")
    }

    /// A lone frame in another channel mode (as ISO's streams switch mono and stereo) is a packet, announced
    /// as a new format and back: one mono Layer II frame of sweep-l2-mono between frames of l2-192k-stereo.
    @Test func aLoneFrameInAnotherChannelModeIsAPacket() throws {
        let stereo = Fixtures.named("l2-192k-stereo.mp2")
        let mono = Fixtures.named("sweep-l2-mono.mp2")
        let (stereoPackets, monoFrame) = (stereo.expectedPackets, mono.expectedPackets[3])
        let cut = Int(stereoPackets[10].offset)
        let inserted = Array(mono.bytes[Int(monoFrame.offset)..<Int(monoFrame.offset) + monoFrame.size])
        let bytes = Array(stereo.bytes[..<cut]) + inserted + Array(stereo.bytes[cut...])
        let expected = stereoPackets[..<10] + [PacketRecord(offset: Int64(cut), size: monoFrame.size)]
            + stereoPackets[10...].map { PacketRecord(offset: $0.offset + Int64(monoFrame.size), size: $0.size) }
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 9)] {
            let (events, _) = try parse(bytes, chunking: chunking)
            #expect(events.packets == Array(expected), "\(chunking)")
            let channels = events.compactMap { event -> UInt32? in
                if case .property(.dataFormat, .format(let format)) = event { format.channelsPerFrame } else { nil }
            }
            #expect(channels == [2, 1, 2])
        }
    }
}
