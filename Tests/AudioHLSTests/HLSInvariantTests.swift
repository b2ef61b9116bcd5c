import AudioHLS
import FixtureSupport
import Foundation
import Testing

/// The HLS fuzz target's invariants (`HLSInvariants`) on every codec's fixture, under each container, with and
/// without parts, at three segment lengths, read whole and with a flagged gap in the middle; and on the inputs the
/// target found to break them (Tests/Fixtures/fuzz-hls).
@Suite struct HLSInvariantTests {
    static let fixtures = ["cbr.mp3", "aac.aac", "aac.m4a", "opus.opus", "flac.flac"]
    /// Chunk seeds whose bits pick each container, parts on and off, and each segment length (`settings(seed:)`).
    static let seeds: [UInt64] = [0, 1, 2, 4, 13, 22, 36, 68, 69, 70]
    /// What a container cannot carry (RFC 8216bis §3): packed audio has no Opus or FLAC, CMAF no MP3.
    static let refused: [HLSContainer: Set<String>] = [.packed: ["opus.opus", "flac.flac"], .fmp4: ["cbr.mp3"]]

    /// A fuzzer input: no hint, the seed, and a flagged cut of 64 bytes at `cut` (none when nil), then `bytes`.
    static func input(_ bytes: [UInt8], seed: UInt64, cut: Int?) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: FuzzScenario.headerLength)
        header[1...3] = [UInt8(seed >> 16 & 0xFF), UInt8(seed >> 8 & 0xFF), UInt8(seed & 0xFF)]
        if let cut { header[4...7] = [1, UInt8(cut >> 8 & 0xFF), UInt8(cut & 0xFF), 64] }
        return header + bytes
    }

    @Test func everyFixtureKeepsTheInvariants() throws {
        var runs = 0
        for fixture in Self.fixtures {
            let bytes = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("record/\(fixture)")))
            for seed in Self.seeds {
                for cut in [nil, min(bytes.count / 2, 0xFFFF)] {
                    let input = Self.input(bytes, seed: seed, cut: cut)
                    let segments = try input.withUnsafeBytes { try HLSInvariants.check(FuzzScenario($0)) }
                    let container = HLSInvariants.settings(seed: seed).container
                    let isRefused = container.map { Self.refused[$0]?.contains(fixture) ?? false } ?? false
                    #expect(isRefused ? segments == 0 : segments >= 1,
                            "\(fixture), seed \(seed), cut \(cut.map(String.init) ?? "none"): \(segments) segments")
                    runs += 1
                }
            }
        }
        #expect(runs == Self.fixtures.count * Self.seeds.count * 2)
    }

    @Test func theFuzzersFindingsKeepTheInvariants() throws {
        #expect(Fixtures.hlsFuzzFindings.count == 1, "a finding was added or lost: count it here")
        for finding in Fixtures.hlsFuzzFindings {
            let input = [UInt8](try Data(contentsOf: finding))
            try input.withUnsafeBytes { _ = try HLSInvariants.check(FuzzScenario($0)) }
        }
    }
}
