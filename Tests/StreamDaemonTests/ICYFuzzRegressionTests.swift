import FixtureSupport
import Foundation
import Testing

/// The ICY fuzz target's checks (`ICYInvariants`, shared with Fuzz/ICY) on the inputs found to break them
/// (Tests/Fixtures/fuzz-icy), and on the recorded ICY bodies, so that a finding means a bug, not a wrong check.
@Suite struct ICYFuzzRegressionTests {
    @Test func everyFindingIsReplayed() {
        #expect(Fixtures.icyFuzzFindings.count == 5)
    }

    @Test(arguments: Fixtures.icyFuzzFindings)
    func findingKeepsTheInvariants(finding: URL) throws {
        let scenario = try [UInt8](Data(contentsOf: finding)).withUnsafeBytes(ICYScenario.init)
        try ICYInvariants.check(scenario)
    }

    /// Each recorded body at its own metaint in several chunkings, and at a metaint it was not made with, which
    /// reads its audio as blocks of any length.
    @Test(arguments: ["icy-metaint64", "icy-metaint16000", "icy-aac-metaint1815"])
    func recordedBodyKeepsTheInvariants(name: String) throws {
        let fixture = ICYFixture(name)
        for (metaint, seed) in [(fixture.metaint, 1), (fixture.metaint, 2), (fixture.metaint, 3), (17, 1)] {
            let scenario = ICYScenario(metaint: metaint, chunkSeed: UInt64(seed), body: fixture.body)
            #expect(throws: Never.self, "\(scenario)") { try ICYInvariants.check(scenario) }
        }
    }
}
