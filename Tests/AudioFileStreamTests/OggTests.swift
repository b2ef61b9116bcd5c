import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// Ogg Opus and Vorbis against ffprobe's packets and ffmpeg's, opusinfo's and mutagen's facts (recorded by
/// Tests/Fixtures/make_ogg_fixtures.py), in any chunking: chained, multiplexed, continued and damaged streams.
@Suite struct OggTests {
    @Test func everyFixtureIsThere() {
        #expect(Fixtures.ogg.count == 18)
    }

    /// What a parse gave: each packet's page, size and frames, and everything else it reported.
    struct Parse {
        var packets: [[Int64]] = []
        var assembled = 0
        var formats: [AudioStreamBasicDescription] = []
        var cookies: [[UInt8]] = []
        var tables: [PacketTableInfo] = []
        var metadata: [Metadata] = []
        var warnings: [StreamWarning] = []
        var skipped: Int64 = 0
        var stream: AudioFileStream?

        /// Frames of every packet.
        var frames: Int64 { packets.reduce(0) { $0 + $1[2] } }
    }

    static func parse(_ fixture: Fixtures.Fixture, chunking: Chunking = .whole) throws -> Parse {
        try parse(bytes: fixture.bytes, pages: #require(fixture.facts?["pageOffsets"] as? [Int]).map(Int64.init),
                  chunking: chunking)
    }

    static func parse(bytes: [UInt8], pages: [Int64] = [], chunking: Chunking = .whole) throws -> Parse {
        var result = Parse()
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                if batch.isAssembled { result.assembled += 1 }
                for description in batch.descriptions! {
                    let offset = batch.streamOffset + description.startOffset
                    let page = pages.last { $0 <= offset } ?? -1
                    result.packets.append([page, Int64(description.dataByteSize),
                                           Int64(description.variableFramesInPacket)])
                }
            case .property(.dataFormat, .format(let format)): result.formats.append(format)
            case .property(.magicCookieData, .data(let cookie)): result.cookies.append(cookie)
            case .property(.packetTableInfo, .packetTableInfo(let table)): result.tables.append(table)
            case .metadata(let event): result.metadata.append(event.metadata)
            case .warning(let warning): result.warnings.append(warning)
            case .discontinuity(let gap) where gap.reason == .resync: result.skipped += gap.skippedBytes
            default: break
            }
        }
        try feed(bytes, to: stream, chunking: chunking)
        result.stream = stream
        return result
    }

    /// ffprobe's packets, with the frame counts it trims (marked -1) taken from ours.
    static func expected(_ fixture: Fixtures.Fixture, matching packets: [[Int64]]) -> [[Int64]] {
        fixture.expectedPacketsWithFrames.enumerated().map { index, row in
            row[2] >= 0 || index >= packets.count ? row : [row[0], row[1], packets[index][2]]
        }
    }

    @Test(arguments: Fixtures.ogg)
    func packetsMatchFFprobeInAnyChunking(fixture: Fixtures.Fixture) throws {
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 5)] {
            let parse = try Self.parse(fixture, chunking: chunking)
            #expect(parse.packets == Self.expected(fixture, matching: parse.packets), "\(chunking)")
        }
    }

    /// PacketTableInfo's valid frames are the stream's length, its remainder what ffprobe cuts from the last
    /// packet, and with the priming they add up to the packets' frames; Opus's priming is its pre-skip, as
    /// opusinfo reads it, and its valid frames what ffmpeg decodes.
    @Test(arguments: Fixtures.ogg.filter { $0.facts?["decodedFrames"] != nil })
    func framesAndGaplessInfoMatchTheDecoders(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let parse = try Self.parse(fixture)
        let table = try #require(parse.tables.last)
        let format = try #require(parse.formats.first)
        #expect(format.sampleRate == Double(facts["codec"] as! String == "opus" ? 48000 : facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
        #expect(table.validFrames == Int64(facts["validFrames"] as! Int))
        #expect(table.validFrames + Int64(table.primingFrames) + Int64(table.remainderFrames) == parse.frames)
        let last = try #require(parse.packets.last)[2]
        #expect(last - Int64(table.remainderFrames) == Int64(facts["lastPacketTrimmedFrames"] as! Int))
        #expect(parse.warnings.isEmpty)
        switch facts["codec"] as! String {
        case "opus":
            #expect(format.formatID == AudioFormatID.opus)
            #expect(Int(table.primingFrames) == facts["primingFrames"] as! Int)
            #expect(table.validFrames == Int64(facts["decodedFrames"] as! Int))
            #expect(parse.cookies.first?.starts(with: Array("OpusHead".utf8)) == true)
        case "vorbis":
            #expect(format.formatID == AudioFormatID.vorbis)
            // Xiph lacing of the three headers: count less one, then the sizes of the first two.
            let cookie = try #require(parse.cookies.first)
            #expect(cookie.first == 2 && cookie[1] == 30)
            let headers = try #require(cookie[2...].firstIndex { $0 != 255 }) + 1
            #expect(cookie[headers...].starts(with: [1] + Array("vorbis".utf8)))
        default:
            #expect(format.formatID == AudioFormatID.flac)
            #expect(format.formatFlags == (facts["bitsPerSample"] as! Int == 24 ? 3 : 1))
            // STREAMINFO: 34 bytes, the rate in its 20 bits from byte 10.
            let cookie = try #require(parse.cookies.first)
            #expect(cookie.count == 34)
            #expect(Int(cookie[10]) << 12 | Int(cookie[11]) << 4 | Int(cookie[12] >> 4) == facts["sampleRate"] as! Int)
            #expect(parse.frames == Int64(facts["decodedFrames"] as! Int))
        }
        #expect(try parse.stream?.property(.fileFormat) == .fileType(.ogg))
    }

    /// A chain announces each link's format and cookie, and each link's gapless info.
    @Test(arguments: ["ogg-opus-chained.opus", "ogg-vorbis-chained-rate.ogg"])
    func aChainAnnouncesEveryLink(name: String) throws {
        let fixture = Fixtures.ogg.first { $0.name == name }!
        let parse = try Self.parse(fixture, chunking: .random(seed: 9))
        #expect(parse.formats.count == 2)
        #expect(parse.cookies.count == 2)
        if name.contains("rate") {
            #expect(parse.formats.map(\.sampleRate) == [44100, 22050])
            #expect(parse.formats.map(\.channelsPerFrame) == [2, 1])
        }
        #expect(parse.tables.filter { $0.validFrames > 0 }.count == 2)
        #expect(parse.warnings.isEmpty)
    }

    /// A source that restarts sends a new stream without ending the old one (no EOS): the new stream is a new
    /// link all the same, and its packets all come through.
    @Test func aNewStreamWithoutTheOldOnesEndIsANewLink() throws {
        let fixture = Fixtures.ogg.first { $0.name == "ogg-opus-chained.opus" }!
        let secondLink = try #require(fixture.facts?["partOffsets"] as? [Int])[1]
        let pages = try #require(fixture.facts?["pageOffsets"] as? [Int])
        let lastPageOfFirst = try #require(pages.last { $0 < secondLink })
        let bytes = Array(fixture.bytes[..<lastPageOfFirst] + fixture.bytes[secondLink...])
        let parse = try Self.parse(bytes: bytes, chunking: .random(seed: 8))
        #expect(parse.formats.count == 2)
        #expect(parse.metadata.map(\.tags.title) == ["First", "Second"])
        let secondLinkSizes = fixture.expectedPacketsWithFrames.filter { $0[0] >= secondLink }.map { $0[1] }
        #expect(parse.packets.suffix(secondLinkSizes.count).map { $0[1] } == secondLinkSizes)
    }

    @Test func aSecondLogicalStreamIsIgnoredAndReportedOnce() throws {
        let parse = try Self.parse(Fixtures.ogg.first { $0.name == "ogg-multiplexed.ogg" }!, chunking: .random(seed: 2))
        #expect(parse.warnings.map(\.kind) == [.otherStreamIgnored])
        #expect(parse.formats.map(\.formatID) == [AudioFormatID.opus])
    }

    @Test func packetsRunningOnAcrossPagesAreAssembled() throws {
        let parse = try Self.parse(Fixtures.ogg.first { $0.name == "ogg-opus-continued.opus" }!, chunking: .fixed(100))
        #expect(parse.assembled > 50)
    }

    /// Junk, a page whose CRC fails, a cut last page: skipped and reported; the packets are the clean ones'.
    @Test(arguments: ["ogg-opus-junk-between.opus", "ogg-opus-bad-crc.opus", "ogg-opus-cut.opus"])
    func damageIsSkippedAndReported(name: String) throws {
        let parse = try Self.parse(Fixtures.ogg.first { $0.name == name }!, chunking: .random(seed: 4))
        #expect(parse.skipped > 0)
    }

    /// Without its first page (OpusHead) nothing of a stream can be decoded: all of it is skipped.
    @Test func aStreamWithoutItsFirstPageGivesNoPackets() throws {
        let fixture = Fixtures.ogg.first { $0.name == "ogg-opus-no-bos.opus" }!
        let parse = try Self.parse(fixture)
        #expect(parse.packets.isEmpty)
        #expect(parse.skipped == Int64(fixture.bytes.count))
    }

    /// The comment header's fields are mutagen's comments, as written and in order, with the picture
    /// (METADATA_BLOCK_PICTURE) decoded; the common keys come from them.
    @Test(arguments: ["ogg-vorbis-tags.ogg", "ogg-opus-tags.opus"])
    func commentsAreMutagens(name: String) throws {
        let fixture = Fixtures.ogg.first { $0.name == name }!
        let recorded = try #require(fixture.facts?["tags"] as? [String: Any])
        let parse = try Self.parse(fixture, chunking: .random(seed: 6))
        let metadata = try #require(parse.metadata.first)
        #expect(parse.metadata.count == 1)
        #expect(metadata.source == .vorbisComment)
        let comments = recorded["comments"] as! [[String]]
        let pictures = recorded["pictures"] as! [[String: Any]]
        let text = metadata.raw.filter { if case .text = $0.value { true } else { false } }
        #expect(text.map(\.key) == comments.map { $0[0] })
        #expect(text.map(\.value) == comments.map { .text([$0[1]]) })
        let artworks = metadata.raw.compactMap { if case .picture(let artwork) = $0.value { artwork } else { nil } }
        #expect(artworks.count == pictures.count)
        for (artwork, picture) in zip(artworks, pictures) { try VorbisCommentTests.expect(artwork, equals: picture) }
        let values = Dictionary(comments.map { ($0[0].uppercased(), [$0[1]]) }, uniquingKeysWith: +)
        #expect(metadata.tags.title == values["TITLE"]?.joined(separator: "; "))
        #expect(metadata.tags.artist == values["ARTIST"]?.joined(separator: "; "))
        #expect(metadata.tags.album == values["ALBUM"]?[0])
        #expect(metadata.tags.year == values["DATE"]?[0])
        #expect(metadata.tags.genre == values["GENRE"]?[0])
        if name.contains("opus") {
            // TRACKNUMBER=3/12 (mutagen keeps it as text).
            #expect(values["TRACKNUMBER"] == ["3/12"])
            #expect(metadata.tags.trackNumber == 3 && metadata.tags.trackCount == 12)
            #expect(metadata.tags.artwork?.pictureType == 3)
        } else {
            #expect(metadata.tags.trackNumber == Int(values["TRACKNUMBER"]![0]))
            #expect(metadata.tags.trackCount == Int(values["TRACKTOTAL"]![0]))
            #expect(metadata.tags.discNumber == Int(values["DISCNUMBER"]![0]))
            #expect(metadata.tags.discCount == Int(values["DISCTOTAL"]![0]))
            #expect(metadata.tags.albumArtist == values["ALBUMARTIST"]?[0])
            #expect(metadata.tags.composer == values["COMPOSER"]?[0])
            #expect(metadata.tags.comments == values["DESCRIPTION"]?[0])
            #expect(metadata.tags.bpm == Int(values["BPM"]![0]))
            #expect(metadata.tags.grouping == values["GROUPING"]?[0])
        }
    }

    /// A station's title change is a new link: its comments come as a new metadata event, after its format.
    @Test(arguments: ["ogg-opus-chained.opus", "ogg-vorbis-chained-rate.ogg"])
    func eachLinkOfAChainGivesItsTitle(name: String) throws {
        let parse = try Self.parse(Fixtures.ogg.first { $0.name == name }!, chunking: .fixed(777))
        #expect(parse.metadata.map(\.tags.title) == ["First", "Second"])
    }

    /// An Ogg page of `packets` (each laced whole) and `open` (a piece that goes on on the next page).
    static func page(serial: UInt32 = 7, sequence: UInt32, flags: UInt8 = 0, granule: Int64 = -1,
                     packets: [[UInt8]] = [], open: [UInt8] = []) -> [UInt8] {
        var lacing: [UInt8] = []
        for packet in packets {
            lacing += [UInt8](repeating: 255, count: packet.count / 255) + [UInt8(packet.count % 255)]
        }
        lacing += [UInt8](repeating: 255, count: open.count / 255)
        var page = Array("OggS".utf8) + [0, flags]
        withUnsafeBytes(of: granule.littleEndian) { page += $0 }
        for field in [serial, sequence, 0] { withUnsafeBytes(of: field.littleEndian) { page += $0 } }
        page += [UInt8(lacing.count)] + lacing + packets.joined() + open
        let crc = page.withUnsafeBytes { OggCRC.update(0, with: $0) }
        withUnsafeBytes(of: crc.littleEndian) { page.replaceSubrange(22..<26, with: $0) }
        return page
    }

    static let opusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 1, 0x80, 0xBB, 0, 0, 0, 0, 0]
    static let opusTags: [UInt8] = Array("OpusTags".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
    /// A 20 ms CELT packet (TOC config 31, one frame).
    static let opusPacket: [UInt8] = [0xF8] + [UInt8](repeating: 0x55, count: 99)

    /// A packet that never ends (every page's last segment full, past `largestPacket`) is dropped and reported,
    /// holding bounded memory, and the packets after it come through.
    @Test func aPacketThatNeverEndsIsDroppedAndReported() throws {
        var bytes = Self.page(sequence: 0, flags: 2, granule: 0, packets: [Self.opusHead])
            + Self.page(sequence: 1, granule: 0, packets: [Self.opusTags])
            + Self.page(sequence: 2, granule: 960, packets: [Self.opusPacket])
        let piece = [UInt8](repeating: 0x55, count: 255 * 255)
        let pages = OggReader.largestPacket / piece.count + 2
        for index in 0..<pages {
            bytes += Self.page(sequence: UInt32(3 + index), flags: index == 0 ? 0 : 1, open: piece)
        }
        bytes += Self.page(sequence: UInt32(3 + pages), granule: 1920, packets: [Self.opusPacket])
        var packets: [Int64] = []
        var skipped: Int64 = 0
        var largestHeld = 0
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch): packets += batch.descriptions!.map { batch.streamOffset + $0.startOffset }
            case .discontinuity(let gap): skipped += gap.skippedBytes
            default: break
            }
        }
        for start in stride(from: 0, to: bytes.count, by: 100_000) {
            try stream.parse(Array(bytes[start..<min(start + 100_000, bytes.count)]))
            largestHeld = max(largestHeld, stream.bufferedByteCount)
        }
        try stream.finish()
        #expect(packets.count == 2)
        // Every piece of the endless packet is skipped (the pieces on its pages beyond the limit as well).
        #expect(skipped == Int64(pages * piece.count))
        #expect(largestHeld <= OggPage.largest)
    }

    /// A stream cut inside its header packets gives no packets and no format, only skipped bytes; so does one
    /// whose setup header lies (its modes cannot be read).
    @Test func truncatedOrBrokenHeadersGiveNoPackets() throws {
        let vorbis = Fixtures.ogg.first { $0.name == "ogg-vorbis-q0-44k-stereo.ogg" }!.bytes
        let pages = try #require(Fixtures.ogg.first { $0.name == "ogg-vorbis-q0-44k-stereo.ogg" }!
            .facts?["pageOffsets"] as? [Int])
        // Cut in the middle of the page holding the comment and setup headers.
        let cut = Array(vorbis[..<((pages[1] + pages[2]) / 2)])
        let parse = try Self.parse(bytes: cut)
        #expect(parse.packets.isEmpty && parse.formats.isEmpty)
        #expect(parse.skipped == Int64(cut.count - pages[1]))
        // The setup header's last bytes zeroed, page CRC rewritten: no framing bit, no modes to read.
        let header = Self.page(sequence: 0, flags: 2, granule: 0, packets: [
            [1] + Array("vorbis".utf8) + [0, 0, 0, 0, 2, 0x44, 0xAC, 0, 0] + [UInt8](repeating: 0, count: 12) + [0xB8, 1]])
        let comment = Self.page(sequence: 1, granule: 0, packets: [
            [3] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1], [5] + Array("vorbis".utf8) + [0, 0, 0, 0]])
        let broken = try Self.parse(bytes: header + comment + Self.page(sequence: 2, granule: 128, packets: [[0, 1]]))
        #expect(broken.packets.isEmpty && broken.formats.isEmpty)
        #expect(broken.warnings.map(\.kind) == [.otherStreamIgnored])
    }

    @Test(arguments: Fixtures.ogg)
    func fixtureKeepsTheInvariants(fixture: Fixtures.Fixture) throws {
        let stream = fixture.bytes.prefix(1 << 16)
        let quarter = UInt8((stream.count / 4) >> 8)
        for header: [UInt8] in [
            [0, 0, 0, 1] + Array(repeating: 0, count: 12),
            [0, 0, 0, 2, 1, quarter, 0, 100, 2, 2 * quarter, 0, 0x81, 3, 3 * quarter, 0, 7],
            [0, 0, 1, 2, 4, quarter, 0, 20, 5, 2 * quarter, 0, 50, 6, 3 * quarter, 0, 0x82],
        ] {
            let scenario = (header + stream).withUnsafeBytes(FuzzScenario.init)
            #expect(throws: Never.self, "\(scenario)") { try StreamInvariants.check(scenario) }
        }
    }
}
