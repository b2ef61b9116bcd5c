@testable import AudioFileWriting
import FixtureSupport
import Testing

@Suite struct AudioMD5Tests {
    /// RFC 1321 §A.5's test suite.
    @Test func theRFCsDigests() {
        let suite = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"), ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
             "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (message, digest) in suite {
            var md5 = MD5()
            Array(message.utf8).withUnsafeBytes { md5.update($0) }
            #expect(md5.digest.map { String(format: "%02x", $0) }.joined() == digest, "\(message)")
        }
    }

    /// Bytes fed in pieces of every size around a block's 64 give coreutils' digest of the whole.
    @Test func piecesGiveTheWholesDigest() throws {
        var random = TestRandom(seed: 26)
        let bytes = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var md5 = MD5()
        var position = 0
        var size = 1
        while position < bytes.count {
            let end = min(position + size, bytes.count)
            bytes[position..<end].withUnsafeBytes { md5.update($0) }
            position = end
            size = size % 130 + 1
        }
        #expect(md5.digest.map { String(format: "%02x", $0) }.joined() == (try FixtureSupport.md5(bytes)))
    }

    /// Floats become integers of the depth, little-endian in whole bytes: 12 bits take 2 bytes, 24 take 3.
    @Test func samplesAreTheirDepthsIntegers() throws {
        for (bits, samples, bytes) in [
            (12, [Float(-1), 0.5, 1.0 / 2048], [0x00, 0xF8, 0x00, 0x04, 0x01, 0x00]),
            (24, [Float(-1.0 / 8_388_608), 0.25], [0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x20]),
        ] as [(Int, [Float], [UInt8])] {
            var digest = AudioMD5(bitsPerSample: bits)
            samples.withUnsafeBufferPointer { digest.update($0) }
            #expect(digest.digest.map { String(format: "%02x", $0) }.joined() == (try FixtureSupport.md5(bytes)))
        }
    }
}
