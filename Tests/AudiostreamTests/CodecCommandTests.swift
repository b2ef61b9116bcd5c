import FixtureSupport
import Foundation
import Testing

private typealias Runner = AudiostreamRunner

/// `audiostream packets` and `probe` on every AAC, AC-3 and E-AC-3 fixture agree with ffprobe, as the fixture
/// script recorded it.
@Suite struct CodecCommandTests {
    static let oneFormat = Fixtures.codecs.filter { ($0.facts?["formatChanges"] as? [Any])?.isEmpty ?? true }

    @Test func everyFixtureIsThere() {
        #expect(Fixtures.codecs.count == 21)
        #expect(Self.oneFormat.count == 19)
    }

    @Test(arguments: Fixtures.codecs)
    func packetsAreFFprobes(fixture: Fixtures.Fixture) throws {
        let result = try Runner.run(["packets", fixture.file.path, "--random-chunks", "3"])
        #expect(result.status == 0)
        let expected = try String(contentsOf: fixture.expectedStem.appendingPathExtension("packets.csv"), encoding: .utf8)
        let rows = expected.split(separator: "\n")
        if fixture.facts?["rawDataBlocksPerFrame"] as? [Int] ?? [1] == [1] {
            #expect(result.lines == rows)
        } else {
            // Frames of several ADTS blocks are left out: only their single-block neighbours are packets.
            #expect(Set(result.lines).isSubset(of: Set(rows)) && result.lines.count > 1)
        }
    }

    @Test(arguments: oneFormat)
    func probeIsFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let probe = try Runner.run(["probe", fixture.file.path]).object
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect(format["formatID"] as? String == facts["formatID"] as? String)
        if facts["rawDataBlocksPerFrame"] as? [Int] ?? [1] == [1] {
            #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == facts["packetCount"] as? Int)
            #expect((probe["counted"] as? [String: Any])?["frames"] as? Int == facts["totalFrames"] as? Int)
        }
    }
}
