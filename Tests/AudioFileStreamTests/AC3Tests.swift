import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// AC-3 and E-AC-3 against ffprobe's packets (whole syncframes) in any chunking and cut anywhere, and the
/// header against A/52's tables.
@Suite struct AC3Tests {
    static let fixtures = Fixtures.codecs.filter { ["ac3", "eac3"].contains($0.file.pathExtension) }
    /// The channel layouts ffprobe names in the fixtures, as Core Audio tags in AC-3's channel order.
    static let layouts = ["mono": AudioChannelLayout.mono, "stereo": .stereo,
                          "5.1(side)": AudioChannelLayout(tag: 123 << 16 | 6)]

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.count == 6)
        #expect(Self.fixtures.filter { $0.file.pathExtension == "eac3" }.count == 2)
    }

    @Test(arguments: fixtures)
    func packetsAndFormatMatchFFprobe(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let isEnhanced = fixture.file.pathExtension == "eac3"
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 11)] {
            let (packets, stream) = try ADTSTests.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
            let format = try #require(stream.dataFormat)
            #expect(format.formatID == FourCharCode(facts["formatID"] as! String))
            #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
            #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
            #expect(format.framesPerPacket == UInt32(facts["framesPerPacket"] as! Int))
            #expect(try stream.property(.fileFormat) == .fileType(isEnhanced ? .eac3 : .ac3))
            let layout = try #require(Self.layouts[facts["channelLayout"] as! String])
            #expect(try stream.property(.channelLayout) == .channelLayout(layout))
            #expect(try stream.property(.bitRate) == .uint32(UInt32(facts["nominalBitRate"] as! Int)))
            #expect(try stream.property(.packetSizeUpperBound) == .uint32(isEnhanced ? 4096 : 3840))
            #expect(stream.dataOffset == Int64(facts["firstPacketOffset"] as! Int))
        }
    }

    /// A stream joined mid-frame, as every broadcast connection is: exactly the packets wholly after the cut.
    @Test(arguments: fixtures)
    func aStreamCutAnywhereGivesExactlyTheFollowingPackets(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        let expected = fixture.expectedPacketsWithFrames
        for cut in [1, 7, 250, 1000, bytes.count / 2 + 3] {
            let following = expected.filter { $0[0] >= cut }.map { [$0[0] - Int64(cut), $0[1], $0[2]] }
            let (packets, _) = try ADTSTests.parsePackets(Array(bytes[cut...]), chunking: .random(seed: UInt64(cut)))
            #expect(packets == following, "cut at \(cut)")
        }
    }

    /// After a loss of sync a frame is believed only where its CRC holds (A/52 §7.10): rows of a program's table
    /// that start with the sync word and chain at a frame's length give no packet, and a stream joined before a
    /// damaged frame is taken up from the next whole one.
    @Test func aResyncBelievesOnlyFramesWhoseCRCHolds() throws {
        // 48 kHz at 32 kbit/s (fscod 0, frmsizecod 0: 128-byte frames, Table 5.18), then zeros: 8-byte rows.
        let row: [UInt8] = [0x0B, 0x77, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00]
        let table = [UInt8](repeating: 0x5A, count: 40) + Array(repeatElement(row, count: 64).joined())
        for hint in [nil, AudioFileType.ac3] {
            let (packets, _) = try ADTSTests.parsePackets(table, chunking: .random(seed: 5), hint: hint)
            #expect(packets.isEmpty, "hinted \(String(describing: hint))")
        }

        let fixture = try #require(Self.fixtures.first { $0.name == "ac3-48k-stereo-192k.ac3" })
        let cut = 7
        let following = fixture.expectedPacketsWithFrames.filter { $0[0] >= cut }
        var bytes = Array(fixture.bytes[cut...])
        let damaged = Int(following[0][0]) - cut + Int(following[0][1]) / 2
        bytes[damaged] ^= 0x10
        let (packets, _) = try ADTSTests.parsePackets(bytes, chunking: .random(seed: 6))
        #expect(packets == following.dropFirst().map { [$0[0] - Int64(cut), $0[1], $0[2]] })
    }

    @Test func hintsNameBothSyntaxesAndEitherReadsBoth() throws {
        for hint in ["ac3", "AC-3", "audio/ac3"] { #expect(AudioFileType(hint: hint) == .ac3) }
        for hint in ["eac3", "ec3", "ec-3", "audio/eac3"] { #expect(AudioFileType(hint: hint) == .eac3) }
        for fixture in Self.fixtures {
            for hint in [AudioFileType.ac3, .eac3] {
                let (packets, _) = try ADTSTests.parsePackets(fixture.bytes, hint: hint)
                #expect(packets == fixture.expectedPacketsWithFrames, "\(fixture.name) hinted \(hint)")
            }
        }
    }

    /// E-AC-3 frames of a dependent substream belong to the independent frame before them: neither comes out
    /// as a packet of its own, with or without a hint.
    @Test func dependentSubstreamsGiveNoPackets() throws {
        let fixture = Self.fixtures.first { $0.name == "eac3-48k-stereo-96k.eac3" }!
        var bytes = fixture.bytes
        for (index, row) in fixture.expectedPacketsWithFrames.enumerated() where index % 2 == 1 {
            bytes[Int(row[0]) + 2] = bytes[Int(row[0]) + 2] & 0x3F | 0x40  // strmtyp 1
        }
        for hint in [nil, AudioFileType.eac3] {
            let (packets, _) = try ADTSTests.parsePackets(bytes, hint: hint)
            #expect(packets == [], "hint \(hint.map(\.description) ?? "none")")
        }
    }

    // MARK: - The header

    /// The first 7 bytes of an AC-3 syncframe: no CRC, bsmod 0, everything after acmod zero but the given byte 6.
    static func ac3Header(rateCode: Int, sizeCode: Int, bitstreamID: Int = 8, byte6: UInt8 = 0) -> [UInt8] {
        [0x0B, 0x77, 0, 0, UInt8(rateCode << 6 | sizeCode), UInt8(bitstreamID << 3), byte6]
    }

    static func eac3Header(streamType: Int = 0, words: Int, rateCode: Int, nextCode: Int, mode: Int = 2,
                           hasLFE: Bool = false) -> [UInt8] {
        let size = words - 1
        return [0x0B, 0x77, UInt8(streamType << 6 | size >> 8), UInt8(size & 0xFF),
                UInt8(rateCode << 6 | nextCode << 4 | mode << 1 | (hasLFE ? 1 : 0)), 16 << 3, 0]
    }

    static func header(_ bytes: [UInt8]) -> AC3FrameHeader? {
        bytes.withUnsafeBytes { AC3FrameHeader(bytes: $0, at: 0) }
    }

    /// Every frame size code at every rate, against A/52 Table 5.18's words per syncframe.
    @Test func ac3FrameSizesFollowTable5_18() throws {
        let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]
        let words44 = [69, 87, 104, 121, 139, 174, 208, 243, 278, 348, 417, 487, 557, 696, 835, 975, 1114, 1253, 1393]
        for sizeCode in 0..<38 {
            let rate = kbps[sizeCode / 2]
            for (rateCode, words) in [(0, 2 * rate), (1, words44[sizeCode / 2] + sizeCode % 2), (2, 3 * rate)] {
                let header = try #require(Self.header(Self.ac3Header(rateCode: rateCode, sizeCode: sizeCode)))
                #expect(header.frameLength == 2 * words, "frmsizecod \(sizeCode), fscod \(rateCode)")
                #expect(header.bitRate == rate * 1000)
                #expect(header.sampleRate == [48000, 44100, 32000][rateCode])
                #expect(!header.isEnhanced && header.blocks == 6 && header.framesPerPacket == 1536)
            }
        }
        #expect(Self.header(Self.ac3Header(rateCode: 2, sizeCode: 37))?.maximumFrameLength == 3840)
    }

    @Test func reservedValuesAreNoHeader() {
        #expect(Self.header(Self.ac3Header(rateCode: 3, sizeCode: 8)) == nil)
        for sizeCode in 38..<64 { #expect(Self.header(Self.ac3Header(rateCode: 0, sizeCode: sizeCode)) == nil) }
        for bitstreamID in [9, 10, 17, 31] {
            #expect(Self.header(Self.ac3Header(rateCode: 0, sizeCode: 8, bitstreamID: bitstreamID)) == nil)
        }
        #expect(Self.header(Self.eac3Header(streamType: 3, words: 192, rateCode: 0, nextCode: 3)) == nil)
        #expect(Self.header(Self.eac3Header(words: 192, rateCode: 3, nextCode: 3)) == nil)
        #expect(Self.header(Self.eac3Header(words: 3, rateCode: 0, nextCode: 3)) == nil)
        var noSync = Self.ac3Header(rateCode: 0, sizeCode: 8)
        noSync[1] = 0x78
        #expect(Self.header(noSync) == nil)
    }

    /// lfeon follows acmod after cmixlev (three fronts), surmixlev (a surround) and dsurmod (2/0): A/52 §5.4.2.
    @Test func lfeonIsFoundAfterTheMixLevelsOfEveryCodingMode() throws {
        let lfeBit = [4, 4, 2, 2, 2, 0, 2, 0]
        let channels = [2, 1, 2, 3, 3, 4, 4, 5]
        for mode in 0..<8 {
            for hasLFE in [false, true] {
                // Every bit after acmod set but lfeon's, or only lfeon's.
                let rest: UInt8 = hasLFE ? 1 << lfeBit[mode] : 0x1F & ~(1 << lfeBit[mode])
                let bytes = Self.ac3Header(rateCode: 0, sizeCode: 8, byte6: UInt8(mode << 5) | rest)
                let header = try #require(Self.header(bytes))
                #expect(header.audioCodingMode == mode && header.hasLFE == hasLFE, "acmod \(mode)")
                #expect(header.channelCount == channels[mode] + (hasLFE ? 1 : 0))
                let layout = AudioChannelLayout(ac3CodingMode: mode, hasLFE: hasLFE)
                #expect(layout.channelCount == header.channelCount, "acmod \(mode), lfeon \(hasLFE)")
            }
        }
    }

    @Test func eac3HeadersGiveSizeBlocksAndReducedRates() throws {
        let full = try #require(Self.header(Self.eac3Header(words: 512, rateCode: 0, nextCode: 3, mode: 7,
                                                            hasLFE: true)))
        #expect(full.isEnhanced && full.streamType == .independent)
        #expect(full.frameLength == 1024 && full.sampleRate == 48000 && full.blocks == 6)
        #expect(full.channelCount == 6 && full.bitRate == 256_000)
        #expect(full.maximumFrameLength == 4096)
        for (nextCode, blocks) in [(0, 1), (1, 2), (2, 3), (3, 6)] {
            let header = try #require(Self.header(Self.eac3Header(words: 100, rateCode: 1, nextCode: nextCode)))
            #expect(header.blocks == blocks && header.framesPerPacket == 256 * blocks)
            #expect(header.sampleRate == 44100)
        }
        for (fscod2, rate) in [(0, 24000), (1, 22050), (2, 16000)] {
            let header = try #require(Self.header(Self.eac3Header(words: 100, rateCode: 3, nextCode: fscod2)))
            #expect(header.sampleRate == rate && header.blocks == 6)
        }
        let dependent = try #require(Self.header(Self.eac3Header(streamType: 1, words: 100, rateCode: 0, nextCode: 3)))
        #expect(dependent.streamType == .dependent)
        guard case .invalid = AC3Format().frameLength(of: dependent) else { Issue.record("dependent framed"); return }
        guard case .exact(1024) = AC3Format().frameLength(of: full) else { Issue.record("independent unframed"); return }
    }

    /// AC-3 and E-AC-3 frames of the same rate and channels are still two formats.
    @Test func theSyntaxesDoNotContinueEachOther() throws {
        let ac3 = try #require(Self.header(Self.ac3Header(rateCode: 0, sizeCode: 8, byte6: 2 << 5)))
        let eac3 = try #require(Self.header(Self.eac3Header(words: 128, rateCode: 0, nextCode: 3)))
        #expect(ac3.sampleRate == eac3.sampleRate && ac3.channelCount == eac3.channelCount)
        #expect(!ac3.isCompatible(with: eac3) && !eac3.isCompatible(with: ac3))
    }
}
