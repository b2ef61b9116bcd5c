import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// Never a false packet on programs: an executable's procedure linkage table and data tables pass for MPEG
/// Layer I and II headers chained at the lengths their short frames have (a reserved emphasis, channel modes
/// that flip, free-format rows at any stride, Layer II frames whose allocations ask for more than they hold), yet
/// not one packet may come out of them.
@Suite struct ProgramBytesTests {
    /// Built by Tests/Fixtures/make_program_fixtures.sh from the C source beside it.
    static let executable = [UInt8](try! Data(contentsOf: Fixtures.directory
        .appendingPathComponent("programs").appendingPathComponent("tables-and-calls.elf")))

    @Test(arguments: [nil, AudioFileType.mp1, .mp2, .mp3])
    func anExecutableGivesNoPacketInAnyChunking(hint: AudioFileType?) throws {
        #expect(Self.executable.starts(with: [0x7F, 0x45, 0x4C, 0x46]))
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 43)] {
            let (packets, _) = try ADTSTests.parsePackets(Self.executable, chunking: chunking, hint: hint)
            #expect(packets.isEmpty, "\(chunking): \(packets.prefix(3))")
        }
    }
}
