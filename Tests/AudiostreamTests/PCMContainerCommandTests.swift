import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets`, `probe` and `tags` on WAVE, RF64, AIFF and AIFC, from a file and from stdin, agree with
/// ffprobe and mutagen as the fixture script recorded them.
@Suite struct PCMContainerCommandTests {
    @Test func everyFixtureIsThere() {
        #expect(Fixtures.pcm.count == 26)
    }

    /// The batches cover the sample data exactly, in whole frames: ffprobe's offset, bytes and frames.
    @Test(arguments: Fixtures.pcm)
    func packetsCoverTheSampleData(fixture: Fixtures.Fixture) throws {
        let result = try Runner.run(["packets", fixture.file.path, "--random-chunks", "3"])
        #expect(result.status == 0)
        try Self.expectCoverage(result.lines, of: fixture)
    }

    static func expectCoverage(_ lines: [Substring], of fixture: Fixtures.Fixture) throws {
        let expected = try #require(fixture.expectedPacketsWithFrames.first)
        let rows = lines.dropFirst().map { $0.split(separator: ",").map { Int64($0)! } }
        var next = expected[0]
        for row in rows {
            #expect(row[0] == next)
            #expect(row[1] * expected[2] == row[2] * expected[1], "whole frames")
            next += row[1]
        }
        #expect(next == expected[0] + expected[1])
        #expect(rows.reduce(0) { $0 + $1[2] } == expected[2])
    }

    @Test(arguments: Fixtures.pcm)
    func probeIsFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", fixture.file.path]).object
        #expect(probe["fileFormat"] as? String == facts["fileType"] as? String)
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect(format["bitsPerChannel"] as? Int == facts["bitsPerSample"] as? Int)
        #expect(probe["dataOffset"] as? Int == facts["dataOffset"] as? Int)
        let counted = try #require(probe["counted"] as? [String: Any])
        #expect(counted["frames"] as? Int == facts["frames"] as? Int)
        #expect(counted["bytes"] as? Int == facts["dataBytes"] as? Int)
        if !fixture.name.contains("streamed") {
            #expect(probe["audioDataPacketCount"] as? Int == facts["frames"] as? Int)
        }
    }

    @Test func tagsAreFFprobesAndMutagens() throws {
        let info = try Runner.run(["tags", try Self.path("wav-info.wav")]).object
        #expect(info["title"] as? String == "Info Title" && info["artist"] as? String == "Info Artist")
        #expect((info["raw"] as? [[String: Any]])?.first?["source"] as? String == "riffInfo")
        let text = try Runner.run(["tags", try Self.path("aiff-text.aiff")]).object
        #expect(text["title"] as? String == "Text Name" && text["comments"] as? String == "Text Annotation")
        #expect((text["raw"] as? [[String: Any]])?.count == 4)
        for name in ["wav-id3.wav", "aiff-id3.aiff"] {
            let fixture = try #require(Fixtures.pcm.first { $0.name == name })
            let tags = try Runner.run(["tags", fixture.file.path]).object
            #expect(tags["album"] as? String == "Chunk Album" && tags["trackCount"] as? Int == 9)
            #expect((tags["raw"] as? [[String: Any]])?.first?["source"] as? String
                    == fixture.recordedTags?["version"] as? String)
        }
    }

    /// What a pipe from `ffmpeg -f wav -` or `-f aiff -` gives: the same from stdin as from the file.
    @Test(arguments: ["wav-streamed.wav", "aiff-streamed.aiff", "rf64-s16-stereo.wav"])
    func standardInputWorks(name: String) throws {
        let fixture = try #require(Fixtures.pcm.first { $0.name == name })
        let packets = try Runner.run(["packets", "-"], standardInput: Data(fixture.bytes))
        #expect(packets.status == 0)
        try Self.expectCoverage(packets.lines, of: fixture)
        let probe = try Runner.run(["probe", "-"], standardInput: Data(fixture.bytes)).object
        #expect(probe["dataOffset"] as? Int == fixture.facts?["dataOffset"] as? Int)
        let scan = try Runner.run(["scan", "-"], standardInput: Data(fixture.bytes)).object
        #expect(scan["frames"] as? Int == fixture.facts?["frames"] as? Int)
        #expect(scan["bytes"] as? Int == fixture.facts?["dataBytes"] as? Int)
    }

    /// A format the reader refuses fails the command with Apple's code and the reason.
    @Test func anUnsupportedFormatFailsWithItsReason() throws {
        var file = try #require(Fixtures.pcm.first { $0.name == "wav-s16-stereo.wav" }).bytes
        file[20] = 0x55  // the fmt chunk's format tag: MPEG Layer III
        let result = try Runner.run(["probe", "-"], standardInput: Data(file))
        #expect(result.status != 0)
        #expect(result.standardError.contains("fmt?") && result.standardError.contains("0x55"))
    }

    private static func path(_ name: String) throws -> String {
        try #require(Fixtures.pcm.first { $0.name == name }).file.path
    }
}
