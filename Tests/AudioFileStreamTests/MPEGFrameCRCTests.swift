import FixtureSupport
import Testing
@testable import AudioFileStream

/// The CRC-16 of protected frames, against encoders' and the ISO conformance streams' own CRCs.
@Suite struct MPEGFrameCRCTests {
    static let protected = (Fixtures.generated + Fixtures.conformanceStreams).filter { fixture in
        ["l3-crc.mp3", "l1-fl1.bit", "l1-fl2.bit", "l1-fl3.bit", "l1-fl5.bit", "l1-fl6.bit", "l1-fl7.bit"]
            .contains(fixture.name)
    }

    /// Calls `body` with each packet's bytes.
    static func forEachPacket(of fixture: Fixtures.Fixture, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let bytes = fixture.bytes
        try bytes.withUnsafeBytes { file in
            for packet in fixture.expectedPackets {
                try body(UnsafeRawBufferPointer(rebasing: file[Int(packet.offset)..<Int(packet.offset) + packet.size]))
            }
        }
    }

    @Test func protectedFixturesExist() {
        #expect(Self.protected.count == 7)
    }

    @Test(arguments: protected)
    func everyEncodedCRCMatches(fixture: Fixtures.Fixture) throws {
        try Self.forEachPacket(of: fixture) { frame in
            let header = try #require(MPEGFrameHeader(bytes: frame, at: 0))
            #expect(header.crcMatches(frame: frame) == true)
        }
    }

    @Test(arguments: protected)
    func aFlippedProtectedBitIsCaught(fixture: Fixtures.Fixture) throws {
        try Self.forEachPacket(of: fixture) { frame in
            var damaged = Array(frame)
            damaged[7] ^= 0x10
            try damaged.withUnsafeBytes { damaged in
                let header = try #require(MPEGFrameHeader(bytes: damaged, at: 0))
                #expect(header.crcMatches(frame: damaged) == false)
            }
        }
    }

    @Test func unprotectedAndLayerIIFramesAreNotChecked() {
        for name in ["l3-cbr128-joint.mp3", "l2-dual-crc.mp2"] {
            Self.forEachPacket(of: Fixtures.named(name)) { frame in
                #expect(MPEGFrameHeader(bytes: frame, at: 0)?.crcMatches(frame: frame) == nil)
            }
        }
    }
}
