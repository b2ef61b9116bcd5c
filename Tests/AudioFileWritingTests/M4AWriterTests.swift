import AudioFileStream
@testable import AudioFileWriting
import Foundation
import FixtureSupport
import Testing

@Suite final class M4AWriterTests {
    /// This test's files, removed when it ends.
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("m4a-writer")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A whole fixture written again holds its packets and trims: ffprobe reads it without a warning and states
    /// the fixture's length, ffmpeg decodes it to the fixture's very samples, and our parser reads back the
    /// packets, cookie and packet table.
    @Test(arguments: ["mp4/aac-lc-faststart.m4a", "writing/aac-lc-nopns.m4a", "mp4/alac.m4a"])
    func wholeFixtureWrittenAgain(name: String) throws {
        let fixture = Fixtures.directory.appendingPathComponent(name).path
        let parsed = try ParsedTrack(URL(fileURLWithPath: fixture))
        let table = try #require(parsed.packetTable)
        let path = folder.appendingPathComponent("whole.m4a").path
        try parsed.writeM4A(0..<parsed.packets.count, leadingTrim: Int64(table.primingFrames),
                            trailingTrim: Int64(table.remainderFrames), to: path)

        #expect(try FFmpegTool.warnings(path) == "")
        #expect(try M4ATools.probe(path, stream: "duration_ts") == M4ATools.probe(fixture, stream: "duration_ts"))
        #expect(try FFmpegTool.decode(path) == FFmpegTool.decode(fixture))
        let reread = try ParsedTrack(URL(fileURLWithPath: path))
        #expect(reread.track == parsed.track)
        #expect(reread.packets.map(\.bytes) == parsed.packets.map(\.bytes))
        #expect(reread.packetTable == table)
    }

    /// The clean ADTS fixtures: every rate from 7350 Hz to 96 kHz, mono to 5.1, MPEG-2 and -4, CRCs (the
    /// parser leaves frames of several raw data blocks out, so `adts-lc-44k-mono-multi-rdb.aac` is not one).
    static let adtsFixtures = ["adts-lc-22k-stereo.aac", "adts-lc-44k-mono-crc.aac", "adts-lc-44k-mono.aac",
                               "adts-lc-44k-stereo.aac", "adts-lc-48k-5.1.aac", "adts-lc-48k-stereo.aac",
                               "adts-lc-7350-mono.aac", "adts-lc-8k-mono.aac", "adts-lc-96k-stereo.aac",
                               "adts-lc-mpeg2-32k-stereo.aac"]

    @Test func everyCleanADTSFixtureIsWritten() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path)
            .filter { $0.hasPrefix("adts-lc-") && !$0.contains("multi-rdb") }
        #expect(Set(Self.adtsFixtures) == Set(names))
        #expect(Self.adtsFixtures.count == 10)
    }

    /// ADTS gives AAC too: its cookie is the AudioSpecificConfig the parser builds from the frame headers.
    @Test(arguments: adtsFixtures)
    func adtsPacketsMakeAnM4A(name: String) throws {
        let fixture = Fixtures.directory.appendingPathComponent(name).path
        let parsed = try ParsedTrack(URL(fileURLWithPath: fixture))
        let path = folder.appendingPathComponent("adts.m4a").path
        try parsed.writeM4A(0..<parsed.packets.count, leadingTrim: 0, trailingTrim: 0, to: path)
        #expect(try FFmpegTool.warnings(path) == "")
        #expect(try FFmpegTool.decode(path) == FFmpegTool.decode(fixture))
    }

    /// Cuts from the middle, each beginning with the decoder's lead-in and trimming it, decode to the whole's
    /// samples over their range, and two consecutive cuts join to exactly the range of both.
    @Test func middleCutsDecodeToTheWholesSamples() throws {
        let fixture = Fixtures.aacWithoutNoiseSubstitution.path
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        let priming = Int64(try #require(parsed.packetTable).primingFrames)
        let whole = try FFmpegTool.decode(fixture)
        let channels = Int(parsed.track.format.channelsPerFrame)
        let leadIn = DecoderLeadIn.of(parsed.track.format).packets
        // The samples of the whole's decode (which starts after the priming) that packets `range` give.
        func samples(_ range: Range<Int>) -> Range<Int> {
            Int(parsed.frame(atPacket: range.lowerBound) - priming) * channels
                ..< Int(parsed.frame(atPacket: range.upperBound) - priming) * channels
        }
        let bounds = [20, 57, 100]
        var joined: [Float] = []
        for (index, (start, end)) in zip(bounds, bounds.dropFirst()).enumerated() {
            let path = folder.appendingPathComponent("cut\(index).m4a").path
            let trim = parsed.frame(atPacket: start) - parsed.frame(atPacket: start - leadIn)
            try parsed.writeM4A(start - leadIn..<end, leadingTrim: trim, trailingTrim: 0, to: path)
            #expect(try FFmpegTool.warnings(path) == "")
            let kept = parsed.frame(atPacket: end) - parsed.frame(atPacket: start)
            #expect(try M4ATools.probe(path, stream: "duration_ts") == "\(kept)")
            let cut = try FFmpegTool.decode(path)
            #expect(cut.count == Int(kept) * channels)
            #expect(cut == Array(whole[samples(start..<end)]))
            joined += cut
        }
        #expect(joined == Array(whole[samples(bounds[0]..<bounds[2])]))
    }

    /// Trims are stated exactly (ffprobe's length, our parser's packet table, iTunSMPB's fields for mutagen's
    /// users), a start trim that ends mid-packet included. ffmpeg 5.1 honours the start trim to the frame; at the
    /// end it leaves out the whole packets past the edit but not the part of the last one, as with the files its
    /// own muxer writes, so its decode ends at the packet holding the last frame kept.
    @Test(arguments: [(0, 0), (300, 500), (1024, 1024), (2348, 1500)])
    func trimsAreStated(extraLeadingTrim: Int64, trailingTrim: Int64) throws {
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        let fixture = Fixtures.aacWithoutNoiseSubstitution.path
        let priming = Int64(try #require(parsed.packetTable).primingFrames)
        let channels = Int(parsed.track.format.channelsPerFrame)
        let path = folder.appendingPathComponent("trimmed.m4a").path
        let leadingTrim = priming + extraLeadingTrim
        try parsed.writeM4A(0..<30, leadingTrim: leadingTrim, trailingTrim: trailingTrim, to: path)
        let total = parsed.frame(atPacket: 30)
        let kept = total - leadingTrim - trailingTrim
        #expect(try FFmpegTool.warnings(path) == "")
        #expect(try M4ATools.probe(path, stream: "duration_ts") == "\(kept)")
        #expect(try ParsedTrack(URL(fileURLWithPath: path)).packetTable
            == PacketTableInfo(validFrames: kept, primingFrames: Int32(leadingTrim),
                               remainderFrames: Int32(trailingTrim)))
        let smpb = try M4ATools.mutagen("import sys, mutagen.mp4; print(bytes(mutagen.mp4.MP4(sys.argv[1])"
                                        + "['----:com.apple.iTunes:iTunSMPB'][0]).decode())", path)
        let fields = smpb.split(separator: " ").map {
            Int64($0.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16)
        }
        #expect(Array(fields[1...3]) == [leadingTrim, trailingTrim, kept])
        let lastPacketEnd = Int(total - priming - trailingTrim / parsed.packets[0].frames * parsed.packets[0].frames)
        let whole = try FFmpegTool.decode(fixture)
        let expected = whole[Int(extraLeadingTrim) * channels..<lastPacketEnd * channels]
        #expect(try FFmpegTool.decode(path) == Array(expected))
    }

    /// Chunks past 4 GiB are found through 64-bit offsets (`co64`): a piece whose packets lie after a sparse
    /// 4 GiB `free` box decodes as the same packets written plainly.
    @Test func chunksPast4GiB() throws {
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        let plain = folder.appendingPathComponent("plain.m4a").path
        try parsed.writeM4A(0..<60, leadingTrim: 1024, trailingTrim: 0, to: plain)
        let big = folder.appendingPathComponent("big.m4a").path
        var target = try SparseFileTarget(creating: big)
        defer { target.close() }
        var writer = try M4AWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 1024, to: &target)
        let gap: Int64 = 1 << 32
        let largeSize = withUnsafeBytes(of: UInt64(16 + gap).bigEndian, Array.init)
        try target.append([0, 0, 0, 1] + Array("free".utf8) + largeSize)
        target.skip(gap)
        for index in 0..<60 {
            try parsed.packets[index].bytes.withUnsafeBytes {
                try writer.append($0, frames: parsed.packets[index].frames, to: &target)
            }
        }
        try writer.finish(trailingTrim: 0, to: &target)
        #expect(target.size > gap)
        #expect(try FFmpegTool.warnings(big) == "")
        #expect(try FFmpegTool.decode(big) == FFmpegTool.decode(plain))
    }

    /// A start trim on ALAC, which has no lead-in, is honoured too, and ALAC's cookie comes from CAF as well.
    @Test(arguments: ["mp4/alac.m4a", "caf/caf-alac-44k-stereo.caf"])
    func alacCutWithStartTrim(name: String) throws {
        let fixture = Fixtures.directory.appendingPathComponent(name).path
        let parsed = try ParsedTrack(URL(fileURLWithPath: fixture))
        let whole = try FFmpegTool.decode(fixture)
        let channels = Int(parsed.track.format.channelsPerFrame)
        let path = folder.appendingPathComponent("alac.m4a").path
        let trim: Int64 = 1000
        try parsed.writeM4A(1..<3, leadingTrim: trim, trailingTrim: 0, to: path)
        #expect(try FFmpegTool.warnings(path) == "")
        let start = Int(parsed.frame(atPacket: 1) + trim) * channels
        #expect(try FFmpegTool.decode(path) == Array(whole[start..<Int(parsed.frame(atPacket: 3)) * channels]))
    }

    /// Formats an M4A cannot hold, and cookies that are not their codec's, are refused, never trapped on.
    @Test func junkFormatsAreRefused() throws {
        let aac = AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpeg4AAC,
                                              framesPerPacket: 1024, channelsPerFrame: 2)
        let alac = AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.appleLossless,
                                               framesPerPacket: 4096, channelsPerFrame: 2)
        var silent = aac
        silent.sampleRate = 0
        let refused = [
            TrackFormat(format: aac, cookie: []), TrackFormat(format: aac, cookie: [0x07]),
            TrackFormat(format: aac, cookie: [0x00, 0x10]),
            TrackFormat(format: alac, cookie: [UInt8](repeating: 1, count: 23)),
            TrackFormat(format: silent, cookie: [0x12, 0x10]),
            TrackFormat(format: AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpegLayer3,
                                                            framesPerPacket: 1152, channelsPerFrame: 2)),
        ]
        for track in refused {
            var target = ByteArrayTarget()
            #expect(throws: WriteError.self) {
                _ = try M4AWriter(track: track, tags: NormalizedTags(), leadingTrim: 0, to: &target)
            }
        }
        var target = ByteArrayTarget()
        var writer = try M4AWriter(track: TrackFormat(format: aac, cookie: [0x12, 0x10]), tags: NormalizedTags(),
                                   leadingTrim: 0, to: &target)
        #expect(throws: WriteError.self) {
            try [UInt8](repeating: 0, count: 4).withUnsafeBytes { try writer.append($0, frames: -1, to: &target) }
        }
    }

    /// iTunSMPB is written as iTunes writes it (the form its readers and mutagen's users parse).
    @Test func gaplessInfoIsInITunesForm() {
        #expect(M4AMovie.gaplessInfo(priming: 2112, remainder: 704, kept: 88200)
            == " 00000000 00000840 000002C0 0000000000015888 00000000 00000000 00000000 00000000 00000000 00000000 "
                + "00000000 00000000")
    }
}
