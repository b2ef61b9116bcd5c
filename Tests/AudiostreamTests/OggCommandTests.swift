import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets`, `probe` and `tags` on the Ogg fixtures agree with ffprobe, ffmpeg and mutagen, as the
/// fixture script recorded them.
@Suite struct OggCommandTests {
    static let encoded = Fixtures.ogg.filter { $0.facts?["decodedFrames"] != nil }

    @Test func everyFixtureIsThere() {
        #expect(Self.encoded.count == 11)
    }

    /// Each packet's size and frames as ffprobe lists them (frames it trims are -1), starting on its page.
    @Test(arguments: encoded)
    func packetsAreFFprobes(fixture: Fixtures.Fixture) throws {
        let result = try Runner.run(["packets", fixture.file.path, "--random-chunks", "5"])
        #expect(result.status == 0)
        let rows = result.lines.dropFirst().map { $0.split(separator: ",").map { Int64($0)! } }
        let expected = fixture.expectedPacketsWithFrames
        #expect(rows.count == expected.count)
        for (row, want) in zip(rows, expected) {
            #expect(row[0] >= want[0] && row[1] == want[1] && (want[2] < 0 || row[2] == want[2]), "\(row) \(want)")
        }
    }

    @Test(arguments: encoded)
    func probeIsFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", fixture.file.path]).object
        #expect(probe["fileFormat"] as? String == "Ogg ")
        let table = try #require(probe["packetTableInfo"] as? [String: Any])
        #expect(table["validFrames"] as? Int == facts["validFrames"] as? Int)
        #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == facts["packets"] as? Int)
    }

    @Test(arguments: ["ogg-vorbis-tags.ogg", "ogg-opus-tags.opus"])
    func tagsAreMutagens(name: String) throws {
        let fixture = Fixtures.ogg.first { $0.name == name }!
        let recorded = try #require(fixture.facts?["tags"] as? [String: Any])
        let comments = recorded["comments"] as! [[String]]
        let tags = try Runner.run(["tags", fixture.file.path]).object
        let title = comments.first { $0[0].uppercased() == "TITLE" }?[1]
        #expect(tags["title"] as? String == title)
        let raw = try #require((tags["raw"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(raw.compactMap { $0["id"] as? String }.filter { $0 != "METADATA_BLOCK_PICTURE" } == comments.map { $0[0] })
    }
}
