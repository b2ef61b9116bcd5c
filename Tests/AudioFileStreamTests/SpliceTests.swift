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
}
