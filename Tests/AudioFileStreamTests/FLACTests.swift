import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// Native FLAC against ffprobe's packets (whole frames) on the IETF conformance files and the fixtures, in any
/// chunking and cut anywhere; its properties against ffprobe and metaflac; its tags against mutagen; and the
/// damaged fixtures against the truth the fixture script composed.
@Suite struct FLACTests {
    static let conformance = Fixtures.flacConformance
    static let fixtures = Fixtures.flac
    /// Fixtures with a `fLaC` header and nothing wrong.
    static let clean = fixtures.filter {
        ["flac-44k-stereo", "flac-small-blocks", "flac-48k-24bit", "flac-short-last-frame", "flac-tags-picture",
         "flac-tags-totals"]
            .contains($0.file.deletingPathExtension().lastPathComponent)
    }

    @Test func everyFileIsThere() {
        #expect(Self.conformance.count == 6)
        #expect(Self.fixtures.count == 12)
        #expect(Self.clean.count == 6)
    }

    @Test(arguments: conformance)
    func conformanceFilesParseToFFprobesPackets(fixture: Fixtures.Fixture) throws {
        for chunking in [Chunking.whole, .random(seed: 19)] {
            let (packets, stream) = try ADTSTests.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
            try Self.expectFormat(of: stream, matches: try #require(fixture.facts))
        }
    }

    @Test(arguments: fixtures)
    func fixturesParseToTheirPacketsInAnyChunking(fixture: Fixtures.Fixture) throws {
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 23)] {
            let (packets, _) = try ADTSTests.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
        }
        // The hint changes nothing.
        let (hinted, _) = try ADTSTests.parsePackets(fixture.bytes, chunking: .random(seed: 29), hint: .flac)
        #expect(hinted == fixture.expectedPacketsWithFrames)
    }

    @Test(arguments: clean)
    func propertiesMatchFFprobeAndMetaflac(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let (_, stream) = try ADTSTests.parsePackets(fixture.bytes, chunking: .random(seed: 31))
        try Self.expectFormat(of: stream, matches: facts)
        #expect(try stream.property(.fileFormat) == .fileType(.flac))
        #expect(try stream.property(.packetSizeUpperBound) == .uint32(UInt32(facts["maxFrameSize"] as! Int)))
        #expect(try stream.property(.packetTableInfo) == .packetTableInfo(PacketTableInfo(
            validFrames: Int64(facts["totalSamples"] as! Int), primingFrames: 0, remainderFrames: 0)))
        #expect(stream.dataOffset == Int64(facts["firstPacketOffset"] as! Int))
    }

    /// Rate, channels, Core Audio's source-depth flags, variable frames per packet, and STREAMINFO as the cookie.
    static func expectFormat(of stream: AudioFileStream, matches facts: [String: Any]) throws {
        let format = try #require(stream.dataFormat)
        #expect(format.formatID == AudioFormatID.flac)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
        #expect(format.framesPerPacket == 0)
        let flags: [Int: UInt32] = [16: 1, 20: 2, 24: 3, 32: 4]
        #expect(format.formatFlags == flags[facts["bitsPerSample"] as! Int] ?? 0)
        #expect(try stream.property(.magicCookieData) == .data(ADTSTests.bytes(hex: facts["streamInfo"] as! String)))
    }

    /// Frames only, as a stream joined at a frame: found without a hint, no cookie, the format from the headers.
    @Test func aStreamOfFramesAloneHasNoCookie() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-frames-only.flac" })
        let (packets, stream) = try ADTSTests.parsePackets(fixture.bytes, chunking: .random(seed: 37))
        #expect(packets == fixture.expectedPacketsWithFrames)
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.magicCookieData) }
        #expect(stream.dataFormat?.sampleRate == 44100 && stream.dataFormat?.channelsPerFrame == 2)
    }

    /// A stream joined mid-frame, or mid-header: exactly the packets wholly after the cut.
    @Test(arguments: ["flac-44k-stereo.flac", "flac-small-blocks.flac"])
    func aStreamCutAnywhereGivesExactlyTheFollowingPackets(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let bytes = fixture.bytes
        for cut in [1, 7, 50, 1000, bytes.count / 2 + 3] {
            let following = fixture.expectedPacketsWithFrames.filter { $0[0] >= cut }
                .map { [$0[0] - Int64(cut), $0[1], $0[2]] }
            let (packets, _) = try ADTSTests.parsePackets(Array(bytes[cut...]), chunking: .random(seed: UInt64(cut)))
            #expect(packets == following, "cut at \(cut)")
        }
    }

    /// A cut exactly between frames loses nothing else, and no byte is skipped as junk (seeded cuts anywhere:
    /// DiscontinuityTests).
    @Test(arguments: ["flac-44k-stereo.flac", "flac-small-blocks.flac", "flac-rate-change.flac"])
    func aCutBetweenFramesLosesNothingElse(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let bytes = fixture.bytes
        let expected = fixture.expectedPackets
        let boundary = Int(expected[3].offset)..<Int(expected[5].offset)
        let (events, _) = try parse(bytes, skips: [boundary])
        #expect(events.packets == Array(expected[..<3] + expected[5...]))
        #expect(!events.contains { if case .discontinuity(let gap) = $0 { gap.reason == .resync } else { false } })
    }

    /// The fixture script's truth: the cut last frame, and the frame junk follows, are no packets; junk and cut
    /// bytes are reported as skipped.
    @Test(arguments: ["flac-cut-end.flac", "flac-junk-between.flac"])
    func damagedStreamsSkipWhatIsNotAWholeFrame(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let (events, _) = try parse(fixture.bytes, chunking: .random(seed: 41))
        #expect(events.packets == fixture.expectedPackets)
        let packetBytes = fixture.expectedPackets.reduce(0) { $0 + $1.size }
        let skipped = events.reduce(Int64(0)) { total, event in
            if case .discontinuity(let gap) = event, gap.reason == .resync { total + gap.skippedBytes } else { total }
        }
        let firstPacket = Int(fixture.expectedPackets[0].offset)
        #expect(Int(skipped) == fixture.bytes.count - firstPacket - packetBytes)
    }

    /// A frame whose CRC-16 fails is not emitted, and parsing goes on at the next frame.
    @Test func aFrameWithABadCRC16IsSkipped() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-44k-stereo.flac" })
        let expected = fixture.expectedPackets
        var bytes = fixture.bytes
        bytes[Int(expected[4].offset) + 100] ^= 0x10
        let (events, _) = try parse(bytes, chunking: .random(seed: 43))
        #expect(events.packets == expected.filter { $0 != expected[4] })
        #expect(events.contains(.discontinuity(Discontinuity(
            offset: expected[5].offset, skippedBytes: Int64(expected[4].size), reason: .resync))))
    }

    /// Sync words planted in the audio (a copy of the next frame's header, with a good CRC-8) never split a
    /// packet: the CRC-16 and the frame numbers decide.
    @Test func aFalseSyncInTheAudioNeverSplitsAPacket() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-44k-stereo.flac" })
        let expected = fixture.expectedPackets
        let bytes = fixture.bytes
        let nextHeader = Array(bytes[Int(expected[3].offset)..<Int(expected[3].offset) + 16])
        var planted = bytes
        // Inside packet 2, a copy of packet 3's header: a sync lookalike with everything right but its place.
        planted.replaceSubrange(Int(expected[2].offset) + 500..<Int(expected[2].offset) + 516, with: nextHeader)
        let (events, _) = try parse(planted, chunking: .random(seed: 47))
        // Packet 2's CRC-16 now fails: it is dropped whole, never cut at the lookalike, and the rest is exact.
        #expect(events.packets == expected.filter { $0 != expected[2] })
    }

    @Test func aMidStreamFormatChangeIsAnnouncedBeforeItsFirstPacket() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-rate-change.flac" })
        let change = try #require((fixture.facts?["formatChanges"] as? [[String: Any]])?.first)
        let changeOffset = fixture.expectedPackets[change["packetIndex"] as! Int].offset
        for chunking in [Chunking.whole, .fixed(1)] {
            let (events, _) = try parse(fixture.bytes, chunking: chunking)
            let formats = events.enumerated().compactMap { index, event -> (Int, AudioStreamBasicDescription)? in
                if case .property(.dataFormat, .format(let format)) = event { (index, format) } else { nil }
            }
            #expect(formats.map(\.1.sampleRate) == [44100, Double(change["sampleRate"] as! Int)])
            #expect(formats.map(\.1.channelsPerFrame) == [2, UInt32(change["channels"] as! Int)])
            let firstOfNew = try #require(events.firstIndex {
                if case .packet(changeOffset, _, _) = $0 { true } else { false }
            })
            let lastOfOld = try #require(events.lastIndex {
                if case .packet(let offset, _, _) = $0 { offset < changeOffset } else { false }
            })
            #expect(lastOfOld < formats[1].0 && formats[1].0 < firstOfNew, "\(chunking)")
        }
    }

    /// STREAMINFO's maxima are broken by every frame: one warning, the frames followed, PacketSizeUpperBound
    /// raised before the first packet above it.
    @Test func aLyingStreamInfoIsReportedOnceAndTheFramesFollowed() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-lying-streaminfo.flac" })
        let (events, _) = try parse(fixture.bytes, chunking: .random(seed: 53))
        #expect(events.packets == fixture.expectedPackets)
        let warnings = events.compactMap { if case .warning(let warning) = $0 { warning } else { nil } }
        #expect(warnings.map(\.kind) == [.headerMismatch])
        #expect(warnings.first?.offset == fixture.expectedPackets[0].offset)
        var bound: UInt32 = 0
        for event in events {
            if case .property(.packetSizeUpperBound, .uint32(let value)) = event { bound = value }
            if case .packet(_, let size, _) = event { #expect(UInt32(size) <= bound) }
        }
        #expect(fixture.facts?["statedMaxFrameSize"] as? Int == 200)
    }

    /// The header's comments and pictures are one tag, mutagen's comments then its PICTURE blocks, at the first
    /// block that gave a field.
    @Test(arguments: [Chunking.whole, .fixed(1), .random(seed: 59)])
    func tagsMatchMutagen(chunking: Chunking) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-tags-picture.flac" })
        let recorded = try #require(fixture.recordedTags)
        let (events, _) = try parse(fixture.bytes, chunking: chunking)
        #expect(events.tags.count == 1)
        let (offset, metadata) = try #require(events.tags.first)
        #expect(offset == Int64(recorded["tagOffset"] as! Int) && metadata.source == .vorbisComment)
        let comments = recorded["comments"] as! [[String]]
        let pictures = recorded["pictures"] as! [[String: Any]]
        #expect(metadata.raw.count == comments.count + pictures.count)
        #expect(metadata.raw.map(\.key) == comments.map { $0[0] } + pictures.map { _ in "METADATA_BLOCK_PICTURE" })
        let front = try #require(metadata.tags.artwork)
        try VorbisCommentTests.expect(front, equals: pictures[0])
        #expect(metadata.tags.title == comments.first { $0[0] == "TITLE" }?[1])
        #expect(metadata.tags.trackNumber == 3 && metadata.tags.trackCount == 12)
    }

    @Test func anID3TagBeforeTheHeaderIsReadToo() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-id3-before.flac" })
        for hint in [nil, AudioFileType.flac] {
            let (events, stream) = try parse(fixture.bytes, chunking: .random(seed: 61), hint: hint)
            #expect(events.packets == fixture.expectedPackets)
            #expect(events.tags.map(\.metadata.source) == ["id3v2.4"])
            #expect(events.tags.first?.metadata.tags.title == fixture.facts?["id3Title"] as? String)
            #expect(try stream.property(.magicCookieData)
                == .data(ADTSTests.bytes(hex: fixture.facts?["streamInfo"] as! String)))
        }
    }

    /// A leading ID3v2 tag the input ends inside gives the frames read before the end, as a tag between MPEG
    /// frames does, and no bytes are reported skipped: the tag took them. The fixture's tag, given 100 bytes of
    /// padding, is cut inside them.
    @Test func aLeadingID3TagCutByTheEndOfTheInputGivesTheFramesReadBeforeIt() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-id3-before.flac" })
        let bodySize = fixture.bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        #expect(bodySize + 100 < 128)
        let padded = Array(fixture.bytes[..<9]) + [UInt8(bodySize + 100)] + fixture.bytes[10..<10 + bodySize]
            + [UInt8](repeating: 0, count: 50)
        for (chunking, hint) in [(Chunking.whole, AudioFileType.flac), (.fixed(5), .flac), (.whole, nil)] {
            let (events, _) = try parse(padded, chunking: chunking, hint: hint)
            #expect(events.tags.map(\.metadata.source) == ["id3v2.4"])
            #expect(events.tags.first?.metadata.tags.title == fixture.facts?["id3Title"] as? String)
            #expect(!events.contains { if case .discontinuity = $0 { true } else { false } })
            #expect(events.packets.isEmpty)
        }
    }

    // MARK: - Bad headers

    /// `fLaC`, then the given blocks (type, body; the last flagged), then the clean fixture's frames.
    static func withBlocks(_ blocks: [(type: UInt8, body: [UInt8])], claimedLengths: [Int?]? = nil) throws -> [UInt8] {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-44k-stereo.flac" })
        let frames = Array(fixture.bytes[Int(fixture.expectedPackets[0].offset)...])
        var bytes = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let length = claimedLengths?[index] ?? block.body.count
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            bytes += [last | block.type, UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            bytes += block.body
        }
        return bytes + frames
    }

    static var streamInfo: [UInt8] {
        let fixture = Self.fixtures.first { $0.name == "flac-44k-stereo.flac" }!
        return Array(fixture.bytes[8..<42])
    }

    /// A 16 MB picture streams past: described, not held, and the frames after it are read.
    @Test func aHugePictureStreamsPastWithBoundedMemory() throws {
        var picture = [UInt8](repeating: 0, count: 16_000_000)
        let header: [UInt8] = [0, 0, 0, 3, 0, 0, 0, 9] + Array("image/png".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        let dataLength = picture.count - header.count - 4
        picture.replaceSubrange(0..<header.count + 4, with: header + [UInt8(dataLength >> 24), UInt8(dataLength >> 16 & 0xFF),
                                                                      UInt8(dataLength >> 8 & 0xFF), UInt8(dataLength & 0xFF)])
        let bytes = try Self.withBlocks([(0, Self.streamInfo), (6, picture)])
        var tags: [Metadata] = []
        var packets = 0
        let stream = try AudioFileStream { event in
            if case .metadata(let tag) = event { tags.append(tag.metadata) }
            if case .packets(let batch) = event { packets += batch.descriptions!.count }
        }
        let held = try feedMeasuringHeldBytes(bytes, to: stream)
        #expect(held < 1 << 17)
        #expect(packets == 11)
        guard case .picture(let artwork) = tags.first?.raw.first?.value else { Issue.record("no picture"); return }
        #expect(artwork.size == dataLength && artwork.data.isEmpty && artwork.mimeType == "image/png")
    }

    /// A block claiming more bytes than the input has, a truncated STREAMINFO, the forbidden block type: no
    /// hang, nothing held, no false packet; the frames after a bad block are still found.
    @Test func badHeaderBlocksEndCleanly() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-44k-stereo.flac" })
        let packetsAfter = fixture.expectedPacketsWithFrames.count
        // Type 127 is forbidden: the frames reader takes over and resyncs on the first frame.
        let forbidden = try Self.withBlocks([(0, Self.streamInfo), (127, [1, 2, 3])])
        #expect(try ADTSTests.parsePackets(forbidden, chunking: .random(seed: 3)).packets.count == packetsAfter)
        // A comment block claiming 16 MB (the most 24 bits hold) swallows the frames: no packets, all skipped, nothing held at the end.
        let pastEnd = try Self.withBlocks([(0, Self.streamInfo), (4, [0, 0, 0, 0])], claimedLengths: [nil, 0xFF_FFFF])
        let (events, stream) = try parse(pastEnd, chunking: .random(seed: 5))
        #expect(events.packets.isEmpty && stream.bufferedByteCount == 0)
        #expect(events.contains { if case .discontinuity(let gap) = $0 { gap.reason == .resync } else { false } })
        // The input ends inside STREAMINFO.
        for cut in [5, 8, 20, 41] {
            let (cutEvents, cutStream) = try parse(Array(fixture.bytes.prefix(cut)), chunking: .fixed(1))
            #expect(cutEvents.packets.isEmpty && cutStream.bufferedByteCount == 0, "cut at \(cut)")
        }
    }

    /// A frame header whose 16-bit block size says 65536 is no header: a stream of such frames gives nothing.
    @Test func aBlockSizeOf65536IsRefused() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "flac-frames-only.flac" })
        var bytes = fixture.bytes
        for row in fixture.expectedPackets {
            let start = Int(row.offset)
            let header = try #require(bytes.withUnsafeBytes { FLACFrameHeader(bytes: $0, at: start) })
            // Block size code 7 with 0xFFFF where the coded number ends, and a good CRC-8: only the size is wrong.
            var rewritten = Array(bytes[start..<start + header.length - 1])
            rewritten[2] = 0x70 | rewritten[2] & 0x0F
            rewritten += [0xFF, 0xFF]
            rewritten.append(FLACFrameHeaderTests.crc8(rewritten))
            bytes.replaceSubrange(start..<start + rewritten.count, with: rewritten)
        }
        let (packets, _) = try ADTSTests.parsePackets(bytes, hint: .flac)
        #expect(packets.isEmpty)
    }

    /// A PICTURE block whose header says 0 bytes (a tagger's, as in mutagen's 106-short-picture-block-size.flac)
    /// turns the blocks after it into garbage, so no frame is found: the stream is still what STREAMINFO states,
    /// and lasts as long as mutagen says (the duration fixture's record).
    @Test func blocksThatLieAfterStreamInfoKeepItsLength() throws {
        let file = Fixtures.directory.appendingPathComponent("duration/flac-short-picture.flac")
        let record = Fixtures.expected.appendingPathComponent("duration/flac-short-picture.json")
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        let (events, stream) = try parse([UInt8](try Data(contentsOf: file)))
        #expect(events.packets.isEmpty)
        #expect(stream.dataFormat?.formatID == AudioFormatID.flac)
        #expect(stream.duration?.seconds == facts["mutagen"] as? Double)
    }
}
