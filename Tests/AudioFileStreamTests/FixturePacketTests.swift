import Testing
import FixtureSupport
@testable import AudioFileStream

/// Every generated fixture's packets equal the list recorded from ffprobe (or composed from ffprobe's lists of
/// the clean parts, for damaged streams), however the bytes are chunked.
@Suite struct FixturePacketTests {
    /// A missing file must fail here rather than quietly shrink the suites below.
    @Test func everyFixtureIsThere() {
        #expect(Fixtures.generated.count == 46)
        #expect(Fixtures.conformanceStreams.count == 29)
    }

    @Test(arguments: Fixtures.generated)
    func packetsMatchFFprobe(fixture: Fixtures.Fixture) throws {
        let (events, _) = try parse(fixture.bytes)
        #expect(events.packets == fixture.expectedPackets)
    }

    @Test(arguments: Fixtures.conformanceStreams)
    func conformanceStreamPacketsMatch(fixture: Fixtures.Fixture) throws {
        let (events, _) = try parse(fixture.bytes)
        #expect(events.packets == fixture.expectedPackets)
    }

    @Test(arguments: Fixtures.generated + Fixtures.conformanceStreams)
    func eventsDoNotDependOnChunking(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        let (whole, _) = try parse(bytes)
        for chunking in [Chunking.fixed(1), .fixed(3), .fixed(417), .random(seed: 1), .random(seed: 2024)] {
            let (chunked, _) = try parse(bytes, chunking: chunking)
            #expect(chunked == whole, "\(chunking)")
        }
    }
}
