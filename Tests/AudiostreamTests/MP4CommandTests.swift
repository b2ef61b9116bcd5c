import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets`, `probe` and `tags` on the MP4 fixtures agree with ffprobe and mutagen, as the fixture
/// script recorded them; a file whose moov follows its mdat reads from a file, and fails on standard input.
@Suite struct MP4CommandTests {
    @Test func everyFixtureIsThere() {
        #expect(Fixtures.mp4.count == 14)
    }

    /// Offsets and sizes are ffprobe's, frames its durations (AAC's last packet holds all 1024 of its frames,
    /// which the sample table shortens to the padding trimmed).
    @Test(arguments: Fixtures.mp4)
    func packetsAreFFprobes(fixture: Fixtures.Fixture) throws {
        let result = try Runner.run(["packets", fixture.file.path, "--random-chunks", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.lines.dropFirst().map { $0.split(separator: ",").map { Int64($0)! } }
        let expected = fixture.expectedPacketsWithFrames
        #expect(rows.map { $0.prefix(2) } == expected.map { $0.prefix(2) })
        for (index, (row, want)) in zip(rows, expected).enumerated() where want[2] >= 0 {
            #expect(row[2] == want[2] || (index == expected.count - 1 && row[2] > want[2]), "\(row) \(want)")
        }
    }

    @Test(arguments: Fixtures.mp4)
    func probeIsFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", fixture.file.path]).object
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Double == Double(facts["sampleRate"] as! Int))
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == facts["packets"] as? Int)
        if facts["skipSamples"] as? Int ?? 0 > 0, fixture.name != "aac-itunsmpb.m4a" {
            let table = try #require(probe["packetTableInfo"] as? [String: Any])
            #expect(table["validFrames"] as? Int == facts["durationTs"] as? Int)
            #expect(table["primingFrames"] as? Int == facts["skipSamples"] as? Int)
        }
    }

    @Test func tagsAreMutagens() throws {
        let fixture = Fixtures.mp4.first { $0.name == "aac-tagged.m4a" }!
        let recorded = try #require(fixture.facts?["tags"] as? [String: Any])
        let tags = try Runner.run(["tags", fixture.file.path]).object
        #expect(tags["title"] as? String == (recorded["©nam"] as? [String])?.first)
        #expect(tags["genre"] as? String == (recorded["©gen"] as? [String])?.first)
        #expect(tags["trackNumber"] as? Int == 3 && tags["trackCount"] as? Int == 11)
        let raw = try #require((tags["raw"] as? [[String: Any]])?.first)
        #expect(raw["source"] as? String == "itunes")
        let ids = Set(((raw["frames"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(ids == Set(recorded.keys.map { $0 == "©gen" ? "gnre" : $0 }))
    }

    /// Given as a file, the moov is read first and the packets are ffprobe's; given on standard input, it
    /// cannot be, and the error says how to fix the file.
    @Test func moovAfterMdatReadsFromAFileAndFailsOnAPipe() throws {
        let fixture = Fixtures.mp4.first { $0.name == "aac-lc-moov-at-end.m4a" }!
        let file = try Runner.run(["packets", fixture.file.path])
        #expect(file.status == 0)
        #expect(file.lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
            == fixture.expectedPacketsWithFrames.map { "\($0[0]),\($0[1])" })
        let tags = try Runner.run(["probe", fixture.file.path]).object
        #expect(tags["fileFormat"] as? String == "m4af")
        let pipe = try Runner.run(["packets", "-"], standardInput: Data(fixture.bytes))
        #expect(pipe.status != 0)
        #expect(pipe.standardError.contains("optm"))
        #expect(pipe.standardError.contains("ffmpeg -i in.m4a -c copy -movflags +faststart out.m4a"))
    }
}
