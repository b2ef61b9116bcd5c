import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets`, `probe` and `tags` on native FLAC agree with ffprobe, metaflac and mutagen, as the
/// fixture script recorded them.
@Suite struct FLACCommandTests {
    /// Fixtures starting with `fLaC` (metaflac reads those) in one format throughout.
    static let withHeader = Fixtures.flac.filter { $0.facts?["totalSamples"] != nil && $0.facts?["formatChanges"] == nil }

    @Test func everyFixtureIsThere() {
        #expect(Fixtures.flac.count == 12)
        #expect(Self.withHeader.count == 9)
    }

    @Test(arguments: Fixtures.flac + Fixtures.flacConformance)
    func packetsAreFFprobes(fixture: Fixtures.Fixture) throws {
        let result = try Runner.run(["packets", fixture.file.path, "--random-chunks", "3"])
        #expect(result.status == 0)
        let expected = try String(contentsOf: fixture.expectedStem.appendingPathExtension("packets.csv"), encoding: .utf8)
        #expect(result.lines == expected.split(separator: "\n"))
    }

    @Test(arguments: withHeader)
    func probeIsFFprobesAndMetaflacs(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", fixture.file.path]).object
        #expect(probe["fileFormat"] as? String == "flac")
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect(format["formatID"] as? String == "flac")
        #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == facts["packetCount"] as? Int)
        #expect((probe["packetTableInfo"] as? [String: Any])?["validFrames"] as? Int == facts["totalSamples"] as? Int)
    }

    @Test func tagsAreMutagens() throws {
        let fixture = try #require(Fixtures.flac.first { $0.name == "flac-tags-picture.flac" })
        let recorded = try #require(fixture.recordedTags)
        let tags = try Runner.run(["tags", fixture.file.path]).object
        let comments = recorded["comments"] as! [[String]]
        #expect(tags["title"] as? String == comments.first { $0[0] == "TITLE" }?[1])
        #expect(tags["trackNumber"] as? Int == 3 && tags["trackCount"] as? Int == 12)
        let raw = try #require((tags["raw"] as? [[String: Any]])?.first)
        #expect(raw["source"] as? String == "vorbisComment" && raw["offset"] as? Int == recorded["tagOffset"] as? Int)
        let frames = try #require(raw["frames"] as? [[String: Any]])
        #expect(frames.count == comments.count + (recorded["pictures"] as! [Any]).count)
    }
}
