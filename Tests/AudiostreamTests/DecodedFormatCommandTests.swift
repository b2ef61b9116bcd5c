import FixtureSupport
import Foundation
import Testing

/// `probe` decodes the first packets and says what they decode to beside the DataFormat: for HE-AAC, whose
/// DataFormat is the core layer, the rate and channels ffprobe gives once it has decoded (recorded by the fixture
/// script).
@Suite struct DecodedFormatCommandTests {
    typealias Runner = AudiostreamRunner

    @Test(arguments: Fixtures.heaac + [Fixtures.heaacCAF])
    func probeSaysTheDecodedFormat(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let result = try Runner.run(["probe", fixture.file.path])
        #expect(result.status == 0)
        let decoded = try #require(result.object["decodedFormat"] as? [String: Any])
        #expect(decoded["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(decoded["channels"] as? Int == facts["channels"] as? Int)
    }

    @Test func everyHEAACFixtureIsProbed() {
        #expect(Fixtures.heaac.count + 1 == 3)
    }
}
