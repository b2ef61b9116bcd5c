import Testing
import FixtureSupport
@testable import AudioFileStream

/// Folding by carry-less multiplication leaves the same register as a plain bit-by-bit CRC (written here from
/// the definition), for Ogg's CRC-32 and FLAC's CRC-16, at every length around the block size and from any
/// starting register; the tables, which take the runs too short to fold (and all runs where the CPU cannot
/// fold), are checked by the shorter lengths.
@Suite struct CRCFoldingTests {
    /// A CRC that is not reflected, one bit at a time, from its definition.
    static func bitwise(_ crc: UInt32, _ bytes: [UInt8], polynomial: UInt32, width: Int) -> UInt32 {
        let top = UInt32(1) << (width - 1)
        let mask = width == 32 ? UInt32.max : (UInt32(1) << width) - 1
        var register = crc
        for byte in bytes {
            register ^= UInt32(byte) << (width - 8)
            for _ in 0..<8 { register = (register & top != 0 ? register << 1 ^ polynomial : register << 1) & mask }
        }
        return register
    }

    @Test func foldingMatchesTheDefinition() {
        var random = TestRandom(seed: 42)
        for length in [0, 1, 15, 16, 17, 63, 64, 65, 80, 127, 128, 129, 1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let start = UInt32(truncatingIfNeeded: random.next())
            let ogg = bytes.withUnsafeBytes { OggCRC.update(start, with: $0) }
            #expect(ogg == Self.bitwise(start, bytes, polynomial: 0x04C1_1DB7, width: 32), "CRC-32, \(length) bytes")
            let flac = bytes.withUnsafeBytes { FrameCRC.crc16(UInt16(truncatingIfNeeded: start), $0, from: 0, to: length) }
            #expect(UInt32(flac) == Self.bitwise(start & 0xFFFF, bytes, polynomial: 0x8005, width: 16),
                    "CRC-16, \(length) bytes")
        }
    }
}
