import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// CAF against ffprobe: the packets of the packet-table formats (AAC, ALAC, Opus) exactly, the constant-size
/// formats (PCM, G.711, IMA4) as whole frames covering the audio, in any chunking; format, cookie, layout,
/// PacketTableInfo and tags; and bad input, from hand-built chunks, ending in a clear error or a resync.
@Suite struct CAFTests {
    static let fixtures = Fixtures.caf
    /// Cut by their packet table, which comes before the audio.
    static let described = fixtures.filter { $0.facts?["packetTableInfo"] != nil && !isPaktAfterData($0) }
    /// Cut by their description.
    static let constant = fixtures.filter { $0.facts?["packetTableInfo"] == nil }

    static func isPaktAfterData(_ fixture: Fixtures.Fixture) -> Bool {
        fixture.facts?["paktAfterData"] as? Bool == true
    }

    static func fixture(_ name: String) -> Fixtures.Fixture {
        fixtures.first { $0.name == name + ".caf" }!
    }

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.count == 13)
        #expect(Self.described.count == 3)
        #expect(Self.constant.count == 9)
    }

    @Test(arguments: described)
    func packetsMatchFFprobeInAnyChunking(fixture: Fixtures.Fixture) throws {
        for chunking in [Chunking.whole, .fixed(1), .fixed(7), .random(seed: 71)] {
            let (packets, _) = try ADTSTests.parsePackets(fixture.bytes, chunking: chunking)
            #expect(packets == fixture.expectedPacketsWithFrames, "\(chunking)")
        }
    }

    @Test(arguments: constant)
    func constantPacketsAreWholeFramesCoveringTheAudio(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        for chunking in [Chunking.whole, .fixed(1), .fixed(7), .random(seed: 73)] {
            let parse = try Self.run(fixture.bytes, chunking: chunking)
            let size = Int64(try #require(parse.stream.dataFormat).bytesPerPacket)
            #expect(parse.batches.first?.offset == Int64(facts["firstPacketOffset"] as! Int), "\(chunking)")
            #expect(parse.batches.allSatisfy { $0.size % size == 0 && !$0.hasDescriptions }, "\(chunking)")
            #expect(zip(parse.batches, parse.batches.dropFirst()).allSatisfy { $0.offset + $0.size == $1.offset })
            #expect(parse.batches.reduce(0) { $0 + $1.size } == Int64(facts["byteCount"] as! Int), "\(chunking)")
            #expect(parse.batches.reduce(0) { $0 + $1.frames } == Int64(facts["frameCount"] as! Int), "\(chunking)")
            #expect(parse.errors.isEmpty && parse.skipped == 0)
        }
    }

    /// Rate, channels and format ID as ffprobe reads them; linear PCM's flags as its codec name says.
    @Test(arguments: fixtures.filter { !isPaktAfterData($0) })
    func formatMatchesFFprobe(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let stream = try Self.run(fixture.bytes, chunking: .random(seed: 79)).stream
        let format = try #require(stream.dataFormat)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
        #expect(format.formatID.description == facts["codecTag"] as? String)
        #expect(try stream.property(.fileFormat) == .fileType(AudioFileType(rawValue: "caff")))
        #expect(stream.dataOffset == Int64(facts["firstPacketOffset"] as! Int))
        let flags: [String: UInt32] = [
            "pcm_s16le": LinearPCMFormatFlag.isSignedInteger | LinearPCMFormatFlag.isPacked,
            "pcm_s24be": LinearPCMFormatFlag.isSignedInteger | LinearPCMFormatFlag.isPacked
                | LinearPCMFormatFlag.isBigEndian,
            "pcm_f32le": LinearPCMFormatFlag.isFloat | LinearPCMFormatFlag.isPacked,
        ]
        if let expected = flags[facts["codec"] as! String] { #expect(format.formatFlags == expected) }
        // Core Audio's layout tags of the layouts ffprobe names (kAudioChannelLayoutTag_Mono, _Stereo,
        // _MPEG_5_1_A: L R C LFE Ls Rs, which ffmpeg calls 5.1(side)).
        let layouts: [String: UInt32] = ["mono": 100 << 16 | 1, "stereo": 101 << 16 | 2, "5.1(side)": 121 << 16 | 6]
        let layout = try #require(layouts[facts["channelLayout"] as! String])
        #expect(try stream.property(.channelLayout) == .channelLayout(AudioChannelLayout(tag: layout)))
    }

    @Test func aacCookieIsTheAudioSpecificConfigFFprobeFinds() throws {
        let facts = try #require(Self.fixture("caf-aac-44k-stereo").facts)
        let (_, stream) = try ADTSTests.parsePackets(Self.fixture("caf-aac-44k-stereo").bytes)
        #expect(facts["extradata"] as? String == facts["audioSpecificConfig"] as? String)
        #expect(try stream.property(.magicCookieData) == .data(ADTSTests.bytes(hex: facts["extradata"] as! String)))
        #expect(stream.dataFormat?.formatFlags == 2 && stream.dataFormat?.framesPerPacket == 1024)
    }

    /// ffprobe's ALAC extradata is the `alac` atom: a 12-byte atom header, then the ALACSpecificConfig.
    @Test func alacCookieIsTheConfigUnwrapped() throws {
        let fixture = Self.fixture("caf-alac-44k-stereo")
        let extradata = ADTSTests.bytes(hex: try #require(fixture.facts)["extradata"] as! String)
        let (_, stream) = try ADTSTests.parsePackets(fixture.bytes)
        #expect(extradata.count == 36)
        #expect(try stream.property(.magicCookieData) == .data(Array(extradata[12...])))
    }

    @Test func opusAsFFmpegWritesItHasNoCookie() throws {
        let fixture = Self.fixture("caf-opus-48k-stereo")
        #expect(fixture.facts?["extradata"] as? String == "")
        let (_, stream) = try ADTSTests.parsePackets(fixture.bytes)
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.magicCookieData) }
    }

    @Test(arguments: described)
    func packetTableInfoAndCountsMatchThePakt(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let info = try #require(facts["packetTableInfo"] as? [String: Int])
        let (_, stream) = try ADTSTests.parsePackets(fixture.bytes, chunking: .random(seed: 83))
        #expect(try stream.property(.packetTableInfo) == .packetTableInfo(PacketTableInfo(
            validFrames: Int64(info["validFrames"]!), primingFrames: Int32(info["primingFrames"]!),
            remainderFrames: Int32(info["remainderFrames"]!))))
        #expect(try stream.property(.audioDataPacketCount) == .uint64(UInt64(facts["packetCount"] as! Int)))
        #expect(try stream.property(.audioDataByteCount) == .uint64(UInt64(Self.dataChunkSize(facts) - 4)))
    }

    @Test(arguments: constant.filter { $0.name != "caf-s16le-streamed.caf" })
    func constantFormatsCountTheirDataChunk(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let stream = try Self.run(fixture.bytes).stream
        let bytes = Self.dataChunkSize(facts) - 4
        #expect(try stream.property(.audioDataByteCount) == .uint64(UInt64(bytes)))
        let size = Int(try #require(stream.dataFormat).bytesPerPacket)
        #expect(try stream.property(.audioDataPacketCount) == .uint64(UInt64(bytes / size)))
    }

    /// ffmpeg's CAF to a pipe: a data size of -1, read to the end of the input; its size is not announced.
    @Test func aStreamedFileRunsToTheEnd() throws {
        let fixture = Self.fixture("caf-s16le-streamed")
        let facts = try #require(fixture.facts)
        #expect((facts["chunks"] as! [[Any]]).last?[2] as? Int == -1)
        for chunking in [Chunking.whole, .fixed(1), .fixed(7), .random(seed: 89)] {
            let parse = try Self.run(fixture.bytes, chunking: chunking)
            #expect(parse.batches.reduce(0) { $0 + $1.size } == Int64(facts["byteCount"] as! Int), "\(chunking)")
            #expect(throws: AudioFileStreamError.valueUnknown) { try parse.stream.property(.audioDataByteCount) }
        }
    }

    /// ffmpeg writes the pakt after the audio: on a stream that is Apple's "not optimized", whatever the chunking.
    @Test func aPacketTableAfterTheAudioIsNotOptimized() throws {
        let fixture = Self.fixture("caf-alac-pakt-at-end")
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 97)] {
            let parse = try Self.run(fixture.bytes, chunking: chunking)
            #expect(parse.errors == [.notOptimized], "\(chunking)")
            #expect(parse.batches.isEmpty && parse.stream.dataFormat?.formatID == AudioFormatID.appleLossless)
            #expect(parse.stream.bufferedByteCount == 0)
        }
    }

    /// ffmpeg's pakt-after-data file given out of order, as a reader that can seek gives it: the chunks before
    /// the audio, then the pakt, then the audio, each after a discontinuity at its offset. Between chunks before
    /// the audio a jump lands on a chunk header, so the packets are ffprobe's, in any chunking.
    @Test(arguments: [Chunking.whole, .fixed(1), .fixed(7), .random(seed: 113)])
    func aFileGivenOutOfOrderGivesItsPackets(chunking: Chunking) throws {
        let fixture = Self.fixture("caf-alac-pakt-at-end")
        let facts = try #require(fixture.facts)
        let data = Self.chunk("data", in: facts)[1] as! Int
        let table = Self.chunk("pakt", in: facts)[1] as! Int
        var rows: [[Int64]] = []
        var errors: [AudioFileStreamError] = []
        let parser = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for description in batch.descriptions ?? UnsafeBufferPointer(start: nil, count: 0) {
                let frames = description.variableFramesInPacket > 0
                    ? description.variableFramesInPacket : batch.format.framesPerPacket
                rows.append([batch.streamOffset + description.startOffset, Int64(description.dataByteSize),
                             Int64(frames)])
            }
        }
        do {
            try feed(fixture.bytes, inOrder: [0..<data, table..<fixture.bytes.count, data..<table], to: parser,
                     chunking: chunking)
        } catch let failure as AudioFileStreamFailure {
            errors.append(failure.error)
        }
        #expect(errors.isEmpty)
        #expect(rows == fixture.expectedPacketsWithFrames)
        let info = try #require(facts["packetTableInfo"] as? [String: Int])
        #expect(try parser.property(.packetTableInfo) == .packetTableInfo(PacketTableInfo(
            validFrames: Int64(info["validFrames"]!), primingFrames: Int32(info["primingFrames"]!),
            remainderFrames: Int32(info["remainderFrames"]!))))
        #expect(try parser.property(.audioDataPacketCount) == .uint64(UInt64(facts["packetCount"] as! Int)))
    }

    @Test(arguments: [Chunking.whole, .fixed(1), .random(seed: 101)])
    func infoTagsMatchFFprobe(chunking: Chunking) throws {
        let fixture = Self.fixture("caf-tags")
        let facts = try #require(fixture.facts)
        let recorded = try #require(facts["tags"] as? [String: String])
        let (events, _) = try parse(Array(fixture.bytes.prefix(Int(facts["firstPacketOffset"] as! Int))),
                                    chunking: chunking)
        let (offset, metadata) = try #require(events.tags.first)
        #expect(events.tags.count == 1 && metadata.source == .cafInfo)
        #expect(offset == Int64(Self.chunk("info", in: facts)[1] as! Int))
        #expect(Set(metadata.raw.map(\.key)) == Set(recorded.keys) && metadata.raw.count == recorded.count)
        for field in metadata.raw { #expect(field.value == .text([recorded[field.key]!])) }
        let tags = metadata.tags
        #expect(tags.title == recorded["title"] && tags.artist == recorded["artist"] && tags.album == recorded["album"])
        #expect(tags.year == recorded["year"] && tags.genre == recorded["genre"])
        #expect(tags.composer == recorded["composer"])
        #expect(tags.trackNumber == 3 && tags.trackCount == 12 && tags.bpm == 120)
        #expect(tags.comments == recorded["comments"])
    }

    /// Bytes cut out of the audio: the packets wholly after the gap, found again by position.
    @Test(arguments: ["caf-alac-44k-stereo", "caf-aac-44k-stereo", "caf-s16le-44k-stereo", "caf-ima4-44k-stereo"])
    func aGapInTheAudioLosesOnlyThePacketsItTouches(name: String) throws {
        let fixture = Self.fixture(name)
        let facts = try #require(fixture.facts)
        let start = facts["firstPacketOffset"] as! Int
        let gap = start + 1001..<start + 1500
        let parse = try Self.run(fixture.bytes, chunking: .random(seed: 103), skips: [gap])
        if Self.described.contains(where: { $0.name == fixture.name }) {
            let rows = fixture.expectedPacketsWithFrames
            let kept = rows.filter { $0[0] + $0[1] <= gap.lowerBound || $0[0] >= gap.upperBound }
            #expect(parse.packets == kept)
        } else {
            let size = Int64(try #require(parse.stream.dataFormat).bytesPerPacket)
            #expect(parse.batches.allSatisfy { ($0.offset - Int64(start)) % size == 0 && $0.size % size == 0 })
            // Besides the gap, at most the frames it cuts on either side are lost.
            let delivered = parse.batches.reduce(0) { $0 + $1.size }
            #expect(Int64(facts["byteCount"] as! Int) - delivered < Int64(gap.count) + 2 * size)
        }
    }

    // MARK: - Bad input

    /// A CAF file of `chunks` (type, body, and a size to claim instead of the body's).
    static func caf(_ chunks: [(type: String, body: [UInt8], size: Int64?)]) -> [UInt8] {
        var bytes = Array("caff".utf8) + [0, 1, 0, 0]
        for chunk in chunks {
            let size = UInt64(bitPattern: chunk.size ?? Int64(chunk.body.count))
            bytes += Array(chunk.type.utf8) + (0..<8).map { UInt8(truncatingIfNeeded: size >> (56 - 8 * $0)) }
            bytes += chunk.body
        }
        return bytes
    }

    /// The body of chunk `type` of a fixture.
    static func body(_ type: String, of name: String) -> [UInt8] {
        let fixture = fixture(name)
        let entry = chunk(type, in: fixture.facts!)
        let start = entry[1] as! Int + 12
        return Array(fixture.bytes[start..<start + (entry[2] as! Int)])
    }

    static func chunk(_ type: String, in facts: [String: Any]) -> [Any] {
        (facts["chunks"] as! [[Any]]).first { $0[0] as? String == type }!
    }

    static func dataChunkSize(_ facts: [String: Any]) -> Int { chunk("data", in: facts)[2] as! Int }

    /// The AAC fixture rebuilt from its chunks, with `change` applied to them first.
    static func aac(_ change: (inout [(type: String, body: [UInt8], size: Int64?)]) -> Void = { _ in })
        -> [UInt8] {
        var chunks = ["desc", "chan", "kuki", "pakt", "data"].map {
            (type: $0, body: body($0, of: "caf-aac-44k-stereo"), size: Int64?.none)
        }
        change(&chunks)
        return caf(chunks)
    }

    static func errors(of bytes: [UInt8], chunking: Chunking = .random(seed: 107)) throws -> [AudioFileStreamError] {
        try run(bytes, chunking: chunking).errors
    }

    @Test func theRebuiltFixtureIsTheFixture() {
        #expect(Self.aac() == Self.fixture("caf-aac-44k-stereo").bytes)
    }

    @Test(arguments: [Chunking.whole, .fixed(1), .fixed(5), .random(seed: 107)])
    func chunkSizesThatLieAreInvalid(chunking: Chunking) throws {
        // Negative, other than data's -1; and -1 on another chunk, or on a second data chunk.
        for size: Int64 in [-5, -1, Int64.min] {
            #expect(try Self.errors(of: Self.aac { $0[1].size = size }, chunking: chunking) == [.invalidFile],
                    "\(size) \(chunking)")
        }
        let secondData = Self.aac { $0.append(("data", [0, 0, 0, 0], -1)) }
        #expect(try Self.errors(of: secondData, chunking: chunking) == [.invalidFile], "\(chunking)")
        // Smaller than the fixed fields: desc, pakt, data's edit count.
        for bytes in [Self.aac { $0[0].body.removeLast(4) }, Self.aac { $0[3].body = Array($0[3].body.prefix(20)) },
                      Self.aac { $0[4] = ("data", [0, 0], nil) }] {
            #expect(try Self.errors(of: bytes, chunking: chunking) == [.invalidFile], "\(chunking)")
        }
        // A first chunk other than desc.
        #expect(try Self.errors(of: Self.aac { $0.swapAt(0, 1) }, chunking: chunking) == [.invalidFile])
        // A huge size past the end: the audio of an unknown chunk that never ends is no packet.
        let pastEnd = try Self.run(Self.aac { $0[1].size = 1 << 40 }, chunking: chunking)
        #expect(pastEnd.packets.isEmpty && pastEnd.stream.bufferedByteCount == 0, "\(chunking)")
    }

    @Test func aDescriptionWithoutRateOrChannelsIsInvalid() throws {
        let nan = Double.nan.bitPattern
        for (field, value) in [(0, UInt64(0)), (0, nan), (0, Double.infinity.bitPattern), (24, 0), (8, 0)] {
            let bytes = Self.aac { chunks in
                let width = field == 0 ? 8 : 4
                for index in 0..<width {
                    chunks[0].body[field + index] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - index)))
                }
            }
            #expect(try Self.errors(of: bytes) == [.invalidFile], "field \(field) = \(value)")
        }
    }

    /// A table claiming 2^31 packets with 14 entries is refused before any packet; one larger than the cap is
    /// refused at its header, before its bytes arrive.
    @Test func aPacketTablePromisingMoreThanItHoldsIsInvalid() throws {
        let claims = Self.aac { $0[3].body.replaceSubrange(0..<8, with: [0, 0, 0, 0, 0x80, 0, 0, 0]) }
        let parse = try Self.run(claims)
        #expect(parse.errors == [.invalidFile] && parse.packets.isEmpty)
        let huge = Array(Self.aac { $0[3].size = Int64(CAFPacketTable.largestTable) + 1 }.prefix(200))
        #expect(try Self.errors(of: huge) == [.invalidFile])
        // An entry cut short, and one of six bytes.
        #expect(try Self.errors(of: Self.aac { $0[3].body[$0[3].body.count - 1] |= 0x80 }) == [.invalidFile])
        let sixBytes = Self.aac { chunks in
            chunks[3].body += [0x81, 0x81, 0x81, 0x81, 0x81, 0x01]
            chunks[3].body.replaceSubrange(0..<8, with: [0, 0, 0, 0, 0, 0, 0, 15])
        }
        #expect(try Self.errors(of: sixBytes) == [.invalidFile])
    }

    @Test func packetsOverrunningTheDataChunkAreInvalid() throws {
        #expect(try Self.errors(of: Self.aac { $0[4].body.removeLast(10) }) == [.invalidFile])
        // A packet larger than the cap.
        let large = Self.aac { chunks in
            chunks[3].body.replaceSubrange(24..<26, with: [0xA0, 0x80, 0x01])  // 2^19 + 1, for a 2-byte entry
            chunks[4].body += [UInt8](repeating: 0, count: CAFContainer.largestPacket + 1)
        }
        #expect(try Self.errors(of: large) == [.invalidFile])
    }

    /// Audio of a format that needs a table, with none before it: streamed (-1) or not.
    @Test func audioWithoutItsTableIsNotOptimized() throws {
        #expect(try Self.errors(of: Self.aac { $0.remove(at: 3) }) == [.notOptimized])
        #expect(try Self.errors(of: Self.aac { $0.remove(at: 3); $0[3].size = -1 }) == [.notOptimized])
        // Constant-size audio needs none.
        let pcm = Self.fixture("caf-s16le-44k-stereo").bytes
        #expect(try Self.errors(of: pcm).isEmpty)
    }

    /// A 16 MB kuki and a 10 MB info stream past: bounded memory, the packets after them found.
    @Test func hugeCookieAndInfoStreamPast() throws {
        var info = [0, 0, 0, 2] + Array("title\u{0}".utf8) + [UInt8](repeating: 0x41, count: 10_000_000) + [0]
        info += Array("artist\u{0}A\u{0}".utf8)
        let bytes = Self.aac { chunks in
            chunks[2].body = [UInt8](repeating: 0x03, count: 16_000_000)
            chunks.insert(("info", info, nil), at: 3)
        }
        var events: [AudioFileStreamEvent] = []
        var packets = 0
        let limits = MetadataLimits(maxFieldBytes: 1 << 16, maxTagBytes: 1 << 20)
        let stream = try AudioFileStream(limits: limits) { event in
            if case .packets(let batch) = event { packets += batch.descriptions!.count } else { events.append(event) }
        }
        let held = try feedMeasuringHeldBytes(bytes, to: stream)
        #expect(held < 1 << 17 && packets == 14)
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.magicCookieData) }
        #expect(events.contains { event in
            if case .warning(let warning) = event { warning.kind == .headerMismatch } else { false }
        })
        // The info chunk is kept up to maxTagBytes, which its 10 MB title runs past: no entry is whole.
        #expect(!events.contains { if case .metadata = $0 { true } else { false } })
    }

    /// A layout given by a bitmap or descriptions, or one naming other than the stream's channels, is not
    /// announced; a kuki without an ES_Descriptor is reported and gives no cookie; the packets are cut all the same.
    @Test func layoutsAndCookiesThatCannotBeUsedAreLeftOut() throws {
        let bitmap: [UInt8] = [0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0]
        let mono: [UInt8] = [0, 0x64, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        for layout in [bitmap, mono, [0, 0x65, 0]] {
            let parse = try Self.run(Self.aac { $0[1].body = layout })
            #expect(throws: AudioFileStreamError.valueUnknown) { try parse.stream.property(.channelLayout) }
            #expect(parse.packets.count == 14 && parse.errors.isEmpty)
        }
        var warnings: [StreamWarning] = []
        let stream = try AudioFileStream { if case .warning(let warning) = $0 { warnings.append(warning) } }
        try feed(Self.aac { $0[2].body = [0x05, 0x02, 0x12, 0x10] }, to: stream)
        #expect(warnings.map(\.kind) == [.headerMismatch] && warnings.first?.offset == 76)
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.magicCookieData) }
    }

    /// A second pakt, after the audio, changes nothing: its smaller packets would undercut PacketSizeUpperBound.
    @Test func aSecondPacketTableIsIgnored() throws {
        let bytes = Self.aac { chunks in
            var second = chunks[3]
            second.body = Array(second.body.prefix(24)) + [UInt8](repeating: 1, count: 14)
            chunks.append(second)
        }
        let parse = try Self.run(bytes, chunking: .random(seed: 109))
        let rows = Self.fixture("caf-aac-44k-stereo").expectedPacketsWithFrames
        #expect(parse.packets == rows)
        #expect(try parse.stream.property(.packetSizeUpperBound) == .uint32(UInt32(rows.map { $0[1] }.max()!)))
    }

    @Test func truncatedFilesEndCleanly() throws {
        let bytes = Self.fixture("caf-aac-44k-stereo").bytes
        let rows = Self.fixture("caf-aac-44k-stereo").expectedPacketsWithFrames
        for cut in [4, 30, 100, 150, 200, 210, 600, bytes.count - 3] {
            let parse = try Self.run(Array(bytes.prefix(cut)), chunking: .fixed(3))
            #expect(parse.packets == rows.filter { $0[0] + $0[1] <= cut }, "cut at \(cut)")
            #expect(parse.stream.bufferedByteCount == 0 && parse.errors.isEmpty, "cut at \(cut)")
        }
    }
}

extension CAFTests {
    /// What a parse gave: described packets as `[offset, size, frames]`, constant-size batches, bytes skipped,
    /// the errors thrown.
    struct Parse {
        struct Batch {
            let offset: Int64
            let size: Int64
            let frames: Int64
            let hasDescriptions: Bool
        }

        var packets: [[Int64]] = []
        var batches: [Batch] = []
        var skipped: Int64 = 0
        var errors: [AudioFileStreamError] = []
        let stream: AudioFileStream
    }

    /// Parses `bytes` as `feed` does, keeping the error a call threw instead of throwing it.
    static func run(_ bytes: [UInt8], chunking: Chunking = .whole, skips: [Range<Int>] = []) throws -> Parse {
        var packets: [[Int64]] = []
        var batches: [Parse.Batch] = []
        var skipped: Int64 = 0
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                batches.append(Parse.Batch(offset: batch.streamOffset, size: Int64(batch.bytes.count),
                                           frames: batch.frameCount, hasDescriptions: batch.descriptions != nil))
                for description in batch.descriptions ?? UnsafeBufferPointer(start: nil, count: 0) {
                    let frames = description.variableFramesInPacket > 0
                        ? description.variableFramesInPacket : batch.format.framesPerPacket
                    packets.append([batch.streamOffset + description.startOffset, Int64(description.dataByteSize),
                                    Int64(frames)])
                }
            case .discontinuity(let gap) where gap.reason == .resync:
                skipped += gap.skippedBytes
            default:
                break
            }
        }
        var errors: [AudioFileStreamError] = []
        do {
            try feed(bytes, to: stream, chunking: chunking, skips: skips)
        } catch let failure as AudioFileStreamFailure {
            errors.append(failure.error)
        }
        return Parse(packets: packets, batches: batches, skipped: skipped, errors: errors, stream: stream)
    }
}
