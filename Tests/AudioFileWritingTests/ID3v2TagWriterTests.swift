import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

@Suite struct ID3v2TagWriterTests {
    /// Every key, with text beyond Latin-1 (and beyond the Basic Multilingual Plane, which UTF-16 writes as a pair).
    static let tags: NormalizedTags = {
        var tags = NormalizedTags()
        tags.title = "Nachtmusik — 夜の音楽 🎶"
        tags.artist = "Ünïcode Ørkester"
        tags.album = "Радио Архив"
        tags.albumArtist = "Various"
        tags.year = "2026-11-27T13:00:00"
        tags.trackNumber = 3
        tags.trackCount = 12
        tags.discNumber = 1
        tags.discCount = 2
        tags.genre = "Ambient"
        tags.comments = "recorded live — ζωντανά"
        tags.composer = "Ōtake"
        tags.bpm = 96
        tags.grouping = "Late night"
        // A PNG of one pixel, which ffprobe decodes as the file's attached picture.
        let picture: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
            0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00,
            0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xDF, 0xC0, 0x00, 0x00, 0x04, 0x01, 0x01, 0x80, 0xC5,
            0x2A, 0x18, 0x5D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        tags.artwork = Artwork(mimeType: "image/png", pictureType: 3, description: "Cover ✓", size: picture.count,
                               data: picture)
        return tags
    }()

    /// mutagen's reading of every frame, artwork as its size and first bytes.
    static let mutagenProgram = """
        tag = mutagen.id3.ID3(sys.argv[1])
        year = tag.get('TDRC') or tag.get('TYER')
        picture = tag.getall('APIC')[0]
        print(json.dumps({
            'version': tag.version[1], 'TIT2': str(tag['TIT2']), 'TPE1': str(tag['TPE1']), 'TALB': str(tag['TALB']),
            'TPE2': str(tag['TPE2']), 'year': str(year), 'TRCK': str(tag['TRCK']), 'TPOS': str(tag['TPOS']),
            'TCON': str(tag['TCON']), 'COMM': tag.getall('COMM')[0].text[0], 'TCOM': str(tag['TCOM']),
            'TBPM': str(tag['TBPM']), 'TIT1': str(tag['TIT1']), 'GRP1': str(tag['GRP1']),
            'mime': picture.mime, 'type': int(picture.type), 'desc': picture.desc, 'picture': list(picture.data)}))
        """

    @Test(arguments: [ID3v2TagWriter.Version.v24, .v23]) func mutagenReadsBackWhatWasSet(version: ID3v2TagWriter.Version) throws {
        let tags = Self.tags
        // The fixture's own bytes, Xing frame included, so that ffprobe has nothing to say of them.
        let stream = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("l3-cbr128-joint.mp3")))
        let path = try WrittenFile.at(ID3v2TagWriter(version: version).tag(for: tags) + stream, named: "tagged.mp3")
        defer { WrittenFile.remove(path) }
        let read = try WrittenFile.mutagen(Self.mutagenProgram, path)
        #expect(read["version"] as? Int == Int(version.rawValue))
        #expect(read["TIT2"] as? String == tags.title)
        #expect(read["TPE1"] as? String == tags.artist)
        #expect(read["TALB"] as? String == tags.album)
        #expect(read["TPE2"] as? String == tags.albumArtist)
        // ID3v2.3 has only the year; mutagen shows a 2.4 time stamp's date and time apart by a space.
        #expect(read["year"] as? String == (version == .v24 ? "2026-11-27 13:00:00" : "2026"))
        #expect(read["TRCK"] as? String == "3/12")
        #expect(read["TPOS"] as? String == "1/2")
        #expect(read["TCON"] as? String == tags.genre)
        #expect(read["COMM"] as? String == tags.comments)
        #expect(read["TCOM"] as? String == tags.composer)
        #expect(read["TBPM"] as? String == "96")
        #expect(read["TIT1"] as? String == tags.grouping)
        #expect(read["GRP1"] as? String == tags.grouping)
        #expect(read["mime"] as? String == "image/png")
        #expect(read["type"] as? Int == 3)
        #expect(read["desc"] as? String == tags.artwork?.description)
        #expect((read["picture"] as? [Int])?.map(UInt8.init) == tags.artwork?.data)
        #expect(try FFmpegTool.warnings(path) == "")
    }

    @Test(arguments: [ID3v2TagWriter.Version.v24, .v23]) func ourParserReadsBackWhatWasSet(version: ID3v2TagWriter.Version) throws {
        var expected = Self.tags
        if version == .v23 { expected.year = "2026" }
        let frames = try ParsedFixture(fixture: "l3-cbr128-joint.mp3").packets.flatMap(\.bytes)
        let read = try ParsedFixture(ID3v2TagWriter(version: version).tag(for: Self.tags) + frames)
        #expect(read.tags.map(\.tags) == [expected])
        #expect(read.tags.first?.source == .id3v2(majorVersion: version.rawValue))
    }

    @Test func noTagsWriteNoTagAndPaddingIsKept() throws {
        #expect(try ID3v2TagWriter().tag(for: NormalizedTags()).isEmpty)
        var tags = NormalizedTags()
        tags.title = "T"
        let tag = try ID3v2TagWriter().tag(for: tags, padding: 1_000)
        let path = try WrittenFile.at(tag + ParsedFixture(fixture: "l3-cbr128-joint.mp3").packets.flatMap(\.bytes),
                                    named: "padded.mp3")
        defer { WrittenFile.remove(path) }
        let read = try WrittenFile.mutagen("""
            tag = mutagen.id3.ID3(sys.argv[1])
            print(json.dumps({'size': tag.size, 'title': str(tag['TIT2'])}))
            """, path)
        #expect(read["size"] as? Int == tag.count)
        #expect(read["title"] as? String == "T")
    }
}
