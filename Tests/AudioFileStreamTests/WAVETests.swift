import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// WAVE, RF64 and streamed WAVE against ffprobe, the fixture script's chunk walk and mutagen; bad input built
/// chunk by chunk.
@Suite struct WAVETests {
    static let fixtures = Fixtures.pcm.filter { $0.file.pathExtension == "wav" }

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.count == 16)
    }

    @Test(arguments: fixtures)
    func fixturesMatchFFprobeInAnyChunking(fixture: Fixtures.Fixture) throws {
        try PCMFixtureChecks.check(fixture)
    }

    @Test(arguments: ["wav-s16-stereo.wav", "wav-5.1.wav", "wav-streamed.wav", "rf64-s16-stereo.wav"])
    func aFileCutMidFrameDropsThePartialFrame(name: String) throws {
        try PCMFixtureChecks.checkCutMidFrame(try #require(Self.fixtures.first { $0.name == name }))
    }

    @Test(arguments: ["wav-s16-stereo.wav", "wav-streamed.wav", "rf64-s16-stereo.wav"])
    func aFileCutWhereItsFramesStartKnowsItsFormat(name: String) throws {
        try PCMFixtureChecks.checkCutWhereTheFramesStart(try #require(Self.fixtures.first { $0.name == name }))
    }

    /// The hint names the container the bytes already say.
    @Test func aHintChangesNothing() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-s24-stereo.wav" })
        let hinted = try PCMRecording.parse(fixture.bytes, chunking: .random(seed: 3), hint: AudioFileType(hint: "wav"))
        let plain = try PCMRecording.parse(fixture.bytes, chunking: .random(seed: 3))
        #expect(hinted.batches == plain.batches && !plain.batches.isEmpty)
    }

    /// Extensible files' channel masks, as the script's walk read them: a named layout, or the bitmap.
    @Test func channelMasksGiveTheirLayouts() throws {
        let masks: [UInt32: AudioChannelLayout] = [
            0x3F: AudioChannelLayout(tag: 121 << 16 | 6), 0x33: AudioChannelLayout(tag: 108 << 16 | 4),
            0x107: AudioChannelLayout(tag: 115 << 16 | 4), 0x3: .stereo, 0x4: .mono,
        ]
        var checked = 0
        for fixture in Self.fixtures {
            guard let mask = fixture.facts?["channelMask"] as? Int else { continue }
            let recording = try PCMRecording.parse(fixture.bytes)
            #expect(recording.properties[.channelLayout] == .channelLayout(try #require(masks[UInt32(mask)])))
            checked += 1
        }
        #expect(checked == 7)
        // A mask no tag names is the bitmap itself; one that does not name every channel, the count's layout.
        let sideMask = AudioChannelLayout(waveChannelMask: 0x60F, channels: 6)
        #expect(sideMask == AudioChannelLayout(tag: AudioChannelLayout.useChannelBitmap, channelBitmap: 0x60F))
        #expect(sideMask.channelCount == 6)
        #expect(AudioChannelLayout(waveChannelMask: 0, channels: 3) == AudioChannelLayout(tag: 147 << 16 | 3))
    }

    /// LIST/INFO: raw ids and values as the script's walk read them, common keys as ffprobe names them.
    @Test func infoListIsATag() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-info.wav" })
        let facts = try #require(fixture.facts)
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .fixed(5))
        #expect(recording.tags.count == 1)
        let tag = try #require(recording.tags.first)
        #expect(tag.metadata.source == "riffInfo")
        let raw = (facts["textChunks"] as! [[String]]).map { RawTagField(key: $0[0], value: .text([$0[1]])) }
        #expect(tag.metadata.raw == raw)
        let probed = facts["formatTags"] as! [String: String]
        let tags = tag.metadata.tags
        #expect(tags.title == probed["title"] && tags.artist == probed["artist"] && tags.album == probed["album"])
        #expect(tags.year == probed["date"] && tags.genre == probed["genre"] && tags.comments == probed["comment"])
        #expect(tags.trackNumber == Int(probed["track"]!))
        let list = try #require((facts["chunks"] as! [[Any]]).first { $0[0] as? String == "LIST" })
        #expect(tag.offset == Int64(list[1] as! Int))
    }

    /// An `id3 ` chunk is read by the ID3v2 reader: mutagen's frames.
    @Test func id3ChunkIsATag() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-id3.wav" })
        try Self.expectID3Chunk(in: fixture)
    }

    static func expectID3Chunk(in fixture: Fixtures.Fixture) throws {
        let recorded = try #require(fixture.recordedTags)
        for chunking in [Chunking.whole, .fixed(1)] {
            let recording = try PCMRecording.parse(fixture.bytes, chunking: chunking)
            let tag = try #require(recording.tags.first?.metadata)
            #expect(recording.tags.count == 1)
            #expect(tag.source.rawValue == recorded["version"] as? String)
            let frames = (recorded["frames"] as! [[String]]).map { RawTagField(key: $0[0], value: .text([$0[1]])) }
            #expect(tag.raw.sorted { $0.key < $1.key } == frames)
            #expect(tag.tags.title == "Chunk Title" && tag.tags.trackNumber == 3 && tag.tags.trackCount == 9)
            #expect(recording.byteCount == fixture.facts!["dataBytes"] as! Int)
        }
    }

    /// An `id3 ` chunk the input ends inside gives the frames read before the end, as a tag between MPEG frames
    /// does: here the cut falls in the tag's padding, after mutagen's four frames. The tag is placed at its start,
    /// past the chunk's header.
    @Test func anID3ChunkCutByTheEndOfTheInputGivesTheFramesReadBeforeIt() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-id3.wav" })
        let chunk = try #require((fixture.facts?["chunks"] as? [[Any]])?.first { $0[0] as? String == "id3 " })
        let cut = chunk[1] as! Int + ChunkLayout.riff.headerLength + 200
        let frames = (fixture.recordedTags!["frames"] as! [[String]]).map {
            RawTagField(key: $0[0], value: .text([$0[1]]))
        }
        for chunking in [Chunking.whole, .fixed(7)] {
            let recording = try PCMRecording.parse(Array(fixture.bytes[..<cut]), chunking: chunking)
            #expect(recording.tags.count == 1)
            #expect(recording.tags.first?.metadata.raw.sorted { $0.key < $1.key } == frames)
            #expect(recording.tags.first?.offset == Int64(chunk[1] as! Int + ChunkLayout.riff.headerLength))
            #expect(recording.byteCount == fixture.facts!["dataBytes"] as! Int)
        }
    }

    // MARK: - Bad input

    static let samples = [UInt8](repeating: 0x11, count: 400)

    @Test func otherFormatTagsAreRefusedClearly() throws {
        let mp3 = ChunkFile.wave([ChunkFile.format(tag: 0x55), ChunkFile.chunk("data", Self.samples)])
        let recording = try PCMRecording.parse(mp3)
        let failure = try #require(recording.failure)
        #expect(failure.error == .unsupportedDataFormat && failure.offset == 12)
        #expect(failure.description.contains("0x55"))
        #expect(recording.batches.isEmpty && recording.properties[.readyToProducePackets] == nil)
        // Every later call says the same.
        let stream = try AudioFileStream { _ in }
        #expect(throws: failure) { try stream.parse(mp3) }
        #expect(throws: failure) { try stream.parse([0]) }
        #expect(throws: failure) { try stream.finish() }
    }

    @Test func anExtensibleSubformatThatIsNotAFormatTagIsRefused() throws {
        var body = ChunkFile.integer(0xFFFE, count: 2) + ChunkFile.integer(2, count: 2) + ChunkFile.integer(44100)
            + ChunkFile.integer(176_400) + ChunkFile.integer(4, count: 2) + ChunkFile.integer(16, count: 2)
        body += ChunkFile.integer(22, count: 2) + ChunkFile.integer(16, count: 2) + ChunkFile.integer(3)
        body += [UInt8](repeating: 0x42, count: 16)
        let recording = try PCMRecording.parse(ChunkFile.wave([ChunkFile.chunk("fmt ", body),
                                                               ChunkFile.chunk("data", Self.samples)]))
        #expect(recording.failure?.error == .unsupportedDataFormat)
    }

    @Test func formatChunksThatCannotDescribeSamplesAreInvalid() throws {
        let short = ChunkFile.chunk("fmt ", Array(ChunkFile.format().dropFirst(8).prefix(12)))
        let broken: [[UInt8]] = [
            short, ChunkFile.chunk("fmt ", []), ChunkFile.format(channels: 0), ChunkFile.format(rate: 0),
            ChunkFile.format(bits: 0),
            // Extensible in 18 bytes.
            ChunkFile.chunk("fmt ", Array(ChunkFile.format(tag: 0xFFFE).dropFirst(8)) + [0, 0]),
        ]
        for fmt in broken {
            for chunking in [Chunking.whole, .fixed(1)] {
                let recording = try PCMRecording.parse(ChunkFile.wave([fmt, ChunkFile.chunk("data", Self.samples)]),
                                                       chunking: chunking)
                #expect(recording.failure?.error == .invalidFile, "\(fmt)")
                #expect(recording.batches.isEmpty)
            }
        }
    }

    /// A `fmt ` after `data` cannot be known while the frames stream: refused, saying how to fix the file.
    @Test func dataBeforeItsFormatIsRefused() throws {
        let file = ChunkFile.wave([ChunkFile.chunk("data", Self.samples), ChunkFile.format()])
        let recording = try PCMRecording.parse(file, chunking: .fixed(3))
        #expect(recording.failure?.error == .notOptimized)
        #expect(recording.failure?.description.contains("ffmpeg") == true)
    }

    @Test func rf64WithoutDataSize64IsInvalid() throws {
        for outer in ["RF64", "BW64"] {
            let file = ChunkFile.wave([ChunkFile.format(), ChunkFile.chunk("data", Self.samples)], outer: outer)
            #expect(try PCMRecording.parse(file).failure?.error == .invalidFile)
        }
    }

    /// ds64 gives the data size; a size of -1 there means the end of the input.
    @Test func dataSize64GivesTheDataSize() throws {
        func file(dataSize: UInt64) -> [UInt8] {
            let ds64 = ChunkFile.integer(0xFFFF_FFFF) + ChunkFile.integer(0xFFFF_FFFF)
                + ChunkFile.integer(UInt32(truncatingIfNeeded: dataSize)) + ChunkFile.integer(UInt32(dataSize >> 32))
                + [UInt8](repeating: 0, count: 12)
            return ChunkFile.wave([ChunkFile.chunk("ds64", ds64), ChunkFile.format(),
                                   ChunkFile.chunk("data", Self.samples, size: 0xFFFF_FFFF),
                                   ChunkFile.chunk("LIST", Array("INFOINAM".utf8) + ChunkFile.integer(2) + [0x41, 0])],
                                  outer: "BW64")
        }
        let sized = try PCMRecording.parse(file(dataSize: 400), chunking: .fixed(13))
        #expect(sized.byteCount == 400 && sized.properties[.audioDataPacketCount] == .uint64(100))
        #expect(sized.properties[.fileFormat] == .fileType(.bw64))
        #expect(sized.tags.first?.metadata.tags.title == "A", "the chunk after data is read when reached")
        let open = try PCMRecording.parse(file(dataSize: .max))
        #expect(open.properties[.audioDataByteCount] == nil)
        // The LIST chunk's bytes are samples then: 20 bytes, 5 more frames.
        #expect(open.byteCount == 420 && open.tags.isEmpty)
    }

    /// Data sizes of 0 and 0xFFFFFFFF (streaming writers), and sizes past the end, run to the end of the input.
    @Test func dataSizesThatDoNotEndTheDataRunToTheEnd() throws {
        for size: UInt32 in [0, 0xFFFF_FFFF, 1_000_000] {
            let file = ChunkFile.wave([ChunkFile.format(), ChunkFile.chunk("data", Self.samples, size: size)])
            for chunking in [Chunking.whole, .fixed(1), .fixed(5)] {
                let recording = try PCMRecording.parse(file, chunking: chunking)
                #expect(recording.byteCount == 400 && recording.frameCount == 100, "size \(size), \(chunking)")
                #expect(recording.discontinuities.isEmpty)
            }
        }
    }

    /// A data size that is not a whole number of frames: the partial frame is dropped and reported, and the
    /// chunk after it is read.
    @Test func aPartialFrameAtTheEndOfTheDataIsDropped() throws {
        let file = ChunkFile.wave([ChunkFile.format(), ChunkFile.chunk("data", Self.samples + [1, 2, 3]),
                                   ChunkFile.chunk("LIST", Array("INFOIART".utf8) + ChunkFile.integer(2) + [0x42, 0])])
        for chunking in [Chunking.whole, .fixed(1), .fixed(2)] {
            let recording = try PCMRecording.parse(file, chunking: chunking)
            #expect(recording.byteCount == 400, "\(chunking)")
            #expect(recording.discontinuities == [Discontinuity(offset: 44 + 403, skippedBytes: 3, reason: .resync)])
            #expect(recording.tags.first?.metadata.tags.artist == "B")
        }
    }

    /// Zero-sized and odd-sized chunks, unknown chunks and a nested LIST are walked past; INFO values past
    /// `maxTagBytes` are not kept, however large the LIST claims to be, and nothing is buffered for them.
    @Test func liesAndNestingInListsCostNothing() throws {
        let nested = ChunkFile.chunk("LIST", Array("INFO".utf8)
            + ChunkFile.chunk("LIST", Array("INFO".utf8) + ChunkFile.chunk("INAM", Array("Deep\0".utf8)))
            + ChunkFile.chunk("IART", Array("Shallow\0".utf8)))
        let file = ChunkFile.wave([ChunkFile.chunk("JUNK", []), ChunkFile.chunk("odd ", [1, 2, 3]), nested,
                                   ChunkFile.format(), ChunkFile.chunk("data", Self.samples)])
        let recording = try PCMRecording.parse(file, chunking: .fixed(1))
        #expect(recording.tags.map(\.metadata.raw) == [[RawTagField(key: "IART", value: .text(["Shallow"]))]])
        #expect(recording.byteCount == 400 && recording.discontinuities.isEmpty)

        // A LIST of 1 MB with limits of 1 KiB: the first values are kept, the rest streams past.
        var values: [UInt8] = Array("INFO".utf8)
        for index in 0..<40_000 { values += ChunkFile.chunk("ICMT", Array(String(format: "%018d\0", index).utf8)) }
        let huge = ChunkFile.wave([ChunkFile.chunk("LIST", values), ChunkFile.format(),
                                   ChunkFile.chunk("data", Self.samples)])
        let limits = MetadataLimits(maxArtworkBytes: 1024, maxFieldBytes: 1024, maxTagBytes: 1024)
        let bounded = try PCMRecording.parse(huge, chunking: .fixed(65536), limits: limits)
        let kept = try #require(bounded.tags.first?.metadata.raw)
        #expect(kept.count > 0 && kept.count < 40)
        #expect(bounded.byteCount == 400)
        // A LIST that claims far more than there is: no audio, no growth, no hang.
        let claiming = ChunkFile.wave([ChunkFile.chunk("LIST", Array(values.prefix(100_000)), size: 0x7FFF_FFFF)])
        let stream = try AudioFileStream(limits: limits) { _ in }
        for start in stride(from: 0, to: claiming.count, by: 4096) {
            try stream.parse(Array(claiming[start..<min(start + 4096, claiming.count)]))
            #expect(stream.bufferedByteCount < 4096)
        }
        try stream.finish()
    }

    /// A seek to a frame: the frames after it are numbered from DataOffset; a cut inside a frame drops its rest.
    @Test func discontinuitiesKeepFramesAligned() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-s16-stereo.wav" })
        let dataOffset = 44
        let aligned = try PCMRecording.parse(fixture.bytes, chunking: .fixed(1000),
                                             skips: [dataOffset + 400..<dataOffset + 4000])
        let resumed = try #require(aligned.batches.first { $0.offset >= Int64(dataOffset + 4000) })
        #expect(resumed.firstPacket == 1000 && resumed.followsDiscontinuity)
        #expect(aligned.byteCount == (fixture.facts!["dataBytes"] as! Int) - 3600)
        let cut = try PCMRecording.parse(fixture.bytes, chunking: .fixed(1000),
                                         skips: [dataOffset + 401..<dataOffset + 4001])
        let next = try #require(cut.batches.first { $0.offset > Int64(dataOffset + 4001) })
        #expect(next.offset == Int64(dataOffset + 4004) && next.firstPacket == 1001)
        #expect(cut.skippedBytes == 1 + 3, "the frame cut before the gap and the one cut after it")
    }

    /// A source that starts again (a reconnect, a looped file) sends a new header after the discontinuity: it is
    /// read as one, never taken for frames, and its frames are numbered on.
    @Test func aRestartedSourceHasItsHeaderReadAgain() throws {
        let first = try #require(Self.fixtures.first { $0.name == "wav-s16-stereo.wav" }).bytes
        let second = try #require(Self.fixtures.first { $0.name == "wav-streamed.wav" })
        let secondBytes = second.facts!["dataBytes"] as! Int
        // 956 bytes of the first file's frames, then the second file from offset 1004.
        let input = Array(first[..<1000]) + [0, 0, 0, 0] + second.bytes
        for chunking in [Chunking.whole, .fixed(1), .fixed(7)] {
            let recording = try PCMRecording.parse(input, chunking: chunking, skips: [1000..<1004])
            #expect(recording.byteCount == 956 + secondBytes, "\(chunking)")
            let after = recording.batches.filter { $0.offset >= 1000 }
            #expect(after.first?.offset == 1004 + 44 && after.first?.followsDiscontinuity == true)
            #expect(recording.properties[.dataOffset] == .int64(44))
            #expect(recording.failure == nil && recording.skippedBytes == 0)
            #expect(recording.batches.map(\.firstPacket) == recording.batches.map { ($0.offset - 44) / 4 })
        }
    }

    /// Before the sound chunk, a jump loses the chunk structure: Apple's "discontinuity can't recover".
    @Test func aJumpInsideTheHeaderCannotRecover() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "wav-info.wav" })
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .fixed(10), skips: [30..<60])
        #expect(recording.failure?.error == .discontinuityCantRecover)
    }

    /// Batches are capped, so a large read gives several, each of whole frames.
    @Test func largeReadsAreCutIntoCappedBatches() throws {
        let file = ChunkFile.wave([ChunkFile.format(), ChunkFile.chunk("data", [UInt8](repeating: 7, count: 40_000))])
        let recording = try PCMRecording.parse(file)
        #expect(recording.batches.map(\.frames) == [4096, 4096, 1808])
    }
}
