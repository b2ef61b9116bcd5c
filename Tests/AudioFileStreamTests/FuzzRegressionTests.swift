import Foundation
import Testing
import FixtureSupport

/// The fuzz target's checks (`StreamInvariants`, shared with Fuzz/) on the inputs it found to break them
/// (Tests/Fixtures/fuzz), and on every fixture, so that a finding means a bug in the parser, not in the checks.
@Suite struct FuzzRegressionTests {
    @Test func everyFindingIsReplayed() {
        #expect(Fixtures.fuzzFindings.count == 6)
    }

    @Test(arguments: Fixtures.fuzzFindings)
    func findingKeepsTheInvariants(finding: URL) throws {
        let scenario = try [UInt8](Data(contentsOf: finding)).withUnsafeBytes(FuzzScenario.init)
        try StreamInvariants.check(scenario)
    }

    /// Each fixture as the fuzz target's seeds give it (no hint, no cuts, so compared with the whole and 1-byte
    /// feeds), and in chunks of 0 to 16 bytes with a cut of every kind.
    @Test(arguments: Fixtures.generated + Fixtures.conformanceStreams + Fixtures.codecs + Fixtures.flac
                     + Fixtures.flacConformance + Fixtures.caf + Fixtures.mp4)
    func fixtureKeepsTheInvariants(fixture: Fixtures.Fixture) throws {
        let stream = fixture.bytes.prefix(1 << 16)
        // The high byte of the position a quarter of the way in.
        let quarter = UInt8((stream.count / 4) >> 8)
        let seedHeader: [UInt8] = [0, 0, 0, 1] + Array(repeating: 0, count: 12)
        // Chunk seed 2: 0…16 bytes. Cuts: kinds 1 to 7 spread over three slots, positions in the stream's quarters.
        let cutHeaders: [[UInt8]] = [
            [0, 0, 0, 2, 1, quarter, 0, 100, 2, 2 * quarter, 0, 0x81, 3, 3 * quarter, 0, 7],
            [3, 0, 1, 2, 4, quarter, 0, 20, 5, 2 * quarter, 0, 50, 6, 3 * quarter, 0, 0x82],
            [2, 0, 2, 2, 7, quarter, 0, 0, 6, 2 * quarter, 0, 30, 1, 3 * quarter, 0, 0],
        ]
        for header in [seedHeader] + cutHeaders {
            let scenario = (header + stream).withUnsafeBytes(FuzzScenario.init)
            #expect(throws: Never.self, "\(scenario)") { try StreamInvariants.check(scenario) }
        }
    }
}
