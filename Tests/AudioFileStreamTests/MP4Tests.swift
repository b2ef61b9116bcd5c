import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// MP4, M4A and MOV against ffprobe's packets and facts and mutagen's tags (recorded by
/// Tests/Fixtures/make_mp4_fixtures.py), in any chunking: every codec, fragmented files, a video track beside the
/// audio, moov after mdat, and tags in each of the three key spaces.
@Suite struct MP4Tests {
    @Test func everyFixtureIsThere() {
        #expect(Fixtures.mp4.count == 14)
    }

    static func fixture(_ name: String) -> Fixtures.Fixture {
        Fixtures.mp4.first { $0.name == name }!
    }

    /// Fixtures a stream reads: all but the one whose moov follows its mdat.
    static let streamable = Fixtures.mp4.filter { $0.facts?["moovAfterMdat"] as? Bool == false }

    /// What a parse gave.
    struct Parse {
        var packets: [[Int64]] = []
        var formats: [AudioStreamBasicDescription] = []
        var properties: [AudioFileStreamPropertyID: AudioFileStreamPropertyValue] = [:]
        var metadata: [Metadata] = []
        var warnings: [StreamWarning] = []
        var skipped: Int64 = 0
        var batches = 0
        /// Packets delivered before the first metadata event, if any came.
        var packetsBeforeMetadata: Int?

        var frames: Int64 { packets.reduce(0) { $0 + $1[2] } }
        var cookie: [UInt8]? { if case .data(let cookie)? = properties[.magicCookieData] { cookie } else { nil } }
        var table: PacketTableInfo? {
            if case .packetTableInfo(let table)? = properties[.packetTableInfo] { table } else { nil }
        }
    }

    static func parse(_ bytes: [UInt8], chunking: Chunking = .whole) throws -> Parse {
        var result = Parse()
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                result.batches += 1
                for description in batch.descriptions! {
                    let frames = batch.format.framesPerPacket != 0 ? batch.format.framesPerPacket
                        : description.variableFramesInPacket
                    result.packets.append([batch.streamOffset + description.startOffset,
                                           Int64(description.dataByteSize), Int64(frames)])
                }
            case .property(let id, let value):
                result.properties[id] = value
                if case .format(let format) = value { result.formats.append(format) }
            case .metadata(let event):
                result.metadata.append(event.metadata)
                result.packetsBeforeMetadata = result.packetsBeforeMetadata ?? result.packets.count
            case .warning(let warning): result.warnings.append(warning)
            case .discontinuity(let gap): result.skipped += gap.skippedBytes
            }
        }
        try feed(bytes, to: stream, chunking: chunking)
        return result
    }

    /// Offsets and sizes are ffprobe's. Frames are the sample table's, ffprobe's durations; for AAC, AC-3 and
    /// E-AC-3 every packet holds the codec's frames, and the table's shorter last duration is the padding the
    /// packet table trims. The HE-AAC fixtures' packets are the same AAC packets, so they are here too.
    @Test(arguments: streamable + Fixtures.heaac)
    func packetsMatchFFprobeInAnyChunking(fixture: Fixtures.Fixture) throws {
        let expected = fixture.expectedPacketsWithFrames
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 5), .fixed(4093)] {
            let parse = try Self.parse(fixture.bytes, chunking: chunking)
            let format = try #require(parse.formats.first)
            #expect(parse.packets.map { $0.prefix(2) } == expected.map { $0.prefix(2) }, "\(chunking)")
            for (index, (packet, want)) in zip(parse.packets, expected).enumerated() where want[2] >= 0 {
                if format.framesPerPacket != 0 && index == expected.count - 1 {
                    #expect(want[2] <= packet[2])
                } else {
                    #expect(packet[2] == want[2], "packet \(index), \(chunking)")
                }
            }
            #expect(parse.skipped == 0)
        }
    }

    /// Rate, channels and codec as ffprobe reads them; the cookie is the codec configuration FFmpeg extracts
    /// (its ALAC extradata keeps the `alac` box header and version, 12 bytes before the ALACSpecificConfig).
    @Test(arguments: streamable)
    func formatAndCookieAreFFprobes(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let parse = try Self.parse(fixture.bytes)
        let format = try #require(parse.formats.first)
        #expect(parse.formats.count == 1)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
        let extradata = Self.bytes(hex: facts["extradata"] as! String)
        let codec = facts["codec"] as! String
        let formats: [String: FourCharCode] = [
            "aac": AudioFormatID.mpeg4AAC, "alac": AudioFormatID.appleLossless, "ac3": AudioFormatID.ac3,
            "eac3": AudioFormatID.enhancedAC3, "opus": AudioFormatID.opus, "flac": AudioFormatID.flac,
        ]
        #expect(format.formatID == formats[codec])
        switch codec {
        case "aac":
            #expect(format.framesPerPacket == 1024 && format.formatFlags == 2)
            #expect(parse.cookie == extradata)
        case "ac3", "eac3":
            #expect(format.framesPerPacket == 1536)
            #expect(parse.cookie == nil && extradata.isEmpty)
        case "alac":
            #expect(parse.cookie.map { [UInt8]($0) } == Array(extradata.dropFirst(12)))
        default:
            #expect(parse.cookie == extradata)
        }
        #expect(parse.properties[.audioDataPacketCount] == (facts["fragmented"] as! Bool ? nil
            : .uint64(UInt64(facts["packets"] as! Int))))
    }

    /// The edit list's priming is the decoder's skip samples; its length the stream's duration; with the
    /// remainder they add up to the packets' frames.
    @Test(arguments: streamable.filter { ($0.facts?["skipSamples"] as? Int ?? 0) > 0 && $0.name != "aac-itunsmpb.m4a" })
    func editListGivesThePacketTable(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let parse = try Self.parse(fixture.bytes, chunking: .random(seed: 3))
        let table = try #require(parse.table)
        #expect(Int(table.primingFrames) == facts["skipSamples"] as! Int)
        #expect(table.validFrames == Int64(facts["durationTs"] as! Int))
        #expect(table.validFrames + Int64(table.primingFrames) + Int64(table.remainderFrames) == parse.frames)
    }

    /// iTunes' gapless comment wins over the edit list: its priming, padding and length, as mutagen reads it.
    @Test func iTunSMPBGivesThePacketTable() throws {
        let fixture = Self.fixture("aac-itunsmpb.m4a")
        let tags = try #require(fixture.facts?["tags"] as? [String: Any])
        let comment = try #require((tags["----:com.apple.iTunes:iTunSMPB"] as? [String])?.first)
        let fields = comment.split(separator: " ").map { Int64($0, radix: 16)! }
        let parse = try Self.parse(fixture.bytes)
        #expect(parse.table == PacketTableInfo(validFrames: fields[3], primingFrames: Int32(fields[1]),
                                               remainderFrames: Int32(fields[2])))
    }

    /// Read as a stream, a file whose moov follows its mdat cannot give packets: Apple's "not optimized", with
    /// the command that fixes the file, in any chunking.
    @Test func moovAfterMdatIsNotOptimized() throws {
        let fixture = Self.fixture("aac-lc-moov-at-end.m4a")
        #expect(fixture.facts?["moovAfterMdat"] as? Bool == true)
        for chunking in [Chunking.whole, .fixed(7)] {
            let failure = try #require(throws: AudioFileStreamFailure.self) { try Self.parse(fixture.bytes, chunking: chunking) }
            #expect(failure.error == .notOptimized)
            #expect(failure.error.code == "optm")
            #expect(failure.reason.contains("-movflags +faststart"))
        }
    }

    /// Fed from the moov on, then the mdat at its own offset (a seek back), as `audiostream` feeds a file, the
    /// same file gives ffprobe's packets at their absolute offsets.
    @Test func moovAfterMdatReadsWhenTheMoovIsFedFirst() throws {
        let fixture = Self.fixture("aac-lc-moov-at-end.m4a")
        let bytes = fixture.bytes
        let moov = try #require(Self.topLevelBox("moov", in: bytes))
        let mdat = try #require(Self.topLevelBox("mdat", in: bytes))
        var packets: [[Int64]] = []
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for description in batch.descriptions! {
                packets.append([batch.streamOffset + description.startOffset, Int64(description.dataByteSize)])
            }
        }
        try stream.parse(Array(bytes[..<mdat.lowerBound]))
        try stream.parse(Array(bytes[moov]), offset: Int64(moov.lowerBound))
        try stream.parse(Array(bytes[mdat]), offset: Int64(mdat.lowerBound))
        try stream.finish()
        #expect(packets == fixture.expectedPacketsWithFrames.map { Array($0.prefix(2)) })
    }

    /// Every common key and raw atom of the M4A mutagen tagged, against what mutagen reads.
    @Test func iTunesAtomsAreMutagens() throws {
        let fixture = Self.fixture("aac-tagged.m4a")
        let recorded = try #require(fixture.facts?["tags"] as? [String: Any])
        let parse = try Self.parse(fixture.bytes, chunking: .random(seed: 11))
        #expect(parse.metadata.map(\.source) == [.itunes])
        let metadata = try #require(parse.metadata.first)
        func text(_ key: String) -> [String]? { (recorded[key] as? [Any])?.map { "\($0)" } }
        func raw(_ key: String) -> RawTagValue? { metadata.raw.first { $0.key == key }?.value }
        for key in ["©nam", "©ART", "aART", "©alb", "©day", "©wrt", "©cmt", "©grp", "----:com.apple.iTunes:MOOD"] {
            #expect(raw(key) == .text(try #require(text(key))), "\(key)")
        }
        let track = try #require((recorded["trkn"] as? [[Int]])?.first)
        let disc = try #require((recorded["disk"] as? [[Int]])?.first)
        #expect(raw("trkn") == .text(["\(track[0])/\(track[1])"]))
        #expect(raw("disk") == .text(["\(disc[0])/\(disc[1])"]))
        // mutagen resolves gnre to its name under ©gen.
        #expect(raw("gnre") == .text(try #require(text("©gen"))))
        #expect(raw("tmpo") == .text(try #require(text("tmpo"))))
        #expect(raw("cpil") == .text([recorded["cpil"] as! Bool ? "1" : "0"]))
        let cover = try #require((recorded["covr"] as? [[String: Any]])?.first)
        guard case .picture(let artwork)? = raw("covr") else { Issue.record("no covr picture"); return }
        #expect(artwork.mimeType == cover["mime"] as? String)
        #expect(artwork.size == cover["size"] as? Int)
        #expect(artwork.data == Self.bytes(hex: cover["hex"] as! String))

        let tags = metadata.tags
        #expect(tags.title == text("©nam")?.first && tags.title == "测试标题")
        #expect(tags.artist == text("©ART")?.first)
        #expect(tags.albumArtist == text("aART")?.first)
        #expect(tags.album == text("©alb")?.first)
        #expect(tags.year == text("©day")?.first)
        #expect(tags.trackNumber == track[0] && tags.trackCount == track[1])
        #expect(tags.discNumber == disc[0] && tags.discCount == disc[1])
        #expect(tags.genre == "Jazz" && tags.genre == text("©gen")?.first)
        #expect(tags.composer == text("©wrt")?.first)
        #expect(tags.comments == text("©cmt")?.first)
        #expect(tags.grouping == text("©grp")?.first)
        #expect(tags.bpm == (recorded["tmpo"] as? [Int])?.first)
        #expect(tags.artwork == artwork)
        #expect(parse.packetsBeforeMetadata == 0)
        #expect(parse.packets.count == fixture.expectedPackets.count)
    }

    /// A cover larger than `maxArtworkBytes` keeps its type and size, not its bytes.
    @Test func artworkKeepsWithinTheLimits() throws {
        var metadata: [Metadata] = []
        let stream = try AudioFileStream(limits: MetadataLimits(maxArtworkBytes: 100)) { event in
            if case .metadata(let event) = event { metadata.append(event.metadata) }
        }
        try feed(Self.fixture("aac-tagged.m4a").bytes, to: stream)
        let artwork = try #require(metadata.first?.tags.artwork)
        #expect(artwork.data.isEmpty && artwork.size > 100 && artwork.mimeType == "image/jpeg")
    }

    /// QuickTime user data (©-atoms) and `mdta`-keyed QuickTime metadata, as ffprobe reads the container's tags.
    @Test(arguments: [("quicktime-userdata.mov", "quicktimeUserData", "title", "artist"),
                      ("quicktime-metadata.mov", "quicktimeMetadata", "com.apple.quicktime.title",
                       "com.apple.quicktime.artist")])
    func quickTimeTagsAreFFprobes(name: String, source: String, titleKey: String, artistKey: String) throws {
        let fixture = Self.fixture(name)
        let recorded = try #require(fixture.facts?["formatTags"] as? [String: String])
        let parse = try Self.parse(fixture.bytes, chunking: .random(seed: 2))
        let metadata = try #require(parse.metadata.first)
        #expect(parse.metadata.count == 1)
        #expect(metadata.source.rawValue == source)
        #expect(metadata.tags.title == recorded[titleKey])
        #expect(metadata.tags.artist == recorded[artistKey])
        let rawTitleKey = source == "quicktimeUserData" ? "©nam" : titleKey
        #expect(metadata.raw.first { $0.key == rawTitleKey }?.value == .text([recorded[titleKey]!]))
        if source == "quicktimeUserData" { #expect(metadata.tags.album == recorded["album"]) }
    }

    /// The video track (first in the file) is reported once; its chunks between the audio's are passed over, so
    /// the audio's packets come in batches between them.
    @Test func anotherTrackIsReportedOnceAndItsChunksPassedOver() throws {
        let fixture = Self.fixture("video-and-aac.mp4")
        #expect(fixture.facts?["streams"] as? [String] == ["video", "audio"])
        let parse = try Self.parse(fixture.bytes, chunking: .random(seed: 7))
        #expect(parse.warnings.map(\.kind) == [.otherStreamIgnored])
        #expect(parse.warnings.first?.message.contains("'vide'") == true)
        let whole = try Self.parse(fixture.bytes)
        #expect(whole.batches > 1 && whole.batches < whole.packets.count)
    }

    /// Fragmented files give every packet, with the fragments' durations, and their header properties.
    @Test(arguments: ["aac-fragmented.mp4", "aac-cmaf.mp4"])
    func fragmentedFilesStream(name: String) throws {
        let fixture = Self.fixture(name)
        #expect(fixture.facts?["fragmented"] as? Bool == true)
        let parse = try Self.parse(fixture.bytes, chunking: .fixed(333))
        #expect(parse.packets.count == fixture.expectedPackets.count)
        #expect(parse.properties[.readyToProducePackets] == .uint32(1))
        #expect(parse.properties[.fileFormat] == .fileType(.mpeg4))
    }

    /// After a seek inside the mdat (bytes left out, the next fed at their offset), packets go on from the
    /// first sample at or after the new offset; the sample the seek cut is dropped, never given in part.
    @Test(arguments: ["aac-lc-faststart.m4a", "video-and-aac.mp4", "flac.mp4"])
    func aSeekInTheMediaDataGoesOnAtTheNextSample(name: String) throws {
        let fixture = Self.fixture(name)
        let expected = fixture.expectedPackets
        let cut = Int(expected[expected.count / 3].offset) + 3
        let resume = Int(expected[expected.count / 2].offset) - 5
        var packets: [PacketRecord] = []
        let stream = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for description in batch.descriptions! {
                packets.append(PacketRecord(offset: batch.streamOffset + description.startOffset,
                                            size: Int(description.dataByteSize)))
            }
        }
        try feed(fixture.bytes, to: stream, chunking: .random(seed: 4), skips: [cut..<resume])
        #expect(packets == expected.filter { $0.offset + Int64($0.size) <= cut || $0.offset >= resume })
    }

    @Test func m4aBrandIsTheFileFormat() throws {
        #expect(try Self.parse(Self.fixture("aac-lc-faststart.m4a").bytes).properties[.fileFormat] == .fileType(.m4a))
    }

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// The byte range of the first top-level box of `type`.
    static func topLevelBox(_ type: String, in bytes: [UInt8]) -> Range<Int>? {
        var position = 0
        while position + 8 <= bytes.count {
            let size = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[position + 4..<position + 8].elementsEqual(type.utf8) { return position..<position + size }
            position += size
        }
        return nil
    }
}
