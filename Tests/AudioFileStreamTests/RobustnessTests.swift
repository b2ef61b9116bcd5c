import Testing
import FixtureSupport
@testable import AudioFileStream

/// Bad input: never a crash, never a hang, never unbounded buffering, every byte accounted for.
@Suite struct RobustnessTests {
    /// Bytes in packets and skips, which together cover the whole of a stream without tags or Xing frames.
    /// Feeds `bytes` in chunks of 1…8192 bytes, then finishes; returns the most bytes the stream held between
    /// calls.
    static func feedInRandomChunks(_ bytes: [UInt8], to stream: AudioFileStream, random: inout TestRandom) throws
        -> Int {
        var maximumBuffered = 0
        var position = 0
        while position < bytes.count {
            let end = min(position + Int(random.next() % 8192) + 1, bytes.count)
            try stream.parse(Array(bytes[position..<end]))
            maximumBuffered = max(maximumBuffered, stream.bufferedByteCount)
            position = end
        }
        try stream.finish()
        return maximumBuffered
    }

    static func accountedBytes(_ events: [RecordedEvent]) -> Int64 {
        let packetBytes = events.packets.reduce(Int64(0)) { $0 + Int64($1.size) }
        let skipped = events.reduce(Int64(0)) { total, event in
            if case .discontinuity(let gap) = event, gap.reason == .resync { total + gap.skippedBytes } else { total }
        }
        return packetBytes + skipped
    }

    @Test func noiseIsSkippedWithoutCrashOrGrowth() throws {
        var random = TestRandom(seed: 42)
        var noise = (0..<2_000_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        // Plant fake sync words that claim lengths where no frame follows.
        for position in stride(from: 0, to: noise.count - 4, by: 997) {
            noise.replaceSubrange(position..<position + 4, with: [0xFF, 0xFB, 0x90, 0x64])
        }
        let stream = try AudioFileStream { _ in }
        let maximumBuffered = try Self.feedInRandomChunks(noise, to: stream, random: &random)
        // Junk with no chain of frames is held while the type is sniffed, then only frames are.
        #expect(maximumBuffered < FormatSniffer.searchLength + 8192, "buffering is bounded, not by the junk")
    }

    @Test func junkAroundAStreamIsAccountedFor() throws {
        var random = TestRandom(seed: 7)
        let junk = (0..<50_000).map { _ in UInt8(truncatingIfNeeded: random.next() | 0x80) }
        let audio = Fixtures.named("l3-noxing.mp3").bytes
        let (events, _) = try parse(junk + audio + junk, chunking: .random(seed: 3))
        let shifted = Fixtures.named("l3-noxing.mp3").expectedPackets.map {
            PacketRecord(offset: $0.offset + Int64(junk.count), size: $0.size)
        }
        // The last frame before trailing junk is whole and its start was confirmed: a packet too.
        #expect(events.packets == shifted)
        #expect(Self.accountedBytes(events) == Int64(junk.count * 2 + audio.count))
    }

    @Test func tinyAndEmptyInputsEndCleanly() throws {
        for input in [[], [0xFF], [0xFF, 0xFB], [0x49, 0x44, 0x33], Array(repeating: UInt8(0xFF), count: 10_000)] {
            let (events, _) = try parse(input, chunking: .fixed(1))
            #expect(events.packets.isEmpty)
        }
    }

    @Test func aSingleCompleteFrameIsAPacket() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        let first = fixture.expectedPackets[0]
        let (events, _) = try parse(Array(fixture.bytes[Int(first.offset)..<Int(first.offset) + first.size]))
        #expect(events.packets == [PacketRecord(offset: 0, size: first.size)])
    }

    /// RIFF and IFF forms other than WAVE and AIFF (an AVI, an 8SVX) are recognised and refused.
    @Test func unsupportedContainersAreRefused() throws {
        let avi = Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)
        #expect(throws: AudioFileStreamError.unsupportedFileType) { try parse(avi) }
        let eightSVX = Array("FORM\u{0}\u{0}\u{0}\u{0}8SVXVHDR".utf8)
        #expect(throws: AudioFileStreamError.unsupportedFileType) { try parse(eightSVX) }
        #expect(throws: AudioFileStreamError.unsupportedFileType) {
            try AudioFileStream(fileTypeHint: AudioFileType(rawValue: "RIFF")) { _ in }
        }
    }

    @Test func parsingAfterFinishIsRefused() throws {
        let stream = try AudioFileStream { _ in }
        try stream.finish()
        #expect(throws: AudioFileStreamError.illegalOperation) { try stream.parse([0xFF]) }
    }
}

extension RobustnessTests {
    /// `l3-vbr-v2.mp3` with its Xing tag (at byte 36: 4 header + 32 side-information bytes) overwritten.
    static func vbrWithXing(frames: UInt32, bytes: UInt32, delayAndPadding: UInt32) -> [UInt8] {
        var file = Fixtures.named("l3-vbr-v2.mp3").bytes
        func put(_ value: UInt32, at offset: Int, count: Int) {
            for index in 0..<count { file[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - index))) }
        }
        put(frames, at: 36 + 8, count: 4)
        put(bytes, at: 36 + 12, count: 4)
        put(delayAndPadding, at: 36 + 120 + 21, count: 3)  // LAME tag: 12 bits delay, 12 bits padding
        return file
    }

    @Test func hostileXingCountsAreNotTrusted() throws {
        let file = Self.vbrWithXing(frames: 1, bytes: .max, delayAndPadding: 0xFF_FFFF)
        let (events, stream) = try parse(file)
        #expect(events.packets == Fixtures.named("l3-vbr-v2.mp3").expectedPackets)
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.packetTableInfo) }
        // The first frame's own bit rate, since the stated average is impossible.
        guard case .uint32(let bitRate) = try stream.property(.bitRate) else { return }
        #expect(bitRate <= 320_000)
    }

    /// ADTS behind a megabyte of junk (past the sniffer's window) is found, with bounded buffering; MP3 behind
    /// a lone ADTS header is MP3. Expected packets: ffprobe's lists, shifted.
    @Test func aStreamBehindJunkOrAFalseHeaderIsFound() throws {
        var random = TestRandom(seed: 21)
        let junk = (0..<1_048_576).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let aac = Fixtures.codecs.first { $0.name == "adts-lc-44k-stereo.aac" }!
        var packets: [Int64] = []
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            packets += batch.descriptions!.map { batch.streamOffset + $0.startOffset }
        }
        let maximumBuffered = try Self.feedInRandomChunks(junk + aac.bytes, to: stream, random: &random)
        #expect(packets == aac.expectedPacketsWithFrames.map { $0[0] + Int64(junk.count) })
        #expect(stream.dataFormat?.formatID == AudioFormatID.mpeg4AAC)
        #expect(maximumBuffered < FormatSniffer.searchLength + 8192)

        // An ADTS header (AAC LC, 44.1 kHz, stereo, 16-byte frame) with nothing chained after it, then MP3.
        let mp3 = Fixtures.named("l3-cbr128-joint.mp3")
        let prefix: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + Array(repeating: 0x55, count: 9)
        let (events, _) = try parse(prefix + mp3.bytes, chunking: .random(seed: 8))
        #expect(events.packets == mp3.expectedPackets.map {
            PacketRecord(offset: $0.offset + Int64(prefix.count), size: $0.size)
        })
    }
}
