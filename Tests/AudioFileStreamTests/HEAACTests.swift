import FixtureSupport
import Testing
@testable import AudioFileStream

/// HE-AAC and HE-AACv2 in MP4, signalled explicitly (Tests/Fixtures/make_heaac_fixtures.py: one backward-compatible
/// SBR config, one hierarchical PS config), against ffprobe: the DataFormat is the core AAC layer, as Core Audio
/// states it (QA1639), and the FormatList puts the layers a decoder outputs first, at the rate and channels
/// ffprobe reports. Their packets are checked against ffprobe's with MP4Tests'.
@Suite struct HEAACTests {
    static let fixtures = Fixtures.heaac

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.map(\.name) == ["heaac-sbr-stereo.m4a", "heaacv2-ps-mono.m4a"])
    }

    /// DataFormat: AAC LC at the core's rate and channels, 1024 frames a packet. FormatList: HE-AACv2 when PS is
    /// signalled (ffprobe's channels exceed the core's), then HE-AAC, at ffprobe's rate, then the DataFormat.
    @Test(arguments: fixtures)
    func formatListPutsTheDecodedLayersFirst(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let (rate, channels) = (facts["sampleRate"] as! Int, facts["channels"] as! Int)
        let coreChannels = facts["coreChannels"] as! Int
        let parse = try MP4Tests.parse(fixture.bytes)
        let format = try #require(parse.formats.first)
        #expect(format.formatID == AudioFormatID.mpeg4AAC && format.formatFlags == 2)
        #expect(format.sampleRate == Double(facts["coreSampleRate"] as! Int) && format.framesPerPacket == 1024)
        #expect(format.channelsPerFrame == UInt32(coreChannels))
        guard case .formatList(let list)? = parse.properties[.formatList] else {
            Issue.record("no FormatList")
            return
        }
        let expectedIDs = (channels > coreChannels ? [AudioFormatID.mpeg4AACHighEfficiencyV2] : [])
            + [AudioFormatID.mpeg4AACHighEfficiency, AudioFormatID.mpeg4AAC]
        #expect(list.map(\.format.formatID) == expectedIDs)
        #expect(list.first?.format.sampleRate == Double(rate) && list.first?.format.channelsPerFrame == UInt32(channels))
        #expect(list.dropLast().allSatisfy { $0.format.sampleRate == Double(rate) && $0.format.framesPerPacket == 2048 })
        #expect(list.last?.format == format)
        #expect(parse.cookie == MP4Tests.bytes(hex: facts["extradata"] as! String))
    }

    /// The edit list counts the core's frames, as the DataFormat does: its priming is ffprobe's skip samples
    /// (in the core's time base), and the table adds up to the packets' frames.
    @Test(arguments: fixtures)
    func editListCountsCoreFrames(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let parse = try MP4Tests.parse(fixture.bytes)
        let table = try #require(parse.table)
        #expect(Int(table.primingFrames) == facts["skipSamples"] as! Int)
        #expect(table.validFrames + Int64(table.primingFrames) + Int64(table.remainderFrames) == parse.frames)
    }

    /// HE-AAC in CAF as afconvert writes it ('aach' at SBR's rate): the packets are where the fixture script put
    /// them, the cookie is the AudioSpecificConfig inside the kuki's ES_Descriptor (what a decoder needs), and the
    /// packet table is the pakt's.
    @Test func cafOfHEAACGivesTheConfigAsItsCookie() throws {
        let fixture = Fixtures.heaacCAF
        let facts = try #require(fixture.facts)
        let (packets, _) = try ADTSTests.parsePackets(fixture.bytes, chunking: .random(seed: 83))
        #expect(packets == fixture.expectedPacketsWithFrames)
        let parse = try MP4Tests.parse(fixture.bytes, chunking: .fixed(5))
        let format = try #require(parse.formats.first)
        #expect(format.formatID == AudioFormatID.mpeg4AACHighEfficiency && format.framesPerPacket == 2048)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(parse.cookie == MP4Tests.bytes(hex: facts["audioSpecificConfig"] as! String))
        let table = try #require(facts["packetTableInfo"] as? [String: Int])
        #expect(parse.table == PacketTableInfo(validFrames: Int64(table["validFrames"]!),
                                               primingFrames: Int32(table["primingFrames"]!),
                                               remainderFrames: Int32(table["remainderFrames"]!)))
    }
}
