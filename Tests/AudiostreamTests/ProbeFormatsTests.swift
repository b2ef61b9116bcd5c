import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// What `audiostream probe` says of a stream whose format changes, and of one without a whole packet, against
/// what ffprobe and the fixture script recorded.
@Suite struct ProbeFormatsTests {
    /// Every DataFormat in order in `formats`; `dataFormat` is the last.
    @Test func aFormatChangeListsEveryFormat() throws {
        let fixture = try #require(Fixtures.flac.first { $0.name == "flac-rate-change.flac" })
        let facts = try #require(fixture.facts)
        let changes = try #require(facts["formatChanges"] as? [[String: Any]])
        let expected = [[facts["sampleRate"] as! Int, facts["channels"] as! Int]]
            + changes.map { [$0["sampleRate"] as! Int, $0["channels"] as! Int] }
        let probe = try Runner.run(["probe", fixture.file.path]).object
        let formats = try #require(probe["formats"] as? [[String: Any]])
        #expect(formats.map { [$0["sampleRate"] as? Int ?? 0, $0["channelsPerFrame"] as? Int ?? 0] } == expected)
        let last = try #require(probe["dataFormat"] as? [String: Any])
        #expect([last["sampleRate"] as? Int ?? 0, last["channelsPerFrame"] as? Int ?? 0] == expected.last)
    }

    /// A CAF cut inside its first packet: the headers' format is printed, and the command fails saying that no
    /// packet was found.
    @Test func noWholePacketPrintsTheHeadersAndSaysSo() throws {
        let fixture = try #require(Fixtures.caf.first { $0.name == "caf-alac-44k-stereo.caf" })
        let facts = try #require(fixture.facts)
        let firstPacket = facts["firstPacketOffset"] as! Int
        let result = try Runner.run(["probe", "-"], standardInput: Data(fixture.bytes.prefix(firstPacket + 16)))
        #expect(result.status != 0)
        #expect(result.standardError.contains("no whole audio packet found"))
        let probe = result.object
        #expect(probe["fileFormat"] as? String == "caff")
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == 0)
    }
}
