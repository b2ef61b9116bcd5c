import Testing
@testable import AudioFileStream

/// The frame header and STREAMINFO against RFC 9639: its decoding example, every code of the header's tables,
/// the forbidden and reserved codes, and the CRC-8 that makes bytes a header.
@Suite struct FLACFrameHeaderTests {
    /// CRC-8 as RFC 9639 §9.1.8 defines it, bit by bit (polynomial 0x07, initial 0), apart from the parser's table.
    static func crc8(_ bytes: [UInt8]) -> UInt8 {
        bytes.reduce(UInt8(0)) { crc, byte in
            (0..<8).reduce(crc ^ byte) { value, _ in value & 0x80 != 0 ? value << 1 ^ 0x07 : value << 1 }
        }
    }

    /// A header of the given codes and trailing bytes (coded number, uncommon size and rate), CRC-8 appended.
    static func header(variable: Bool = false, blockSizeCode: UInt8, rateCode: UInt8, channelCode: UInt8 = 1,
                       bitsCode: UInt8 = 4, after: [UInt8] = [0]) -> [UInt8] {
        let bytes = [0xFF, variable ? 0xF9 : 0xF8, blockSizeCode << 4 | rateCode, channelCode << 4 | bitsCode << 1]
            + after
        return bytes + [crc8(bytes)]
    }

    static func decode(_ bytes: [UInt8]) -> FLACFrameHeader? {
        (bytes + Array(repeating: 0, count: 16)).withUnsafeBytes { FLACFrameHeader(bytes: $0, at: 0) }
    }

    /// RFC 9639 Appendix D.1: a one-sample stereo frame whose header is FF F8 69 18 00 00 BF, CRC-16 0xAA9A.
    @Test func theRFCsDecodingExample() throws {
        let frame: [UInt8] = [0xFF, 0xF8, 0x69, 0x18, 0x00, 0x00, 0xBF, 0x03, 0x58, 0xFD, 0x03, 0x12, 0x8B, 0xAA, 0x9A]
        let header = try #require(frame.withUnsafeBytes { FLACFrameHeader(bytes: $0, at: 0) })
        #expect(header.length == 7 && header.blockSize == 1 && header.sampleRate == 44100)
        #expect(header.channelAssignment == .independent(2) && header.bitsPerSample == 16)
        #expect(!header.isVariableBlockSize && header.number == 0)
        // The CRC-16 of the whole frame, its own included, is 0, however the bytes are split between calls.
        for split in 0...frame.count {
            let crc = frame.withUnsafeBytes { bytes in
                FrameCRC.crc16(FrameCRC.crc16(0, bytes, from: 0, to: split), bytes, from: split, to: frame.count)
            }
            #expect(crc == 0, "split at \(split)")
        }
        #expect(frame.withUnsafeBytes { FrameCRC.crc16(0, $0, from: 0, to: 13) } == 0xAA9A)
    }

    @Test func everyBlockSizeCode() throws {
        let sizes: [UInt8: Int] = [1: 192, 2: 576, 3: 1152, 4: 2304, 5: 4608, 8: 256, 9: 512, 10: 1024, 11: 2048,
                                   12: 4096, 13: 8192, 14: 16384, 15: 32768]
        for (code, size) in sizes {
            #expect(Self.decode(Self.header(blockSizeCode: code, rateCode: 9))?.blockSize == size, "code \(code)")
        }
        #expect(Self.decode(Self.header(blockSizeCode: 6, rateCode: 9, after: [0, 0x0F]))?.blockSize == 16)
        #expect(Self.decode(Self.header(blockSizeCode: 7, rateCode: 9, after: [0, 0xFF, 0xFE]))?.blockSize == 65535)
        // 0xFFFF + 1 = 65536 is forbidden (RFC 9639 §9.1.6), and code 0 reserved.
        #expect(Self.decode(Self.header(blockSizeCode: 7, rateCode: 9, after: [0, 0xFF, 0xFF])) == nil)
        #expect(Self.decode(Self.header(blockSizeCode: 0, rateCode: 9)) == nil)
    }

    @Test func everyRateCode() throws {
        let rates: [UInt8: Int] = [1: 88200, 2: 176400, 3: 192000, 4: 8000, 5: 16000, 6: 22050, 7: 24000, 8: 32000,
                                   9: 44100, 10: 48000, 11: 96000]
        for (code, rate) in rates {
            #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: code))?.sampleRate == rate, "code \(code)")
        }
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 12, after: [0, 50]))?.sampleRate == 50000)
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 13, after: [0, 0x8A, 0x8B]))?.sampleRate == 35467)
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 14, after: [0, 0x11, 0x3A]))?.sampleRate == 44100)
        let deferred = try #require(Self.decode(Self.header(blockSizeCode: 12, rateCode: 0, bitsCode: 0)))
        #expect(deferred.sampleRate == nil && deferred.bitsPerSample == nil)
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 15)) == nil)
    }

    @Test func channelsAndBitDepths() throws {
        for code in UInt8(0)...7 {
            #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, channelCode: code))?.channelAssignment
                == .independent(Int(code) + 1))
        }
        let stereo: [UInt8: FLACFrameHeader.ChannelAssignment] = [8: .leftSide, 9: .sideRight, 10: .midSide]
        for (code, assignment) in stereo {
            let header = Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, channelCode: code))
            #expect(header?.channelAssignment == assignment && header?.channelCount == 2)
        }
        for code in UInt8(11)...15 { #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, channelCode: code)) == nil) }
        let depths: [UInt8: Int] = [1: 8, 2: 12, 4: 16, 5: 20, 6: 24, 7: 32]
        for (code, bits) in depths {
            #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, bitsCode: code))?.bitsPerSample == bits)
        }
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, bitsCode: 3)) == nil)
    }

    @Test func codedNumbersAndTheirLimits() throws {
        // 0x7FFFFFFF, the largest frame number, takes six bytes; a seventh is only for sample numbers.
        let largestFrame: [UInt8] = [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, after: largestFrame))?.number == 0x7FFF_FFFF)
        let largestSample: [UInt8] = [0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]
        #expect(Self.decode(Self.header(variable: true, blockSizeCode: 12, rateCode: 9, after: largestSample))?.number
            == 0xF_FFFF_FFFF)
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, after: largestSample)) == nil)
        #expect(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, after: [0xC3, 0x82]))?.number == 0xC2)
        for bad: [UInt8] in [[0x80], [0xC3, 0x02], [0xFF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]] {
            #expect(Self.decode(Self.header(variable: true, blockSizeCode: 12, rateCode: 9, after: bad)) == nil)
        }
    }

    @Test func aWrongCRC8OrReservedBitIsNoHeader() throws {
        var bytes = Self.header(blockSizeCode: 12, rateCode: 9)
        #expect(Self.decode(bytes) != nil)
        bytes[bytes.count - 1] ^= 0x01
        #expect(Self.decode(bytes) == nil)
        var reserved = Array(Self.header(blockSizeCode: 12, rateCode: 9).dropLast())
        reserved[3] |= 0x01
        #expect(Self.decode(reserved + [Self.crc8(reserved)]) == nil)
        // A cut header is none either.
        let whole = Self.header(blockSizeCode: 7, rateCode: 13, after: [0, 0x10, 0x00, 0x8A, 0x8B])
        for cut in 0..<whole.count {
            #expect(Array(whole.prefix(cut)).withUnsafeBytes { FLACFrameHeader(bytes: $0, at: 0) } == nil)
        }
    }

    @Test func successionByFrameOrSampleNumber() throws {
        let first = try #require(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, after: [5])))
        let next = try #require(Self.decode(Self.header(blockSizeCode: 12, rateCode: 10, channelCode: 0, after: [6])))
        #expect(next.follows(first))
        #expect(!first.follows(next))
        #expect(!(try #require(Self.decode(Self.header(blockSizeCode: 12, rateCode: 9, after: [7])))).follows(first))
        let variable = try #require(Self.decode(Self.header(variable: true, blockSizeCode: 8, rateCode: 9, after: [0])))
        let after = try #require(Self.decode(Self.header(variable: true, blockSizeCode: 9, rateCode: 9, after: [0xC4, 0x80])))
        #expect(after.follows(variable) && !after.follows(first) && !next.follows(variable))
    }

    /// The fields of RFC 9639 Appendix D.1's STREAMINFO (4096-sample blocks, 15-byte frames, 44.1 kHz, 2
    /// channels, 16 bits, one sample), with an MD5 of its own.
    @Test func streamInfoOfTheRFCsExample() throws {
        let body: [UInt8] = [0x10, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x00, 0x0F, 0x0A, 0xC4, 0x42, 0xF0, 0x00,
                             0x00, 0x00, 0x01, 0x3E, 0x84, 0xB4, 0x18, 0x07, 0xDC, 0x69, 0x03, 0x07, 0x34, 0x98, 0xCB]
            + Array(repeating: 0, count: 4)
        let info = try #require(body.withUnsafeBytes(FLACStreamInfo.init))
        #expect(info.minimumBlockSize == 4096 && info.maximumBlockSize == 4096)
        #expect(info.minimumFrameSize == 15 && info.maximumFrameSize == 15)
        #expect(info.sampleRate == 44100 && info.channelCount == 2 && info.bitsPerSample == 16)
        #expect(info.totalSamples == 1 && info.bytes == body && info.md5 == Array(body[18...]))
        #expect(Array(body.prefix(33)).withUnsafeBytes(FLACStreamInfo.init) == nil)
    }
}
