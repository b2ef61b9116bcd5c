import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

@Suite struct MPEGWriterTests {
    /// Layer III with LAME tags: constant bit rates, MPEG-1 VBR, and MPEG-2 VBR (half-length frames); at 64 kbit/s
    /// and at about 30 (record/), the bit reservoir reaches back further than a LAME tag's delay can trim.
    static let layerIII = ["l3-cbr128-joint.mp3", "l3-vbr-v2.mp3", "l3-mpeg2-24k-vbr.mp3", "record/cbr.mp3",
                           "record/vbr.mp3"]

    @Test(arguments: layerIII) func aStreamWrittenWithItsTrimsDecodesAsTheOriginal(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let table = try #require(source.packetTableInfo)
        let bytes = try source.write(.mp3, packets: source.packets.indices, leadingTrim: Int64(table.primingFrames),
                                     trailingTrim: Int64(table.remainderFrames))
        let path = try WrittenFile.at(bytes, named: "whole.mp3")
        defer { WrittenFile.remove(path) }
        #expect(try FFmpegTool.warnings(path) == "")
        let original = try FFmpegTool.decode(Fixtures.directory.appendingPathComponent(name).path)
        #expect(try FFmpegTool.decode(path) == original)
        try expectStatedLength(of: path, source: source, frames: table.validFrames,
                               trailingTrim: Int64(table.remainderFrames))
    }

    @Test(arguments: layerIII) func aMiddleCutDecodesToTheWholesSamplesOverItsRange(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let whole = try FFmpegTool.decode(Fixtures.directory.appendingPathComponent(name).path)
        let channels = Int(source.track!.format.channelsPerFrame)
        let frames = Int64(whole.count / channels)
        let (start, end) = (frames / 4 + 101, frames * 3 / 4 + 7)
        let cut = try Self.cut(source, from: start, to: end)
        let path = try WrittenFile.at(cut.bytes, named: "cut.mp3")
        defer { WrittenFile.remove(path) }
        #expect(try FFmpegTool.warnings(path) == "")
        #expect(try FFmpegTool.decode(path) == Array(whole[Int(start) * channels..<Int(end) * channels]))
        // mpg123 too gives its own decode of the whole over the range.
        func mpg123(_ path: String) throws -> [Float] {
            try FFmpegTool.run("mpg123", ["-q", "-e", "f32", "-s", path]).output
                .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        let mpg123Whole = try mpg123(Fixtures.directory.appendingPathComponent(name).path)
        #expect(try mpg123(path) == Array(mpg123Whole[Int(start) * channels..<Int(end) * channels]))
        try expectStatedLength(of: path, source: source, frames: end - start, trailingTrim: cut.trailingTrim)
    }

    @Test(arguments: layerIII) func consecutiveCutsJoinToExactlyTheirRange(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let whole = try FFmpegTool.decode(Fixtures.directory.appendingPathComponent(name).path)
        let channels = Int(source.track!.format.channelsPerFrame)
        let frames = Int64(whole.count / channels)
        // The first piece starts at the stream's start, so its lead-in is the encoder's priming alone.
        let bounds = [0, frames / 2 + 333, frames]
        var joined: [Float] = []
        for (start, end) in zip(bounds, bounds.dropFirst()) {
            let cut = try Self.cut(source, from: start, to: end)
            let path = try WrittenFile.at(cut.bytes, named: "piece.mp3")
            defer { WrittenFile.remove(path) }
            joined += try FFmpegTool.decode(path)
        }
        #expect(joined == whole)
    }

    @Test(arguments: layerIII) func ourParserReadsBackTheFramesAndTrimsWritten(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let framesPerPacket = Int64(source.track!.format.framesPerPacket)
        let frames = Int64(source.packets.count) * framesPerPacket
        let cut = try Self.cut(source, from: frames / 3, to: frames / 2)
        let read = try ParsedFixture(cut.bytes)
        // The packets only the bit reservoir needed may come back folded into one frame of silence before the rest.
        let kept = read.packets.count - (read.packets.count < cut.packets.count ? 1 : 0)
        #expect(read.packets.suffix(kept).map(\.bytes) == cut.packets.suffix(kept).map(\.bytes))
        #expect(read.packetCount == UInt64(read.packets.count))
        let table = try #require(read.packetTableInfo)
        #expect(table.validFrames == frames / 2 - frames / 3)
        #expect(table.remainderFrames == Int32(cut.trailingTrim))
        #expect(Int64(table.primingFrames) + table.validFrames + Int64(table.remainderFrames)
            == Int64(read.packets.count) * framesPerPacket)
    }

    @Test func theLAMETagsMusicLengthAndCRCAreTheAudios() throws {
        let source = try ParsedFixture(fixture: "l3-vbr-v2.mp3")
        let cut = try Self.cut(source, from: 10_000, to: 40_000)
        let path = try WrittenFile.at(cut.bytes, named: "cut.mp3")
        defer { WrittenFile.remove(path) }
        let audioLength = try ParsedFixture(cut.bytes).packets.reduce(0) { $0 + $1.bytes.count }
        // CRC-16/ARC, bit by bit, of the audio frames; the LAME tag's fields read at their offsets in the tag.
        let facts = try WrittenFile.mutagen("""
            data = open(sys.argv[1], 'rb').read()
            audio = data[len(data) - int(sys.argv[2]):]
            crc = 0
            for byte in audio:
                crc ^= byte
                for _ in range(8):
                    crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
            lame = data.index(b'LAME')
            xing = data.index(b'Xing') if b'Xing' in data else data.index(b'Info')
            print(json.dumps({'crc': crc, 'stated': int.from_bytes(data[lame + 32:lame + 34], 'big'),
                              'length': int.from_bytes(data[lame + 28:lame + 32], 'big'),
                              'frameStart': data.index(b'\\xff', 0), 'audioStart': len(data) - len(audio)}))
            """.replacingOccurrences(of: "sys.argv[2]", with: String(audioLength)), path)
        #expect(facts["crc"] as? Int == facts["stated"] as? Int)
        let frameLength = (facts["audioStart"] as! Int) - (facts["frameStart"] as! Int)
        #expect(facts["length"] as? Int == frameLength + audioLength)
    }

    /// The table of contents says where each percent of the frames starts, from the first audio frame, in 1/256
    /// of the file's bytes (as FFmpeg reads it: added to the first audio frame's offset).
    @Test func theTableOfContentsPointsAtEachPercentsFrame() throws {
        let source = try ParsedFixture(fixture: "l3-vbr-v2.mp3")
        let bytes = try source.write(.mp3, packets: source.packets.indices, leadingTrim: 1_105)
        let xing = try #require(bytes.indices.first { bytes[$0..<$0 + 4].elementsEqual("Xing".utf8) })
        func field(_ offset: Int) -> Int { bytes[xing + offset..<xing + offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let total = field(12)
        let audio = source.packets.map(\.bytes.count)
        #expect(field(8) == audio.count)
        // No tags: the file is the Xing frame and the audio, which the byte count counts.
        #expect(total == bytes.count)
        let expected = (0..<100).map { percent in audio.prefix(audio.count * percent / 100).reduce(0, +) * 256 / total }
        #expect(bytes[xing + 16..<xing + 116].map(Int.init) == expected)
    }

    /// A stream cut at its first frame with no priming: decoders must skip nothing, so no LAME tag is written.
    @Test func aLeadingTrimBelowTheDecoderDelayWritesNoLAMETag() throws {
        let source = try ParsedFixture(fixture: "l3-noxing.mp3")
        let count = source.packets.count
        let bytes = try source.write(.mp3, packets: 0..<count)
        let path = try WrittenFile.at(bytes, named: "from-start.mp3")
        defer { WrittenFile.remove(path) }
        #expect(try FFmpegTool.warnings(path) == "")
        let framesOnly = try WrittenFile.at(source.packets.flatMap(\.bytes), named: "frames.mp3")
        defer { WrittenFile.remove(framesOnly) }
        let decoded = try FFmpegTool.decode(path)
        #expect(decoded == (try FFmpegTool.decode(framesOnly)))
        #expect(decoded.count == count * Int(source.track!.format.framesPerPacket * source.track!.format.channelsPerFrame))
        let read = try ParsedFixture(bytes)
        #expect(read.packets.count == count)
        #expect(read.packetTableInfo == nil)
    }

    /// A crash leaves the file as it was before `finish`, cut anywhere: it reads as the whole frames it holds.
    @Test func aFileCutAnywhereReadsAsTheFramesItHolds() throws {
        let source = try ParsedFixture(fixture: "l3-mpeg2-24k-vbr.mp3")
        var tags = NormalizedTags()
        tags.title = "Cut"
        var target = ByteArrayTarget()
        var writer = try Container.mp3.makeWriter(track: source.track!, tags: tags, leadingTrim: 1_000, to: &target)
        var ends: [Int] = []
        for packet in source.packets {
            try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
            ends.append(target.bytes.count)
        }
        var cases = 0
        for length in stride(from: 0, through: target.bytes.count, by: 7) {
            let read = try ParsedFixture(Array(target.bytes[..<length]))
            let present = ends.filter { $0 <= length }.count
            #expect(read.packets.map(\.bytes) == source.packets.prefix(present).map(\.bytes), "cut at \(length)")
            cases += 1
        }
        #expect(cases > 2_000)
    }

    @Test func layerIIIsWrittenAsItsFramesAloneAndReadsBack() throws {
        let source = try ParsedFixture(fixture: "l2-192k-stereo.mp2")
        let bytes = try source.write(.mp2, packets: source.packets.indices)
        #expect(bytes == source.packets.flatMap(\.bytes))
        let path = try WrittenFile.at(bytes, named: "whole.mp2")
        defer { WrittenFile.remove(path) }
        // FFmpeg reads no Xing frame in Layer II: it estimates every such file's duration, and says so.
        let original = Fixtures.directory.appendingPathComponent("l2-192k-stereo.mp2").path
        #expect(try WrittenFile.warnings(path) == WrittenFile.warnings(original))
        #expect(try FFmpegTool.decode(path) == FFmpegTool.decode(original))
        let middle = source.packets.count / 2
        let pieces = try source.write(.mp2, packets: 0..<middle) + source.write(.mp2, packets: middle..<source.packets.count)
        #expect(pieces == bytes)
        #expect(throws: WriteError.self) { try source.write(.mp2, packets: 0..<middle, leadingTrim: 1_152) }
    }

    @Test func junkAndOtherCodecsAreRefused() throws {
        let source = try ParsedFixture(fixture: "l3-cbr128-joint.mp3")
        var target = ByteArrayTarget()
        var writer = try MPEGWriter(track: source.track!, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        let junk: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A]
        #expect(throws: WriteError.self) { try junk.withUnsafeBytes { try writer.append($0, frames: 1152, to: &target) } }
        let layerII = try ParsedFixture(fixture: "l2-192k-stereo.mp2").packets[0].bytes
        #expect(throws: WriteError.self) { try layerII.withUnsafeBytes { try writer.append($0, frames: 1152, to: &target) } }
        let aac = TrackFormat(format: AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpeg4AAC,
                                                                  framesPerPacket: 1024, channelsPerFrame: 2))
        #expect(throws: WriteError.self) { _ = try MPEGWriter(track: aac, tags: NormalizedTags(), leadingTrim: 0, to: &target) }
        var lying = source.track!
        lying.format.framesPerPacket = 0
        #expect(throws: WriteError.self) { _ = try MPEGWriter(track: lying, tags: NormalizedTags(), leadingTrim: 5_000, to: &target) }
        #expect(throws: WriteError.self) { try source.write(.mp3, packets: 0..<4, leadingTrim: 3_000, trailingTrim: 4_000) }
    }

    /// A piece of the whole's decoded frames `start..<end`: the packets from the decoder's lead-in before the one
    /// holding `start` through the one holding `end - 1`, with the trims that leave exactly that range.
    static func cut(_ source: ParsedFixture, from start: Int64, to end: Int64) throws
        -> (bytes: [UInt8], packets: ArraySlice<(bytes: [UInt8], frames: Int64)>, leadingTrim: Int64, trailingTrim: Int64) {
        let format = source.track!.format
        let priming = Int64(source.packetTableInfo!.primingFrames)
        let framesPerPacket = Int64(format.framesPerPacket)
        let leadIn = DecoderLeadIn.of(format)
        let leadInPackets = max(Int64(leadIn.packets), (leadIn.frames + framesPerPacket - 1) / framesPerPacket)
        let first = max((start + priming) / framesPerPacket - leadInPackets, 0)
        let last = (end + priming - 1) / framesPerPacket
        let leadingTrim = start + priming - first * framesPerPacket
        let trailingTrim = (last + 1) * framesPerPacket - end - priming
        let range = Int(first)..<Int(last) + 1
        let bytes = try source.write(.mp3, packets: range, leadingTrim: leadingTrim, trailingTrim: trailingTrim)
        return (bytes, source.packets[range], leadingTrim, trailingTrim)
    }

    /// ffprobe's duration is the Xing frame's count of frames, from which its start (the LAME tag's delay plus the
    /// decoder's) and the trailing trim leave `frames`; ffmpeg and mpg123 decode `frames`, and mutagen counts as
    /// many; FFmpeg's check of the LAME tag's CRC passed (it then names the encoder).
    private func expectStatedLength(of path: String, source: ParsedFixture, frames: Int64, trailingTrim: Int64) throws {
        let format = source.track!.format
        let duration = try #require(Double(WrittenFile.ffprobe("stream=duration", of: path)))
        let start = try #require(Double(WrittenFile.ffprobe("stream=start_time", of: path)))
        #expect(Int64(((duration - start) * format.sampleRate).rounded()) - trailingTrim == frames)
        let stated = Int(frames) * Int(format.channelsPerFrame)
        #expect(try FFmpegTool.decode(path).count == stated)
        // mpg123 honours the LAME tag too (its samples differ from FFmpeg's in the last bits: another decoder).
        #expect(try FFmpegTool.run("mpg123", ["-q", "-s", path]).output.count == stated * 2)
        let info = try WrittenFile.mutagen("""
            import mutagen.mp3
            info = mutagen.mp3.MP3(sys.argv[1]).info
            print(json.dumps({'frames': round(info.length * info.sample_rate)}))
            """, path)
        #expect(info["frames"] as? Int == stated / Int(format.channelsPerFrame))
        #expect(try WrittenFile.ffprobe("stream_tags=encoder", of: path).hasPrefix("LAME"))
    }
}
