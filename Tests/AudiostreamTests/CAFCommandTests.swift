import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets`, `probe` and `tags` on the CAF fixtures, from a file and from standard input, agree with
/// ffprobe as the fixture script recorded it.
@Suite struct CAFCommandTests {
    /// Cut by a packet table before the audio: one row per packet, as ffprobe lists them.
    static let described = Fixtures.caf.filter {
        $0.facts?["packetTableInfo"] != nil && $0.facts?["paktAfterData"] as? Bool != true
    }

    @Test func everyFixtureIsThere() {
        #expect(Fixtures.caf.count == 13)
        #expect(Self.described.count == 3)
    }

    @Test(arguments: described)
    func packetsAreFFprobesFromAFileAndFromStandardInput(fixture: Fixtures.Fixture) throws {
        let csv = fixture.expectedStem.appendingPathExtension("packets.csv")
        let expected = try String(contentsOf: csv, encoding: .utf8)
        let fromFile = try Runner.run(["packets", fixture.file.path, "--random-chunks", "3"])
        #expect(fromFile.status == 0 && fromFile.lines == expected.split(separator: "\n"))
        let fromStandardInput = try Runner.run(["packets", "-"], standardInput: Data(fixture.bytes))
        #expect(fromStandardInput.status == 0 && fromStandardInput.lines == expected.split(separator: "\n"))
    }

    @Test(arguments: Fixtures.caf.filter { $0.facts?["paktAfterData"] as? Bool != true })
    func probeIsFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", "-"], standardInput: Data(fixture.bytes)).object
        #expect(probe["fileFormat"] as? String == "caff")
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect(format["formatID"] as? String == facts["codecTag"] as? String)
        #expect(probe["dataOffset"] as? Int == facts["firstPacketOffset"] as? Int)
        let counted = try #require(probe["counted"] as? [String: Any])
        #expect(counted["bytes"] as? Int == facts["byteCount"] as? Int)
        #expect(counted["frames"] as? Int == facts["frameCount"] as? Int)
    }

    /// ffmpeg's own ALAC CAF keeps its pakt after the audio: from a file it is read first, as an MP4's moov is,
    /// and the packets are ffprobe's; from a pipe it cannot be, and the error is clear.
    @Test func aPacketTableAfterTheAudioIsReadFirstFromAFileAndAClearErrorOnAPipe() throws {
        let fixture = try #require(Fixtures.caf.first { $0.name == "caf-alac-pakt-at-end.caf" })
        let expected = try String(contentsOf: fixture.expectedStem.appendingPathExtension("packets.csv"), encoding: .utf8)
        let fromFile = try Runner.run(["packets", fixture.file.path, "--random-chunks", "3"])
        #expect(fromFile.status == 0 && fromFile.lines == expected.split(separator: "\n"))
        let fromPipe = try Runner.run(["packets", "-"], standardInput: Data(fixture.bytes))
        #expect(fromPipe.status != 0)
        #expect(fromPipe.standardError.contains("not optimized"))
    }

    @Test func tagsAreFFprobes() throws {
        let fixture = try #require(Fixtures.caf.first { $0.name == "caf-tags.caf" })
        let recorded = try #require(fixture.facts?["tags"] as? [String: String])
        let tags = try Runner.run(["tags", fixture.file.path]).object
        #expect(tags["title"] as? String == recorded["title"] && tags["artist"] as? String == recorded["artist"])
        #expect(tags["trackNumber"] as? Int == 3 && tags["trackCount"] as? Int == 12 && tags["bpm"] as? Int == 120)
        let raw = try #require((tags["raw"] as? [[String: Any]])?.first)
        #expect(raw["source"] as? String == "cafInfo")
        let frames = try #require(raw["frames"] as? [[String: Any]])
        #expect(Set(frames.compactMap { $0["id"] as? String }) == Set(recorded.keys))
    }
}
