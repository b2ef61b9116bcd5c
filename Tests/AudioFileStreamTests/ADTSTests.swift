import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// AAC in ADTS framing against ffprobe's packets (minus each frame's ADTS header, as the fixture script
/// records them), in any chunking; and no packet at all that is not one.
@Suite struct ADTSTests {
    static let adts = Fixtures.codecs.filter { $0.file.pathExtension == "aac" }
    /// One format from start to end, every frame a single raw data block.
    static let clean = adts.filter { fixture in
        (fixture.facts?["formatChanges"] as? [Any])?.isEmpty ?? false
            && fixture.facts?["rawDataBlocksPerFrame"] as? [Int] == [1]
    }

    @Test func everyFixtureIsThere() {
        #expect(Self.adts.count == 15)
        #expect(Self.clean.count == 12)
        #expect(Fixtures.codecs.count == 21)
    }

    /// Offset, size and frames of each packet, and the stream's properties.
    static func parsePackets(_ bytes: [UInt8], chunking: Chunking = .whole, hint: AudioFileType? = nil) throws
        -> (packets: [[Int64]], stream: AudioFileStream) {
        var packets: [[Int64]] = []
        let stream = try AudioFileStream(fileTypeHint: hint) { event in
            guard case .packets(let batch) = event else { return }
            for description in batch.descriptions! {
                let frames = description.variableFramesInPacket > 0
                    ? description.variableFramesInPacket : batch.format.framesPerPacket
                packets.append([batch.streamOffset + description.startOffset, Int64(description.dataByteSize),
                                Int64(frames)])
            }
        }
        try feed(bytes, to: stream, chunking: chunking)
        return (packets, stream)
    }

    @Test(arguments: clean)
    func packetsAndFormatMatchFFprobe(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 7)] {
            let (packets, stream) = try Self.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
            let format = try #require(stream.dataFormat)
            #expect(format.formatID == AudioFormatID.mpeg4AAC)
            #expect(format.formatFlags == UInt32(facts["objectType"] as! Int))
            #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
            #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
            #expect(format.framesPerPacket == 1024)
            #expect(try stream.property(.fileFormat) == .fileType(.adts))
            let cookie = (facts["audioSpecificConfig"] as! String)
            #expect(try stream.property(.magicCookieData) == .data(Self.bytes(hex: cookie)))
            #expect(stream.dataOffset == Int64(facts["firstFrameOffset"] as! Int))
        }
    }

    /// One frame that is all the input (exiftool's AAC.aac is one) is ADTS, though no header follows to confirm
    /// it: its chain runs from the start of the input to its end. With a byte after it, it is one header alone.
    @Test func oneFrameThatIsAllTheInputIsRead() throws {
        let fixture = Fixtures.codecs.first { $0.name == "adts-lc-44k-stereo.aac" }!
        let first = try #require(fixture.expectedPacketsWithFrames.first)
        let start = Int64(fixture.facts!["firstFrameOffset"] as! Int)
        let frame = Array(fixture.bytes[Int(start)..<Int(first[0] + first[1])])
        for chunking in [Chunking.whole, .fixed(1)] {
            let (packets, stream) = try Self.parsePackets(frame, chunking: chunking)
            #expect(packets == [[first[0] - start, first[1], first[2]]], "\(chunking)")
            #expect(try stream.property(.fileFormat) == .fileType(.adts))
        }
        #expect(try Self.parsePackets(frame + [0]).packets.isEmpty)
    }

    /// A stream joined mid-frame, as every radio connection is: the packets wholly after the cut.
    @Test func aStreamCutAnywhereGivesExactlyTheFollowingPackets() throws {
        let fixture = Fixtures.codecs.first { $0.name == "adts-lc-44k-stereo.aac" }!
        let url = fixture.expectedStem.appendingPathExtension("cuts.json")
        let cuts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])["cuts"]
            as! [[String: Any]]
        #expect(cuts.count == 20)
        let bytes = fixture.bytes
        for cut in cuts {
            let start = cut["cut"] as! Int
            let expected = (cut["packets"] as! [[Int]]).map { $0.map(Int64.init) }
            let (packets, _) = try Self.parsePackets(Array(bytes[start...]), chunking: .random(seed: UInt64(start)))
            #expect(packets == expected, "cut at \(start)")
        }
    }

    /// Bytes that are not a whole frame of the stream never come out as packets: damaged, spliced and
    /// multi-block fixtures, and AC-3 and E-AC-3 ones, give only packets of their expected lists.
    @Test(arguments: Fixtures.codecs)
    func noFalsePackets(fixture: Fixtures.Fixture) throws {
        let expected = Set(fixture.expectedPacketsWithFrames)
        let hasMP3 = (fixture.facts?["formatChanges"] as? [[String: Any]])?.contains { $0["kind"] as? String == "mp3" }
        for chunking in [Chunking.whole, .random(seed: 3)] {
            let (packets, stream) = try Self.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets.filter { !expected.contains($0) } == [], "\(chunking)")
            // Never reported as MPEG unless an MP3 part is there.
            if hasMP3 != true {
                let mpeg: [FourCharCode?] = [AudioFormatID.mpegLayer1, AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer3]
                #expect(!mpeg.contains(stream.dataFormat?.formatID))
            }
        }
    }

    /// Frames of several raw data blocks (no CRC: their boundaries are not in the stream) are left out and
    /// reported, never given out as one packet; the single-block frames around them are packets.
    @Test func framesOfSeveralBlocksAreReportedNotFramed() throws {
        let fixture = Fixtures.codecs.first { $0.name == "adts-lc-44k-mono-multi-rdb.aac" }!
        let rows = fixture.expectedPacketsWithFrames
        var unsupported: Int64 = 0
        var packets: [[Int64]] = []
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                packets += batch.descriptions!.map {
                    [batch.streamOffset + $0.startOffset, Int64($0.dataByteSize), Int64(batch.format.framesPerPacket)]
                }
            case .discontinuity(let gap) where gap.reason == .unsupportedFrame: unsupported += gap.skippedBytes
            default: break
            }
        }
        try feed(fixture.bytes, to: stream, chunking: .random(seed: 11))
        // The expected rows are every block, frame after frame, as the script merged them.
        let blocksPerFrame = try #require(fixture.facts?["blocksPerFrameSequence"] as? [Int])
        #expect(blocksPerFrame.reduce(0, +) == rows.count)
        var next = 0
        var singleBlocks: [[Int64]] = []
        var leftOut: Int64 = 0
        for blocks in blocksPerFrame {
            let frame = rows[next..<next + blocks]
            if blocks == 1 { singleBlocks += frame } else { leftOut += frame.reduce(7) { $0 + $1[1] } }
            next += blocks
        }
        #expect(packets == singleBlocks)
        #expect(unsupported == leftOut)
    }

    @Test func theHintReadsADTSBehindAnID3Tag() throws {
        let fixture = Fixtures.codecs.first { $0.name == "adts-id3v24.aac" }!
        for hint in [nil, AudioFileType.adts] {
            let (packets, stream) = try Self.parsePackets(fixture.bytes, hint: hint)
            #expect(packets == fixture.expectedPacketsWithFrames)
            #expect(stream.dataFormat?.formatID == AudioFormatID.mpeg4AAC)
        }
    }

    /// A stream that changes from ADTS to MP3 or back goes on in the new format, announced before its first
    /// packet: every packet of both parts, as ffprobe lists each part.
    @Test(arguments: ["adts-splice-adts-mp3.aac", "adts-splice-mp3-adts.aac"])
    func aSpliceSwitchesFormat(name: String) throws {
        let fixture = Fixtures.codecs.first { $0.name == name }!
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 13)] {
            var formats: [FourCharCode] = []
            var packets: [[Int64]] = []
            let stream = try AudioFileStream { event in
                switch event {
                case .property(.dataFormat, .format(let format)): formats.append(format.formatID)
                case .packets(let batch):
                    packets += batch.descriptions!.map {
                        [batch.streamOffset + $0.startOffset, Int64($0.dataByteSize), Int64(batch.format.framesPerPacket)]
                    }
                default: break
                }
            }
            try feed(fixture.bytes, to: stream, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
            let adtsFirst = name == "adts-splice-adts-mp3.aac"
            #expect(formats == (adtsFirst ? [AudioFormatID.mpeg4AAC, AudioFormatID.mpegLayer3]
                                          : [AudioFormatID.mpegLayer3, AudioFormatID.mpeg4AAC]), "\(chunking)")
        }
    }

    /// MaximumPacketSize, AverageBytesPerPacket and BitRate are announced once packets tell them, and at the
    /// end are those of ffprobe's packet list: the bit rate of the raw access units, as ADTS headers state none.
    @Test func measuredPropertiesAreAnnouncedAtTheEnd() throws {
        let fixture = Fixtures.codecs.first { $0.name == "adts-lc-44k-stereo.aac" }!
        let rows = fixture.expectedPacketsWithFrames
        var last: [AudioFileStreamPropertyID: AudioFileStreamPropertyValue] = [:]
        let stream = try AudioFileStream { event in
            if case .property(let id, let value) = event { last[id] = value }
        }
        try feed(fixture.bytes, to: stream, chunking: .random(seed: 2))
        let bytes = rows.reduce(0) { $0 + $1[1] }
        let frames = rows.reduce(0) { $0 + $1[2] }
        #expect(last[.maximumPacketSize] == .uint32(UInt32(rows.map { $0[1] }.max()!)))
        #expect(last[.averageBytesPerPacket] == .float64(Double(bytes) / Double(rows.count)))
        let bitRate = UInt32((Double(bytes) * 8 * 44100 / Double(frames)).rounded())
        #expect(last[.bitRate] == .uint32(bitRate))
        guard case .dictionary(let info) = last[.infoDictionary] else { Issue.record("no InfoDictionary"); return }
        #expect(info["nominal bit rate"] == String(bitRate))
        #expect(info["approximate duration in seconds"] == String(Double(frames) / 44100))
    }

    /// A station whose Content-Type names the wrong format is read as what its bytes are, as Apple's parser
    /// does with a wrong hint, and says so in FileFormat.
    @Test func aMislabelledStreamIsReadAsWhatItIs() throws {
        let aac = Fixtures.codecs.first { $0.name == "adts-lc-44k-stereo.aac" }!
        let (aacPackets, aacStream) = try Self.parsePackets(aac.bytes, chunking: .random(seed: 5), hint: .mp3)
        #expect(aacPackets == aac.expectedPacketsWithFrames)
        #expect(try aacStream.property(.fileFormat) == .fileType(.adts))

        let mp3 = Fixtures.named("l3-cbr128-joint.mp3")
        let (mp3Packets, mp3Stream) = try Self.parsePackets(mp3.bytes, chunking: .random(seed: 5), hint: .adts)
        #expect(mp3Packets.map { PacketRecord(offset: $0[0], size: Int($0[1])) } == mp3.expectedPackets)
        #expect(try mp3Stream.property(.fileFormat) == .fileType(.mp3))
    }

    static func bytes(hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { index in
            let start = hex.index(hex.startIndex, offsetBy: index)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }
}
