import FixtureSupport
import Foundation
import Testing

/// HE-AAC plays at SBR's rate, twice its DataFormat's: once the daemon decodes (for a subscriber of PCM), `status`
/// and the `decodedFormat` property say the rate and channels ffprobe gives (recorded by the fixture script).
@Suite struct DecodedFormatTests {
    static func decodedFormats(in lines: [String]) -> [[String: Any]] {
        lines.compactMap(DaemonStdinTests.object)
            .filter { $0["event"] as? String == "property" && $0["id"] as? String == "decodedFormat" }
            .compactMap { $0["value"] as? [String: Any] }
    }

    @Test func statusAndPropertiesSayTheDecodedFormat() throws {
        let fixture = try #require(Fixtures.heaac.first { $0.name == "heaac-sbr-stereo.m4a" })
        let facts = try #require(fixture.facts)
        let expectedRate = try #require(facts["sampleRate"] as? Int)
        let expectedChannels = try #require(facts["channels"] as? Int)
        #expect(expectedRate == 2 * (facts["coreSampleRate"] as? Int ?? 0))

        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        // The subscriber of PCM makes the daemon decode.
        let early = try daemon.subscribe("radio", kinds: "pcm,properties")
        daemon.feed(Data(fixture.bytes))
        var decoded: [String: Any]?
        try daemon.waitUntil("the stream to be decoded") {
            decoded = try daemon.streamStatus("radio")?["decodedFormat"] as? [String: Any]
            return decoded != nil
        }
        #expect(decoded?["sampleRate"] as? Int == expectedRate && decoded?["channels"] as? Int == expectedChannels)
        // A subscriber that comes later gets it with the other properties.
        let late = try daemon.subscribe("radio", kinds: "packets,properties")
        try daemon.closeInput()

        for subscriber in [early, late] {
            let result = subscriber.finish()
            #expect(result.status == 0, "\(result.errors)")
            let formats = Self.decodedFormats(in: result.lines)
            #expect(formats.count == 1)
            #expect(formats.first?["sampleRate"] as? Int == expectedRate)
            #expect(formats.first?["channels"] as? Int == expectedChannels)
        }
    }
}
