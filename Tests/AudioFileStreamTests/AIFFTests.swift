import Testing
import FixtureSupport
@testable import AudioFileStream

/// AIFF and AIFC against ffprobe, the fixture script's chunk walk and mutagen; the 80-bit rate; bad input
/// built chunk by chunk.
@Suite struct AIFFTests {
    static let fixtures = Fixtures.pcm.filter { ["aiff", "aifc"].contains($0.file.pathExtension) }

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.count == 10)
    }

    @Test(arguments: fixtures)
    func fixturesMatchFFprobeInAnyChunking(fixture: Fixtures.Fixture) throws {
        try PCMFixtureChecks.check(fixture)
    }

    @Test(arguments: ["aiff-s24-mono.aiff", "aifc-fl64.aifc", "aiff-streamed.aiff"])
    func aFileCutMidFrameDropsThePartialFrame(name: String) throws {
        try PCMFixtureChecks.checkCutMidFrame(try #require(Self.fixtures.first { $0.name == name }))
    }

    @Test(arguments: ["aiff-s24-mono.aiff", "aiff-streamed.aiff"])
    func aFileCutWhereItsFramesStartKnowsItsFormat(name: String) throws {
        try PCMFixtureChecks.checkCutWhereTheFramesStart(try #require(Self.fixtures.first { $0.name == name }))
    }

    /// The compression types as the script's walk read them, and COMM's rate as ffprobe gives it.
    @Test func compressionTypesAndRatesAreRead() throws {
        var checked = 0
        for fixture in Self.fixtures {
            let facts = try #require(fixture.facts)
            let recording = try PCMRecording.parse(fixture.bytes)
            #expect(recording.stream?.dataFormat?.sampleRate == facts["commRate"] as? Double)
            guard let compression = facts["compressionType"] as? String else { continue }
            let codec: [String: String] = ["sowt": "pcm_s16le", "fl32": "pcm_f32be", "fl64": "pcm_f64be",
                                            "ulaw": "pcm_mulaw", "alaw": "pcm_alaw"]
            #expect(codec[compression] == facts["codec"] as? String)
            #expect(recording.properties[.fileFormat] == .fileType(.aifc))
            checked += 1
        }
        #expect(checked == 5)
    }

    /// 80-bit extended rates as AIFF writers store them (Apple's AIFF-C spec), and what is not a rate.
    @Test func extendedRatesConvertExactly() {
        let rates: [(bytes: [UInt8], value: Double?)] = [
            ([0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], 44100),
            ([0x40, 0x0E, 0xBB, 0x80, 0, 0, 0, 0, 0, 0], 48000),
            ([0x40, 0x0B, 0xFA, 0x00, 0, 0, 0, 0, 0, 0], 8000),
            ([0x40, 0x0D, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], 22050),
            ([0x40, 0x0F, 0xBB, 0x80, 0, 0, 0, 0, 0, 0], 96000),
            ([0x3F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], 1),
            ([0x3F, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0], 0.5),
            ([0xC0, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0], -2),
            ([0x40, 0x0D, 0xAC, 0x45, 0, 0, 0, 0, 0, 0], 22050.5),
            ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0),
            ([0x7F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], nil),
            ([0x7F, 0xFF, 0xC0, 0, 0, 0, 0, 0, 0, 1], nil),
        ]
        for (bytes, value) in rates {
            #expect(bytes.withUnsafeBytes { ExtendedFloat80.value($0) } == value, "\(bytes)")
        }
    }

    /// NAME, AUTH, (c) and ANNO: each a tag of source `aiffText`, raw key its id; the common keys as ffprobe
    /// names them.
    @Test func textChunksAreTags() throws {
        let fixture = try #require(Self.fixtures.first { $0.name == "aiff-text.aiff" })
        let facts = try #require(fixture.facts)
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .fixed(3))
        #expect(recording.tags.allSatisfy { $0.metadata.source == "aiffText" })
        let raw = (facts["textChunks"] as! [[String]]).map { RawTagField(key: $0[0], value: .text([$0[1]])) }
        #expect(recording.tags.flatMap(\.metadata.raw) == raw)
        let chunks = (facts["chunks"] as! [[Any]]).filter { raw.map(\.key).contains($0[0] as! String) }
        #expect(recording.tags.map(\.offset) == chunks.map { Int64($0[1] as! Int) })
        var merged = NormalizedTags()
        for tag in recording.tags { merged.merge(tag.metadata.tags) }
        let probed = facts["formatTags"] as! [String: String]
        #expect(merged.title == probed["title"] && merged.artist == probed["author"])
        #expect(merged.comments == probed["comment"])
    }

    @Test func id3ChunkIsATag() throws {
        try WAVETests.expectID3Chunk(in: try #require(Self.fixtures.first { $0.name == "aiff-id3.aiff" }))
    }

    /// SSND's offset field: the first frame comes that many bytes after the block size.
    @Test func theSoundOffsetIsSkipped() throws {
        let samples = [UInt8](repeating: 0x22, count: 40)
        let file = ChunkFile.aiff([ChunkFile.common(frames: 10), ChunkFile.sound(samples, offset: 6)])
        for chunking in [Chunking.whole, .fixed(1)] {
            let recording = try PCMRecording.parse(file, chunking: chunking)
            let dataOffset = Int64(12 + 26 + 16 + 6)
            #expect(recording.properties[.dataOffset] == .int64(dataOffset))
            #expect(recording.batchesAreContiguous(from: dataOffset) && recording.byteCount == 40)
            #expect(recording.properties[.audioDataPacketCount] == .uint64(10))
        }
    }

    @Test func commonChunksThatCannotDescribeSamplesAreInvalid() throws {
        let infinity: [UInt8] = [0x7F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]
        let nan: [UInt8] = [0x7F, 0xFF, 0xC0, 0, 0, 0, 0, 0, 0, 0]
        let zero = [UInt8](repeating: 0, count: 10)
        let negative: [UInt8] = [0xC0, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]
        let broken = [
            ChunkFile.common(channels: 0), ChunkFile.common(rate: zero), ChunkFile.common(rate: nan),
            ChunkFile.common(rate: infinity), ChunkFile.common(rate: negative), ChunkFile.common(bits: 0),
            ChunkFile.chunk("COMM", [0, 2, 0, 0], bigEndian: true),
        ]
        for comm in broken {
            for chunking in [Chunking.whole, .fixed(1)] {
                let file = ChunkFile.aiff([comm, ChunkFile.sound([UInt8](repeating: 0, count: 40))])
                let recording = try PCMRecording.parse(file, chunking: chunking)
                #expect(recording.failure?.error == .invalidFile, "\(comm)")
                #expect(recording.batches.isEmpty)
            }
        }
    }

    @Test func otherCompressionTypesAreRefusedClearly() throws {
        // MACE 3:1, a codec of the Macintosh Sound Manager no decoder here reads.
        let file = ChunkFile.aiff([ChunkFile.common(compression: "MAC3"), ChunkFile.sound([0, 0, 0, 0])], form: "AIFC")
        let failure = try #require(try PCMRecording.parse(file).failure)
        #expect(failure.error == .unsupportedDataFormat && failure.description.contains("MAC3"))
        let wide = ChunkFile.aiff([ChunkFile.common(bits: 40), ChunkFile.sound([0, 0, 0, 0])])
        #expect(try PCMRecording.parse(wide).failure?.error == .unsupportedDataFormat)
    }

    @Test func soundBeforeItsFormatIsRefused() throws {
        let file = ChunkFile.aiff([ChunkFile.sound([0, 0, 0, 0]), ChunkFile.common()])
        #expect(try PCMRecording.parse(file).failure?.error == .notOptimized)
    }

    /// Such a file (audiotools' aiff-misordered.aiff) given out of order, as a reader that can seek gives it: the
    /// jumps from between chunks land on chunk headers, COMM's and then SSND's, and the chunk after them is read.
    @Test(arguments: [Chunking.whole, .fixed(1), .fixed(5)])
    func soundBeforeItsFormatReadFormatFirstGivesItsFrames(chunking: Chunking) throws {
        let samples = (0..<40).map { UInt8($0) }
        let sound = ChunkFile.sound(samples)
        let common = ChunkFile.common(frames: 10)
        let file = ChunkFile.aiff([sound, common, ChunkFile.chunk("NAME", Array("odd".utf8), bigEndian: true)])
        let commonStart = 12 + sound.count
        let recording = try PCMRecording.parse(file, chunking: chunking, inOrder: [
            0..<12, commonStart..<commonStart + common.count, 12..<commonStart, commonStart + common.count..<file.count,
        ])
        #expect(recording.failure == nil && recording.byteCount == 40 && recording.skippedBytes == 0)
        #expect(recording.batchesAreContiguous(from: 12 + 16))
        #expect(recording.properties[.dataOffset] == .int64(12 + 16))
        #expect(recording.tags.map(\.offset) == [Int64(commonStart + common.count)])
    }

    /// COMM states the frames (IMA4's packets), announced as it is read: the length of a file without its samples
    /// (exiftool's AIFF.aif), and the length, as mutagen and ffprobe read it, when SSND holds more.
    @Test func theCommonChunkStatesTheLength() throws {
        let bare = try PCMRecording.parse(ChunkFile.aiff([ChunkFile.common(frames: 10)]))
        #expect(bare.batches.isEmpty && bare.failure == nil)
        #expect(bare.properties[.audioDataPacketCount] == .uint64(10))
        #expect(bare.stream?.duration?.seconds == 10.0 / 44100)
        let longer = try PCMRecording.parse(ChunkFile.aiff([ChunkFile.common(frames: 10),
                                                            ChunkFile.sound([UInt8](repeating: 1, count: 48))]))
        #expect(longer.byteCount == 48 && longer.properties[.audioDataPacketCount] == .uint64(10))
        #expect(longer.properties[.audioDataByteCount] == .uint64(48))
    }

    /// An SSND too short for its offset and block size is invalid; one whose size runs past the input ends there.
    @Test func soundSizesThatLie() throws {
        let short = ChunkFile.aiff([ChunkFile.common(), ChunkFile.chunk("SSND", [0, 0, 0, 0], bigEndian: true)])
        #expect(try PCMRecording.parse(short).failure?.error == .invalidFile)
        let long = ChunkFile.aiff([ChunkFile.common(), ChunkFile.sound([UInt8](repeating: 1, count: 42),
                                                                       size: 1_000_000)])
        for chunking in [Chunking.whole, .fixed(1)] {
            let recording = try PCMRecording.parse(long, chunking: chunking)
            #expect(recording.byteCount == 40 && recording.skippedBytes == 2)
        }
    }
}
